//! Tokenizer of BT.CPP 4 scripts: byte offsets, single-quoted strings, `@root` identifiers.
//!
//! Bad input (a double quote, `3foo`, an unterminated string) becomes an [`Tok::Error`] token;
//! the parser reports it with its offset when it reaches it, as BT.CPP does.

/// An operator or delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Plus,
    Minus,
    Star,
    Slash,
    DotDot,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Bang,
    AmpAmp,
    PipePipe,
    EqEq,
    BangEq,
    Less,
    LessEq,
    Greater,
    GreaterEq,
    Assign,
    ColonEq,
    PlusEq,
    MinusEq,
    StarEq,
    SlashEq,
    Question,
    Colon,
    LParen,
    RParen,
    Semicolon,
}

/// One token's kind and payload.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Int(i64),
    Real(f64),
    Bool(bool),
    /// A string literal: byte range of its content in the source.
    Str(usize, usize),
    /// An identifier: byte range in the source.
    Ident(usize, usize),
    Op(Op),
    Error(&'static str),
    End,
}

/// A token and the byte offset where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub pos: usize,
}

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'@'
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Splits `src` into tokens, ending with [`Tok::End`].
pub(crate) fn tokenize(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
            continue;
        }
        let start = i;
        let tok = if c == b'\'' {
            match b[i + 1..].iter().position(|&x| x == b'\'') {
                Some(len) => {
                    i += len + 2;
                    Tok::Str(start + 1, start + 1 + len)
                }
                None => {
                    i = b.len();
                    Tok::Error("unterminated string")
                }
            }
        } else if c.is_ascii_digit() {
            number(src, &mut i)
        } else if ident_start(c) {
            i += 1;
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            match &src[start..i] {
                "true" => Tok::Bool(true),
                "false" => Tok::Bool(false),
                _ => Tok::Ident(start, i),
            }
        } else if let Some(op) = b.get(i + 1).and_then(|&n| two_char(c, n)) {
            i += 2;
            Tok::Op(op)
        } else {
            i += 1;
            match one_char(c) {
                Some(op) => Tok::Op(op),
                None if c == b'"' => {
                    Tok::Error("double-quoted strings are not allowed, use 'single quotes'")
                }
                None => {
                    // Skip the rest of a multi-byte character so offsets stay on boundaries.
                    while i < b.len() && !src.is_char_boundary(i) {
                        i += 1;
                    }
                    Tok::Error("invalid character")
                }
            }
        };
        out.push(Token { tok, pos: start });
    }
    out.push(Token {
        tok: Tok::End,
        pos: b.len(),
    });
    out
}

fn skip_garbage(b: &[u8], i: &mut usize) {
    while *i < b.len() && (ident_char(b[*i]) || b[*i] == b'.') {
        *i += 1;
    }
}

/// Scans an int (decimal or `0x` hex) or a real starting at `*i`.
fn number(src: &str, i: &mut usize) -> Tok {
    let b = src.as_bytes();
    let start = *i;
    if b[start] == b'0' && matches!(b.get(start + 1), Some(b'x' | b'X')) {
        *i += 2;
        let digits_start = *i;
        while *i < b.len() && b[*i].is_ascii_hexdigit() {
            *i += 1;
        }
        let digits = &src[digits_start..*i];
        if digits.is_empty() || (*i < b.len() && (ident_char(b[*i]) || b[*i] == b'.')) {
            skip_garbage(b, i);
            return Tok::Error("malformed hex number");
        }
        return match i64::from_str_radix(digits, 16) {
            Ok(v) => Tok::Int(v),
            Err(_) => Tok::Error("integer literal out of range"),
        };
    }
    while *i < b.len() && b[*i].is_ascii_digit() {
        *i += 1;
    }
    let mut real = false;
    if b.get(*i) == Some(&b'.') {
        match b.get(*i + 1) {
            // `65..x` is `65` then the concatenation operator.
            Some(b'.') => {}
            Some(d) if d.is_ascii_digit() => {
                real = true;
                *i += 1;
                while *i < b.len() && b[*i].is_ascii_digit() {
                    *i += 1;
                }
            }
            _ => {
                *i += 1;
                skip_garbage(b, i);
                return Tok::Error("incomplete real number");
            }
        }
    }
    if matches!(b.get(*i), Some(b'e' | b'E')) {
        real = true;
        *i += 1;
        if matches!(b.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
        if !b.get(*i).is_some_and(u8::is_ascii_digit) {
            skip_garbage(b, i);
            return Tok::Error("malformed exponent");
        }
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
    }
    if *i < b.len() && ident_start(b[*i]) {
        skip_garbage(b, i);
        return Tok::Error("invalid number");
    }
    let text = &src[start..*i];
    if real {
        text.parse::<f64>()
            .map_or(Tok::Error("invalid real number"), Tok::Real)
    } else {
        text.parse::<i64>()
            .map_or(Tok::Error("integer literal out of range"), Tok::Int)
    }
}

fn two_char(c: u8, n: u8) -> Option<Op> {
    Some(match (c, n) {
        (b'.', b'.') => Op::DotDot,
        (b'&', b'&') => Op::AmpAmp,
        (b'|', b'|') => Op::PipePipe,
        (b'=', b'=') => Op::EqEq,
        (b'!', b'=') => Op::BangEq,
        (b'<', b'=') => Op::LessEq,
        (b'>', b'=') => Op::GreaterEq,
        (b':', b'=') => Op::ColonEq,
        (b'+', b'=') => Op::PlusEq,
        (b'-', b'=') => Op::MinusEq,
        (b'*', b'=') => Op::StarEq,
        (b'/', b'=') => Op::SlashEq,
        _ => return None,
    })
}

fn one_char(c: u8) -> Option<Op> {
    Some(match c {
        b'+' => Op::Plus,
        b'-' => Op::Minus,
        b'*' => Op::Star,
        b'/' => Op::Slash,
        b'&' => Op::Amp,
        b'|' => Op::Pipe,
        b'^' => Op::Caret,
        b'~' => Op::Tilde,
        b'!' => Op::Bang,
        b'<' => Op::Less,
        b'>' => Op::Greater,
        b'=' => Op::Assign,
        b'?' => Op::Question,
        b':' => Op::Colon,
        b'(' => Op::LParen,
        b')' => Op::RParen,
        b';' => Op::Semicolon,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok> {
        tokenize(src).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn tokens_and_offsets() {
        let toks = tokenize("a:=0x1F+ 2.5e1;@b..'x'");
        let got: Vec<(Tok, usize)> = toks.into_iter().map(|t| (t.tok, t.pos)).collect();
        assert_eq!(
            got,
            vec![
                (Tok::Ident(0, 1), 0),
                (Tok::Op(Op::ColonEq), 1),
                (Tok::Int(31), 3),
                (Tok::Op(Op::Plus), 7),
                (Tok::Real(25.0), 9),
                (Tok::Op(Op::Semicolon), 14),
                (Tok::Ident(15, 17), 15),
                (Tok::Op(Op::DotDot), 17),
                (Tok::Str(20, 21), 19),
                (Tok::End, 22),
            ]
        );
    }

    #[test]
    fn bad_numbers_and_strings_are_error_tokens() {
        for src in [
            "3foo",
            "65.",
            "1e",
            "0x",
            "0x1g",
            "\"a\"",
            "'open",
            "99999999999999999999",
            "#",
        ] {
            assert!(
                matches!(kinds(src).first(), Some(Tok::Error(_))),
                "{src:?} should start with an error token"
            );
        }
        assert_eq!(kinds("65..x")[..2], [Tok::Int(65), Tok::Op(Op::DotDot)]);
        assert_eq!(
            kinds("true false"),
            vec![Tok::Bool(true), Tok::Bool(false), Tok::End]
        );
    }
}

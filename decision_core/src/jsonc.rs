//! A lenient JSON reader that keeps the line and column of every value, as the original
//! package's files need: `//` and `/* */` comments, duplicate keys keep the last, and every
//! value remembers where it stood so diagnostics can point at it.
//!
//! Two dialects share the reader:
//!
//! * [`parse`]: the jsoncpp-style dialect of the RoboMaster files (JSON plus comments and
//!   trailing commas).
//! * [`parse_json5`]: JSON5 (scenarios, soccer parameters, trees): duplicate keys are an
//!   error (the jsoncpp dialect keeps the last, as the original did); additionally unquoted identifier
//!   keys, single-quoted strings, `+`, leading-dot and trailing-dot numbers, hexadecimal
//!   integers, `Infinity` / `-Infinity` / `NaN` (read as non-finite numbers, for the caller
//!   to reject with a position), more escapes and line continuations in strings.

use std::fmt;

/// A 1-based line and column in a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Why a text file could not be read: I/O, or a byte that is not UTF-8 (with its position).
#[derive(Debug)]
pub enum ReadTextError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The byte at `pos` cannot start or continue a UTF-8 character.
    NotUtf8 {
        /// Line and column of the bad byte, counted as the readers count them.
        pos: Pos,
        /// The bad byte.
        byte: u8,
    },
}

impl ReadTextError {
    /// Where in the file the error is (none for an I/O error).
    pub fn pos(&self) -> Option<Pos> {
        match self {
            ReadTextError::Io(_) => None,
            ReadTextError::NotUtf8 { pos, .. } => Some(*pos),
        }
    }
}

impl fmt::Display for ReadTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadTextError::Io(e) => write!(f, "cannot read: {e}"),
            ReadTextError::NotUtf8 { byte, .. } => write!(
                f,
                "not UTF-8 text: byte 0x{byte:02X} cannot start or continue a character (save the file as UTF-8)"
            ),
        }
    }
}

impl std::error::Error for ReadTextError {}

/// Reads a UTF-8 text file; a bad byte is reported at its line and column, not at the start.
pub fn read_text(path: &std::path::Path) -> Result<String, ReadTextError> {
    let bytes = std::fs::read(path).map_err(ReadTextError::Io)?;
    String::from_utf8(bytes).map_err(|e| {
        let (pos, byte) = first_invalid_utf8(e.as_bytes());
        ReadTextError::NotUtf8 { pos, byte }
    })
}

/// Line and column (in characters, as the JSON reader counts them) of the first byte that is
/// not valid UTF-8, and that byte.
pub fn first_invalid_utf8(bytes: &[u8]) -> (Pos, u8) {
    let valid = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
    let line = prefix.matches('\n').count() + 1;
    let last = prefix.rsplit('\n').next().unwrap_or_default();
    // The reader does not count a leading byte order mark as a column.
    let column = last.chars().count() + 1 - usize::from(line == 1 && last.starts_with('\u{feff}'));
    let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    (
        Pos {
            line: to_u32(line),
            column: to_u32(column),
        },
        bytes.get(valid).copied().unwrap_or_default(),
    )
}

/// A parsed JSON value with its position.
#[derive(Debug, Clone, PartialEq)]
pub struct Json {
    /// Where the value starts.
    pub pos: Pos,
    /// The parsed value; nested values carry their own positions.
    pub value: JsonValue,
}

/// The shape of a parsed value.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonValue {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number; `integer` is true when the literal had no fraction or exponent (JSON5
    /// hexadecimal literals are integers).
    Number {
        /// The value as read (infinite for huge literals; in JSON5 also `Infinity`, `NaN`).
        value: f64,
        /// Whether the literal was written as an integer.
        integer: bool,
    },
    /// A string, quotes removed and escapes decoded.
    String(String),
    /// An array; each element keeps its own position.
    Array(Vec<Json>),
    /// An object; duplicate keys are resolved to the last one, in first-seen order.
    Object(Vec<Member>),
}

/// One `"key": value` entry of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key, unquoted and unescaped (JSON5 also allows a bare identifier).
    pub key: String,
    /// Where the key starts.
    pub key_pos: Pos,
    /// The value of the key's last occurrence when the key is repeated.
    pub value: Json,
}

/// One step of a path into a document: an object member by key or an array element by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSeg {
    /// An object member by key.
    Key(String),
    /// An array element by 0-based index.
    Index(usize),
}

impl Json {
    /// The deepest value along `path` and how many of its steps exist: the value at `path`
    /// itself when that count is `path.len()`, else its deepest existing ancestor (where a
    /// reader reports a defaulted or unknown field).
    pub fn deepest(&self, path: &[PathSeg]) -> (&Json, usize) {
        let mut at = self;
        for (depth, seg) in path.iter().enumerate() {
            let next = match (seg, &at.value) {
                (PathSeg::Key(key), JsonValue::Object(_)) => at.get(key).map(|m| &m.value),
                (PathSeg::Index(i), JsonValue::Array(items)) => items.get(*i),
                _ => None,
            };
            match next {
                Some(value) => at = value,
                None => return (at, depth),
            }
        }
        (at, path.len())
    }

    /// Calls `found` with the path (`path` extended, and restored after), the position and
    /// the value of every non-finite number (JSON5's `Infinity`, `NaN`) in document order:
    /// `serde_json` cannot hold them, so readers refuse them with their position first.
    pub fn for_each_non_finite(
        &self,
        path: &mut Vec<PathSeg>,
        found: &mut impl FnMut(&[PathSeg], Pos, f64),
    ) {
        match &self.value {
            JsonValue::Number { value, .. } if !value.is_finite() => found(path, self.pos, *value),
            JsonValue::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(PathSeg::Index(i));
                    item.for_each_non_finite(path, found);
                    path.pop();
                }
            }
            JsonValue::Object(members) => {
                for m in members {
                    path.push(PathSeg::Key(m.key.clone()));
                    m.value.for_each_non_finite(path, found);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    /// The member `key` of an object, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Member> {
        match &self.value {
            JsonValue::Object(members) => members.iter().find(|m| m.key == key),
            _ => None,
        }
    }

    /// The value as a `serde_json::Value` (positions dropped); integers stay integers while
    /// exact, non-finite numbers become `null` (check them first where they matter).
    pub fn to_serde(&self) -> serde_json::Value {
        use serde_json::Value;
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        match &self.value {
            JsonValue::Null => Value::Null,
            JsonValue::Bool(b) => Value::Bool(*b),
            JsonValue::String(s) => Value::String(s.clone()),
            JsonValue::Number { value, integer } => {
                let v = *value;
                if *integer && v.is_finite() && v.fract() == 0.0 && v.abs() <= EXACT {
                    // Exact by the bound above.
                    if v < 0.0 {
                        Value::from(v as i64)
                    } else {
                        Value::from(v as u64)
                    }
                } else {
                    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
                }
            }
            JsonValue::Array(items) => Value::Array(items.iter().map(Json::to_serde).collect()),
            JsonValue::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|m| (m.key.clone(), m.value.to_serde()))
                    .collect(),
            ),
        }
    }

    /// A short name of the value's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            JsonValue::Null => "null",
            JsonValue::Bool(_) => "a boolean",
            JsonValue::Number { .. } => "a number",
            JsonValue::String(_) => "a string",
            JsonValue::Array(_) => "an array",
            JsonValue::Object(_) => "an object",
        }
    }
}

/// A syntax error with its position.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct SyntaxError {
    /// Where the error was found.
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
}

/// Nesting deeper than this is rejected (no stack overflow on hostile files).
const MAX_DEPTH: usize = 128;

/// Parses a whole document in the jsoncpp-style dialect: one value, then only whitespace and
/// comments.
pub fn parse(text: &str) -> Result<Json, SyntaxError> {
    parse_dialect(text, false)
}

/// Parses a whole JSON5 document, keeping every key's and value's position.
pub fn parse_json5(text: &str) -> Result<Json, SyntaxError> {
    parse_dialect(text, true)
}

fn parse_dialect(text: &str, json5: bool) -> Result<Json, SyntaxError> {
    let mut parser = Parser {
        text,
        at: 0,
        line: 1,
        column: 1,
        depth: 0,
        json5,
    };
    // A UTF-8 byte order mark is tolerated.
    if parser.peek() == Some('\u{feff}') {
        parser.at += '\u{feff}'.len_utf8();
    }
    parser.skip_blank()?;
    let value = parser.value()?;
    parser.skip_blank()?;
    if let Some(c) = parser.peek() {
        return Err(parser.error(format!("unexpected `{c}` after the document's value")));
    }
    Ok(value)
}

/// Reads the text in place: `at` is a byte offset on a character boundary (no copy of the
/// document into a `Vec<char>`).
struct Parser<'a> {
    text: &'a str,
    at: usize,
    line: u32,
    column: u32,
    depth: usize,
    /// JSON5 instead of the jsoncpp-style dialect.
    json5: bool,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<char> {
        match self.text.as_bytes().get(self.at) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self
                .text
                .get(self.at..)
                .and_then(|rest| rest.chars().next()),
            None => None,
        }
    }

    /// The byte after the current one, for two-character ASCII tokens (`//`, `/*`, `0x`): a
    /// byte of a multi-byte character never equals an ASCII one.
    fn peek_second_byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at + 1).copied()
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Skips a run of ASCII blanks (indentation, line breaks) byte by byte.
    fn skip_ascii_space(&mut self) {
        while let Some(&b) = self.text.as_bytes().get(self.at) {
            match b {
                b' ' | b'\t' | b'\r' => self.column += 1,
                b'\n' => {
                    self.line += 1;
                    self.column = 1;
                }
                _ => return,
            }
            self.at += 1;
        }
    }

    /// Skips a `//` comment up to its line break (left for the caller) or the end of the text.
    fn skip_line_comment(&mut self) {
        let bytes = self.text.as_bytes();
        let rest = bytes.get(self.at..).unwrap_or_default();
        let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let skipped = rest.get(..len).unwrap_or_default();
        // Characters, not bytes: continuation bytes are 0b10xx_xxxx.
        let chars = skipped.iter().filter(|&&b| b & 0xC0 != 0x80).count();
        self.column += u32::try_from(chars).unwrap_or(u32::MAX);
        self.at += len;
    }

    /// The text from byte `begin` to the current position (both on character boundaries).
    fn since(&self, begin: usize) -> &'a str {
        let text: &'a str = self.text;
        text.get(begin..self.at).unwrap_or_default()
    }

    /// Skips ASCII letters, digits and `_` (a word, or the rest of a malformed number).
    fn skip_word_chars(&mut self) {
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
    }

    /// Skips the characters of a decimal literal (digits, signs, `.`, `e`); whether it was
    /// written as an integer (none of `.`, `e`, `E`).
    fn skip_decimal_chars(&mut self) -> bool {
        let mut integer = true;
        while let Some(c) = self.peek() {
            match c {
                '0'..='9' | '-' | '+' => {}
                '.' | 'e' | 'E' => integer = false,
                _ => break,
            }
            self.bump();
        }
        integer
    }

    /// Skips and returns the run of string characters before the next `quote`, backslash or
    /// line break (copied whole instead of character by character).
    fn plain_run(&mut self, quote: char) -> &'a str {
        let text: &'a str = self.text;
        let bytes = text.as_bytes();
        let begin = self.at;
        let mut end = begin;
        let mut chars = 0u32;
        while let Some(&b) = bytes.get(end) {
            if b == b'\\' || b == b'\n' || u32::from(b) == u32::from(quote) {
                break;
            }
            // Count characters, not bytes: continuation bytes are 0b10xx_xxxx.
            chars += u32::from(b & 0xC0 != 0x80);
            end += 1;
        }
        self.at = end;
        self.column += chars;
        text.get(begin..end).unwrap_or_default()
    }

    fn error(&self, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            pos: self.pos(),
            message: message.into(),
        }
    }

    fn skip_blank(&mut self) -> Result<(), SyntaxError> {
        loop {
            self.skip_ascii_space();
            match self.peek() {
                // JSON5 white space: vertical tab, form feed, no-break space, BOM, line and
                // paragraph separators and the other Unicode space separators.
                Some(c) if self.json5 && is_json5_extra_space(c) => {
                    self.bump();
                }
                Some('/') => {
                    let start = self.pos();
                    match self.peek_second_byte() {
                        Some(b'/') => self.skip_line_comment(),
                        Some(b'*') => {
                            self.bump();
                            self.bump();
                            loop {
                                match self.bump() {
                                    None => {
                                        return Err(SyntaxError {
                                            pos: start,
                                            message: "unterminated /* comment".into(),
                                        });
                                    }
                                    Some('*') if self.peek() == Some('/') => {
                                        self.bump();
                                        break;
                                    }
                                    Some(_) => {}
                                }
                            }
                        }
                        _ => return Err(self.error("unexpected `/`")),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self) -> Result<Json, SyntaxError> {
        let pos = self.pos();
        let value = match self.peek() {
            None => return Err(self.error("unexpected end of file, expected a value")),
            Some('{') => self.nested(Self::object)?,
            Some('[') => self.nested(Self::array)?,
            Some('"') => JsonValue::String(self.string('"')?),
            Some('\'') if self.json5 => JsonValue::String(self.string('\'')?),
            Some('-' | '+' | '.' | '0'..='9') if self.json5 => self.number_json5()?,
            Some('-' | '0'..='9') => self.number()?,
            Some(c) if c.is_ascii_alphabetic() => self.word()?,
            Some('\'') => {
                return Err(
                    self.error("unexpected `'`, expected a value (strings need double quotes)")
                );
            }
            Some(c) => return Err(self.error(format!("unexpected `{c}`, expected a value"))),
        };
        Ok(Json { pos, value })
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<JsonValue, SyntaxError>,
    ) -> Result<JsonValue, SyntaxError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn word(&mut self) -> Result<JsonValue, SyntaxError> {
        let start = self.pos();
        let begin = self.at;
        self.skip_word_chars();
        let word = self.since(begin);
        match word {
            "true" => Ok(JsonValue::Bool(true)),
            "false" => Ok(JsonValue::Bool(false)),
            "null" => Ok(JsonValue::Null),
            "Infinity" if self.json5 => Ok(JsonValue::Number {
                value: f64::INFINITY,
                integer: false,
            }),
            "NaN" if self.json5 => Ok(JsonValue::Number {
                value: f64::NAN,
                integer: false,
            }),
            "NaN" | "Infinity" | "inf" | "nan" => Err(SyntaxError {
                pos: start,
                message: format!("`{word}` is not a JSON number: write a finite number"),
            }),
            _ => Err(SyntaxError {
                pos: start,
                message: format!("unknown word `{word}`, expected a value (strings need quotes)"),
            }),
        }
    }

    fn number(&mut self) -> Result<JsonValue, SyntaxError> {
        let start = self.pos();
        let begin = self.at;
        let integer = self.skip_decimal_chars();
        // `-Infinity`, `-NaN`, `1st`: name the whole word, not just its sign or digits.
        if self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.skip_word_chars();
            let literal = self.since(begin);
            let hint = if literal
                .trim_start_matches(['-', '+'])
                .starts_with(['I', 'N', 'i', 'n'])
            {
                " is not a JSON number: write a finite number"
            } else {
                " is not a number (strings need quotes)"
            };
            return Err(SyntaxError {
                pos: start,
                message: format!("`{literal}`{hint}"),
            });
        }
        let literal = self.since(begin);
        match literal.parse::<f64>() {
            Ok(value) if is_json_number(literal) => Ok(JsonValue::Number { value, integer }),
            _ => Err(SyntaxError {
                pos: start,
                message: format!("malformed number `{literal}`"),
            }),
        }
    }

    /// A string opened by `quote` (`"`, or in JSON5 also `'`).
    fn string(&mut self, quote: char) -> Result<String, SyntaxError> {
        let start = self.pos();
        self.bump();
        let mut out = String::new();
        loop {
            out.push_str(self.plain_run(quote));
            match self.bump() {
                None | Some('\n') => {
                    return Err(SyntaxError {
                        pos: start,
                        message: "unterminated string".into(),
                    });
                }
                Some(c) if c == quote => return Ok(out),
                Some('\\') => {
                    // The backslash was just consumed (never a newline): point at it.
                    let escape_pos = Pos {
                        line: self.line,
                        column: self.column - 1,
                    };
                    if self.json5 {
                        self.escape_json5(escape_pos, &mut out)?;
                        continue;
                    }
                    match self.bump() {
                        Some('"') => out.push('"'),
                        Some('\\') => out.push('\\'),
                        Some('/') => out.push('/'),
                        Some('b') => out.push('\u{8}'),
                        Some('f') => out.push('\u{c}'),
                        Some('n') => out.push('\n'),
                        Some('r') => out.push('\r'),
                        Some('t') => out.push('\t'),
                        Some('u') => out.push(self.unicode_escape(escape_pos)?),
                        _ => {
                            return Err(SyntaxError {
                                pos: escape_pos,
                                message: "bad escape in string".into(),
                            });
                        }
                    }
                }
                Some(c) => out.push(c),
            }
        }
    }

    /// One JSON5 escape after its backslash: the JSON ones plus `\'`, `\v`, `\0`, `\xHH`,
    /// line continuations, and any other non-digit character standing for itself.
    fn escape_json5(&mut self, escape_pos: Pos, out: &mut String) -> Result<(), SyntaxError> {
        let bad = |message: &str| SyntaxError {
            pos: escape_pos,
            message: message.into(),
        };
        match self.bump() {
            None => return Err(bad("unterminated string")),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('v') => out.push('\u{b}'),
            Some('0') if !self.peek().is_some_and(|c| c.is_ascii_digit()) => out.push('\0'),
            Some('1'..='9' | '0') => return Err(bad("bad escape in string (no octal escapes)")),
            Some('x') => {
                let mut code = 0;
                for _ in 0..2 {
                    let digit = self
                        .bump()
                        .and_then(|c| c.to_digit(16))
                        .ok_or_else(|| bad("bad \\x escape in string"))?;
                    code = code * 16 + digit;
                }
                out.push(char::from_u32(code).ok_or_else(|| bad("bad \\x escape in string"))?);
            }
            Some('u') => out.push(self.unicode_escape(escape_pos)?),
            // Line continuations: the line break is dropped.
            Some('\n' | '\u{2028}' | '\u{2029}') => {}
            Some('\r') => {
                if self.peek() == Some('\n') {
                    self.bump();
                }
            }
            Some(c) => out.push(c),
        }
        Ok(())
    }

    fn hex4(&mut self, pos: Pos) -> Result<u32, SyntaxError> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = self
                .bump()
                .and_then(|c| c.to_digit(16))
                .ok_or(SyntaxError {
                    pos,
                    message: "bad \\u escape in string".into(),
                })?;
            code = code * 16 + digit;
        }
        Ok(code)
    }

    fn unicode_escape(&mut self, pos: Pos) -> Result<char, SyntaxError> {
        let high = self.hex4(pos)?;
        let code = if (0xD800..0xDC00).contains(&high) {
            if self.bump() != Some('\\') || self.bump() != Some('u') {
                return Err(SyntaxError {
                    pos,
                    message: "unpaired surrogate in \\u escape".into(),
                });
            }
            let low = self.hex4(pos)?;
            0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF)
        } else {
            high
        };
        char::from_u32(code).ok_or(SyntaxError {
            pos,
            message: "invalid \\u escape in string".into(),
        })
    }

    fn array(&mut self) -> Result<JsonValue, SyntaxError> {
        let open = self.pos();
        self.bump();
        let mut items = Vec::new();
        self.skip_blank()?;
        if self.peek() == Some(']') {
            self.bump();
            return Ok(JsonValue::Array(items));
        }
        loop {
            self.skip_blank()?;
            items.push(self.value()?);
            self.skip_blank()?;
            match self.bump() {
                Some(',') => {
                    self.skip_blank()?;
                    // A trailing comma before `]` is tolerated, as jsoncpp does.
                    if self.peek() == Some(']') {
                        self.bump();
                        return Ok(JsonValue::Array(items));
                    }
                }
                Some(']') => return Ok(JsonValue::Array(items)),
                Some(c) => {
                    return Err(
                        self.error_before(format!("expected `,` or `]` in array, found `{c}`"))
                    );
                }
                None => {
                    return Err(self.error(format!(
                        "unexpected end of file inside an array opened at {open}"
                    )));
                }
            }
        }
    }

    fn object(&mut self) -> Result<JsonValue, SyntaxError> {
        let open = self.pos();
        self.bump();
        let mut members: Vec<Member> = Vec::new();
        loop {
            self.skip_blank()?;
            match self.peek() {
                Some('}') => {
                    self.bump();
                    return Ok(JsonValue::Object(members));
                }
                Some('"') => {}
                Some('\'' | '$' | '_') if self.json5 => {}
                Some(c) if self.json5 && c.is_alphabetic() => {}
                Some(c) if self.json5 => {
                    return Err(self.error(format!("expected a key or `}}`, found `{c}`")));
                }
                Some('\'') => {
                    return Err(self.error(
                        "expected a quoted key or `}`, found `'` (keys need double quotes)",
                    ));
                }
                Some(c) => {
                    return Err(self.error(format!("expected a quoted key or `}}`, found `{c}`")));
                }
                None => {
                    return Err(self.error(format!(
                        "unexpected end of file inside an object opened at {open}"
                    )));
                }
            }
            let key_pos = self.pos();
            let key = match self.peek() {
                Some(quote @ ('"' | '\'')) => self.string(quote)?,
                _ => self.identifier(),
            };
            self.skip_blank()?;
            match self.bump() {
                Some(':') => {}
                Some(c) => {
                    return Err(
                        self.error_before(format!("expected `:` after key \"{key}\", found `{c}`"))
                    );
                }
                None => {
                    return Err(self.error(format!(
                        "unexpected end of file after a key (object opened at {open})"
                    )));
                }
            }
            self.skip_blank()?;
            let value = self.value()?;
            let member = Member {
                key,
                key_pos,
                value,
            };
            // Duplicate keys keep the last value, like the original's parser; JSON5 (our own
            // formats) refuses them, as serde's derived readers did.
            match members.iter_mut().find(|m| m.key == member.key) {
                Some(existing) if self.json5 => {
                    return Err(SyntaxError {
                        pos: member.key_pos,
                        message: format!(
                            "duplicate key \"{}\" (first at {})",
                            member.key, existing.key_pos
                        ),
                    });
                }
                Some(existing) => *existing = member,
                None => members.push(member),
            }
            self.skip_blank()?;
            match self.bump() {
                Some(',') => {}
                Some('}') => return Ok(JsonValue::Object(members)),
                Some(c) => {
                    return Err(self.error_before(format!(
                        "expected `,` or `}}` in object, found `{c}` (missing comma?)"
                    )));
                }
                None => {
                    return Err(self.error(format!(
                        "unexpected end of file inside an object opened at {open}"
                    )));
                }
            }
        }
    }

    /// A JSON5 unquoted key: an ECMAScript-style identifier name (letters, digits, `_`, `$`).
    fn identifier(&mut self) -> String {
        let begin = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
        {
            self.bump();
        }
        self.since(begin).to_owned()
    }

    /// A JSON5 number: an optional sign, then `Infinity`, `NaN`, a hexadecimal integer, or a
    /// decimal literal whose integer or fraction digits may be missing (`.5`, `5.`).
    fn number_json5(&mut self) -> Result<JsonValue, SyntaxError> {
        let start = self.pos();
        let begin = self.at;
        let negative = self.peek() == Some('-');
        if let Some('-' | '+') = self.peek() {
            self.bump();
        }
        let malformed = |literal: &str| SyntaxError {
            pos: start,
            message: format!("malformed number `{literal}`"),
        };
        if self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.skip_word_chars();
            let literal = self.since(begin);
            let value = match literal.trim_start_matches(['-', '+']) {
                "Infinity" => f64::INFINITY,
                "NaN" => f64::NAN,
                _ => {
                    return Err(SyntaxError {
                        pos: start,
                        message: format!("`{literal}` is not a number (strings need quotes)"),
                    });
                }
            };
            let value = if negative { -value } else { value };
            return Ok(JsonValue::Number {
                value,
                integer: false,
            });
        }
        if self.peek() == Some('0') && matches!(self.peek_second_byte(), Some(b'x' | b'X')) {
            self.bump();
            self.bump();
            let mut value = 0.0_f64;
            let mut digits = 0;
            while let Some(c) = self
                .peek()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                self.bump();
                match c.to_digit(16) {
                    Some(d) => {
                        value = value * 16.0 + f64::from(d);
                        digits += 1;
                    }
                    None => return Err(malformed(self.since(begin))),
                }
            }
            if digits == 0 {
                return Err(malformed(self.since(begin)));
            }
            let value = if negative { -value } else { value };
            return Ok(JsonValue::Number {
                value,
                integer: true,
            });
        }
        let integer = self.skip_decimal_chars();
        if self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.skip_word_chars();
            let literal = self.since(begin);
            return Err(SyntaxError {
                pos: start,
                message: format!("`{literal}` is not a number (strings need quotes)"),
            });
        }
        let literal = self.since(begin);
        match literal.parse::<f64>() {
            Ok(value) if is_json5_decimal(literal) => Ok(JsonValue::Number { value, integer }),
            _ => Err(malformed(literal)),
        }
    }

    /// An error at the character just consumed.
    fn error_before(&self, message: String) -> SyntaxError {
        let column = self.column.saturating_sub(1).max(1);
        SyntaxError {
            pos: Pos {
                line: self.line,
                column,
            },
            message,
        }
    }
}

/// JSON5 white space beyond JSON's (`\t`, `\n`, `\r`, space).
fn is_json5_extra_space(c: char) -> bool {
    matches!(
        c,
        '\u{b}' | '\u{c}' | '\u{a0}' | '\u{feff}' | '\u{2028}' | '\u{2029}' | '\u{1680}'
    ) || ('\u{2000}'..='\u{200a}').contains(&c)
        || matches!(c, '\u{202f}' | '\u{205f}' | '\u{3000}')
}

/// JSON5 decimal grammar: an optional sign, digits with an optional fraction where either
/// side of the dot may be empty (not both), no leading zeros, an optional exponent.
fn is_json5_decimal(literal: &str) -> bool {
    let bytes = literal.as_bytes();
    let mut i = 0;
    if matches!(bytes.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    let int_start = i;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_len = i - int_start;
    if int_len > 1 && bytes.get(int_start) == Some(&b'0') {
        return false;
    }
    let mut frac_len = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        frac_len = i - frac_start;
    }
    if int_len == 0 && frac_len == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == bytes.len()
}

/// Strict JSON number grammar (the float parser alone accepts more, like `+1` or `1.`).
fn is_json_number(literal: &str) -> bool {
    let bytes = literal.as_bytes();
    let mut i = 0;
    if bytes.first() == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_len = i - int_start;
    if int_len == 0 || (int_len > 1 && bytes.get(int_start) == Some(&b'0')) {
        return false;
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == frac_start {
            return false;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> SyntaxError {
        match parse(text) {
            Err(e) => e,
            Ok(v) => panic!("expected an error for {text:?}, got {v:?}"),
        }
    }

    #[test]
    fn comments_positions_and_duplicate_keys() {
        let doc = parse(
            "{\n  // a comment\n  \"a\": 1, /* block\n */ \"b\": [2.5, \"x\"],\n  \"a\": 3\n}",
        )
        .unwrap();
        let a = doc.get("a").unwrap();
        assert_eq!(a.key_pos, Pos { line: 5, column: 3 });
        assert_eq!(
            a.value.value,
            JsonValue::Number {
                value: 3.0,
                integer: true
            }
        );
        let b = doc.get("b").unwrap();
        // ` */ "b": [2.5, "x"],`: the `[` is column 10, `2.5` column 11.
        assert_eq!(
            b.value.pos,
            Pos {
                line: 4,
                column: 10
            }
        );
        let JsonValue::Array(items) = &b.value.value else {
            panic!()
        };
        assert_eq!(
            items[0].pos,
            Pos {
                line: 4,
                column: 11
            }
        );
        assert!(matches!(
            items[0].value,
            JsonValue::Number { integer: false, .. }
        ));
        // first-seen order is kept for duplicates
        let JsonValue::Object(members) = &doc.value else {
            panic!()
        };
        assert_eq!(members[0].key, "a");
    }

    #[test]
    fn syntax_errors_point_at_the_spot() {
        assert_eq!(err("{\"a\": 1\n \"b\": 2}").pos, Pos { line: 2, column: 2 });
        assert_eq!(err("[1, 2").pos.line, 1);
        assert_eq!(err("{\"a\": tru}").pos, Pos { line: 1, column: 7 });
        assert_eq!(err("{\"a\": 01}").pos, Pos { line: 1, column: 7 });
        assert_eq!(err("{\"a\": \"x}").pos, Pos { line: 1, column: 7 });
        assert_eq!(err("/* open").pos, Pos { line: 1, column: 1 });
        assert!(err("{} x").message.contains("after"));
        assert!(err("").message.contains("end of file"));
        assert!(err("{\"a\": NaN}").message.contains("NaN"));
    }

    #[test]
    fn huge_numbers_parse_as_infinite_and_deep_nesting_is_refused() {
        let doc = parse("1e999").unwrap();
        assert!(matches!(doc.value, JsonValue::Number { value, .. } if value.is_infinite()));
        let deep = "[".repeat(1000);
        assert!(err(&deep).message.contains("nesting"));
    }

    #[test]
    fn paths_lead_to_values_or_their_deepest_ancestor_and_non_finite_numbers_are_found() {
        let doc = parse_json5("{a: {b: [1, Infinity]}, c: NaN}").expect("parses");
        let path = [
            PathSeg::Key("a".into()),
            PathSeg::Key("b".into()),
            PathSeg::Index(1),
        ];
        let (value, found) = doc.deepest(&path);
        assert_eq!((found, value.pos.column), (3, 13));
        let missing = [PathSeg::Key("a".into()), PathSeg::Key("x".into())];
        let (ancestor, found) = doc.deepest(&missing);
        assert_eq!((found, ancestor.pos.column), (1, 5));
        let mut seen = Vec::new();
        doc.for_each_non_finite(&mut Vec::new(), &mut |path, pos, value| {
            seen.push((path.to_vec(), pos.column, value.is_nan()));
        });
        assert_eq!(
            seen,
            vec![
                (path.to_vec(), 13, false),
                (vec![PathSeg::Key("c".into())], 28, true)
            ]
        );
    }

    #[test]
    fn json5_refuses_duplicate_keys_where_jsoncpp_keeps_the_last() {
        let text = "{\"rate\": 5,\n \"rate\": 10}";
        let kept = parse(text).expect("the jsoncpp dialect keeps the last");
        assert_eq!(
            kept.get("rate").map(|m| &m.value.value),
            Some(&JsonValue::Number {
                value: 10.0,
                integer: true
            })
        );
        let e = parse_json5(text).expect_err("JSON5 refuses");
        assert_eq!((e.pos.line, e.pos.column), (2, 2));
        assert_eq!(e.message, "duplicate key \"rate\" (first at 1:2)");
    }

    #[test]
    fn columns_after_multibyte_strings_count_characters() {
        // "héllo → 😀" is 9 characters in 15 bytes: `b` stands at column 20, not 26.
        for doc in [
            parse("{\"a\": \"h\u{e9}llo \u{2192} \u{1f600}\", \"b\": 1}"),
            parse_json5("{'a': 'h\u{e9}llo \u{2192} \u{1f600}', 'b': 1}"),
        ] {
            let doc = doc.expect("parses");
            let b = doc.get("b").expect("b");
            assert_eq!((b.key_pos.line, b.key_pos.column), (1, 20));
            assert_eq!(b.value.pos.column, 25);
            let a = doc.get("a").expect("a");
            assert_eq!(
                a.value.value,
                JsonValue::String("h\u{e9}llo \u{2192} \u{1f600}".into())
            );
        }
    }

    #[test]
    fn trailing_commas_and_escapes() {
        let doc = parse("{\"s\": \"a\\n\\u00e9\\ud83d\\ude00\", \"l\": [1,],}").unwrap();
        assert_eq!(
            doc.get("s").unwrap().value.value,
            JsonValue::String("a\né😀".into())
        );
    }

    fn json5(text: &str) -> Json {
        match parse_json5(text) {
            Ok(v) => v,
            Err(e) => panic!("{text:?} should parse as JSON5: {e}"),
        }
    }

    fn json5_err(text: &str) -> SyntaxError {
        match parse_json5(text) {
            Err(e) => e,
            Ok(v) => panic!("expected a JSON5 error for {text:?}, got {v:?}"),
        }
    }

    fn number(doc: &Json, key: &str) -> (f64, bool) {
        match doc.get(key).map(|m| &m.value.value) {
            Some(JsonValue::Number { value, integer }) => (*value, *integer),
            other => panic!("{key}: expected a number, got {other:?}"),
        }
    }

    fn string(doc: &Json, key: &str) -> String {
        match doc.get(key).map(|m| &m.value.value) {
            Some(JsonValue::String(s)) => s.clone(),
            other => panic!("{key}: expected a string, got {other:?}"),
        }
    }

    #[test]
    fn json5_keys_strings_and_trailing_commas_keep_positions() {
        let doc =
            json5("{\n  // c\n  plain_key: 'single \"q\"',\n  $d_1: \"x\",\n  'q': [1, 2,],\n}");
        let m = doc.get("plain_key").unwrap();
        assert_eq!(m.key_pos, Pos { line: 3, column: 3 });
        assert_eq!(
            m.value.pos,
            Pos {
                line: 3,
                column: 14
            }
        );
        assert_eq!(string(&doc, "plain_key"), "single \"q\"");
        assert_eq!(string(&doc, "$d_1"), "x");
        let q = doc.get("q").unwrap();
        assert_eq!(q.key_pos, Pos { line: 5, column: 3 });
        assert!(matches!(&q.value.value, JsonValue::Array(items) if items.len() == 2));
        assert!(json5("{a: 1,}").get("a").is_some());
        assert!(json5("[1,]").pos.line == 1);
    }

    #[test]
    fn json5_numbers() {
        let doc = json5(
            "{a: +1, b: .5, c: 5., d: 0x1F, e: -0xff, f: Infinity, g: -Infinity, h: NaN, \
             i: +Infinity, j: 1e3, k: -.5e-1, l: 0}",
        );
        assert_eq!(number(&doc, "a"), (1.0, true));
        assert_eq!(number(&doc, "b"), (0.5, false));
        assert_eq!(number(&doc, "c"), (5.0, false));
        assert_eq!(number(&doc, "d"), (31.0, true));
        assert_eq!(number(&doc, "e"), (-255.0, true));
        assert_eq!(number(&doc, "f"), (f64::INFINITY, false));
        assert_eq!(number(&doc, "g"), (f64::NEG_INFINITY, false));
        assert!(number(&doc, "h").0.is_nan());
        assert_eq!(number(&doc, "i"), (f64::INFINITY, false));
        assert_eq!(number(&doc, "j"), (1000.0, false));
        assert_eq!(number(&doc, "k"), (-0.05, false));
        assert_eq!(number(&doc, "l"), (0.0, true));
        for bad in [
            "{a: 01}",
            "{a: .}",
            "{a: 0x}",
            "{a: 0xg1}",
            "{a: 1e}",
            "{a: --1}",
            "{a: +-1}",
        ] {
            assert!(json5_err(bad).message.contains("malformed number"), "{bad}");
        }
        assert!(json5_err("{a: -Inf}").message.contains("`-Inf`"));
        assert_eq!(json5_err("{a: 1st}").pos, Pos { line: 1, column: 5 });
    }

    #[test]
    fn json5_escapes_and_line_continuations() {
        let doc = json5("{s: 'it\\'s \\x41\\v\\0 \\q', t: \"one \\\n two\", u: 'a\\\r\nb'}");
        assert_eq!(string(&doc, "s"), "it's A\u{b}\0 q");
        assert_eq!(string(&doc, "t"), "one  two");
        assert_eq!(string(&doc, "u"), "ab");
        assert_eq!(json5_err("{s: '\\1'}").pos, Pos { line: 1, column: 6 });
        assert_eq!(json5_err("{s: 'open\n'}").pos, Pos { line: 1, column: 5 });
        // The position after a continuation counts the new line.
        let doc = json5("{s: 'a\\\nb', k: 1}");
        assert_eq!(doc.get("k").unwrap().key_pos, Pos { line: 2, column: 5 });
    }

    #[test]
    fn json5_syntax_errors_point_at_the_spot() {
        assert_eq!(json5_err("{a: 1\n b: 2}").pos, Pos { line: 2, column: 2 });
        assert_eq!(json5_err("{a 1}").pos, Pos { line: 1, column: 4 });
        assert_eq!(json5_err("{a: One}").pos, Pos { line: 1, column: 5 });
        assert!(json5_err("{a: One}").message.contains("unknown word `One`"));
        assert_eq!(json5_err("{1: 2}").pos, Pos { line: 1, column: 2 });
        assert!(json5_err("{a: inf}").message.contains("inf"));
        // JSON5 white space.
        assert!(json5("\u{feff}{\u{a0}a:\u{b}1\u{2028}}").get("a").is_some());
    }

    #[test]
    fn the_jsoncpp_dialect_still_refuses_json5() {
        for text in [
            "{a: 1}",
            "{'a': 1}",
            "{\"a\": 'x'}",
            "{\"a\": +1}",
            "{\"a\": .5}",
            "{\"a\": 5.}",
            "{\"a\": 0x10}",
            "{\"a\": Infinity}",
            "{\"a\": -Infinity}",
            "{\"a\": NaN}",
            "{\"a\": \"\\q\"}",
        ] {
            assert!(parse(text).is_err(), "{text} must stay an error");
        }
    }
}

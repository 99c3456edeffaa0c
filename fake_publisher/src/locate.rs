//! Finds where a value stands in JSON5 text, by its path (`robots.B1.patrol[2]`), so that
//! errors found after deserialising (unknown waypoint ids, negative speeds, ...) can name the
//! line and column. The text has already been parsed by `json5`, so the scanner is lenient:
//! it only needs to skip values correctly, not to reject bad ones.

use std::fmt;

/// One step of a path into a JSON5 document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// An object member by key, shown as `.key` (without the dot at the start).
    Key(String),
    /// An array element by 0-based index, shown as `[n]`.
    Index(usize),
}

/// A path into a JSON5 document, written like `robots.B1.patrol[2]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JsonPath(pub Vec<Seg>);

impl JsonPath {
    /// The empty path (the root).
    pub fn root() -> Self {
        Self(Vec::new())
    }

    /// This path followed by a member key.
    pub fn key(&self, key: &str) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Key(key.to_string()));
        p
    }

    /// This path followed by an array index.
    pub fn index(&self, index: usize) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Index(index));
        p
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(root)");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut line = 1;
    let mut column = 1;
    let mut prev_cr = false;
    for (i, c) in text.char_indices() {
        if i >= offset {
            break;
        }
        match c {
            '\n' if prev_cr => {}
            '\n' | '\r' | '\u{2028}' | '\u{2029}' => {
                line += 1;
                column = 1;
            }
            _ => column += 1,
        }
        prev_cr = c == '\r';
    }
    (line, column)
}

/// Line and column (1-based) of the value at `path`; when the path does not exist in the text
/// (a defaulted value), of its deepest existing ancestor. `(1, 1)` for the root.
pub fn locate(text: &str, path: &JsonPath) -> (usize, usize) {
    let mut scanner = Scanner {
        text: text.as_bytes(),
        pos: 0,
    };
    scanner.skip_ws();
    let mut found = scanner.pos;
    for seg in &path.0 {
        match scanner.enter(seg) {
            Some(at) => found = at,
            None => break,
        }
    }
    line_column(text, found)
}

struct Scanner<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) => self.pos += 1,
                Some(b'/') if self.text.get(self.pos + 1) == Some(&b'/') => {
                    while let Some(c) = self.peek() {
                        if c == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                Some(b'/') if self.text.get(self.pos + 1) == Some(&b'*') => {
                    self.pos += 2;
                    while self.pos < self.text.len() {
                        if self.text.get(self.pos) == Some(&b'*')
                            && self.text.get(self.pos + 1) == Some(&b'/')
                        {
                            self.pos += 2;
                            break;
                        }
                        self.pos += 1;
                    }
                }
                // Non-ASCII whitespace (NBSP, BOM, line separators): JSON5 allows them.
                Some(c) if c >= 0x80 => match self.non_ascii_space_len() {
                    Some(n) => self.pos += n,
                    None => return,
                },
                _ => return,
            }
        }
    }

    fn non_ascii_space_len(&self) -> Option<usize> {
        let rest = self.text.get(self.pos..)?;
        let s = match std::str::from_utf8(rest) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(rest.get(..e.valid_up_to())?).ok()?,
        };
        let c = s.chars().next()?;
        (c.is_whitespace() || c == '\u{feff}').then(|| c.len_utf8())
    }

    /// Skips a quoted string starting at the quote.
    fn skip_string(&mut self) -> String {
        let Some(quote) = self.peek() else {
            return String::new();
        };
        self.pos += 1;
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c == b'\\' {
                self.pos += 2;
                continue;
            }
            if c == quote {
                let s = String::from_utf8_lossy(self.text.get(start..self.pos).unwrap_or_default())
                    .into_owned();
                self.pos += 1;
                return s;
            }
            self.pos += 1;
        }
        String::new()
    }

    /// Skips a scalar that is not a string (number, literal, identifier key).
    fn skip_bare(&mut self) -> String {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if matches!(
                c,
                b',' | b':'
                    | b'}'
                    | b']'
                    | b'{'
                    | b'['
                    | b' '
                    | b'\t'
                    | b'\n'
                    | b'\r'
                    | b'/'
                    | b'"'
                    | b'\''
            ) {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            // Never stall on an unexpected character.
            self.pos += 1;
        }
        String::from_utf8_lossy(self.text.get(start..self.pos).unwrap_or_default()).into_owned()
    }

    fn skip_value(&mut self) {
        self.skip_ws();
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None => return,
                        Some(b'}') => {
                            self.pos += 1;
                            return;
                        }
                        Some(b',') => self.pos += 1,
                        _ => {
                            self.read_key();
                            self.skip_ws();
                            if self.peek() == Some(b':') {
                                self.pos += 1;
                            }
                            self.skip_value();
                        }
                    }
                }
            }
            Some(b'[') => {
                self.pos += 1;
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None => return,
                        Some(b']') => {
                            self.pos += 1;
                            return;
                        }
                        Some(b',') => self.pos += 1,
                        _ => self.skip_value(),
                    }
                }
            }
            Some(b'"' | b'\'') => {
                self.skip_string();
            }
            Some(_) => {
                self.skip_bare();
            }
            None => {}
        }
    }

    fn read_key(&mut self) -> String {
        self.skip_ws();
        match self.peek() {
            Some(b'"' | b'\'') => self.skip_string(),
            _ => self.skip_bare(),
        }
    }

    /// With the cursor at a value, moves to the child `seg` and returns its offset.
    fn enter(&mut self, seg: &Seg) -> Option<usize> {
        self.skip_ws();
        match (seg, self.peek()?) {
            (Seg::Key(want), b'{') => {
                self.pos += 1;
                loop {
                    self.skip_ws();
                    match self.peek()? {
                        b'}' => return None,
                        b',' => self.pos += 1,
                        _ => {
                            let key = self.read_key();
                            self.skip_ws();
                            if self.peek() == Some(b':') {
                                self.pos += 1;
                            }
                            self.skip_ws();
                            if &key == want {
                                return Some(self.pos);
                            }
                            self.skip_value();
                        }
                    }
                }
            }
            (Seg::Index(want), b'[') => {
                self.pos += 1;
                let mut index = 0;
                loop {
                    self.skip_ws();
                    match self.peek()? {
                        b']' => return None,
                        b',' => self.pos += 1,
                        _ => {
                            if index == *want {
                                return Some(self.pos);
                            }
                            self.skip_value();
                            index += 1;
                        }
                    }
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "// header\n{\n  field: '../config.json', /* c */\n  \"robots\": {\n    B1: {patrol: [3, 8,\n 10], speed: 1.5},\n  },\n}\n";

    #[test]
    fn finds_nested_values() {
        let p = JsonPath::root()
            .key("robots")
            .key("B1")
            .key("patrol")
            .index(2);
        assert_eq!(locate(TEXT, &p), (6, 2));
        assert_eq!(p.to_string(), "robots.B1.patrol[2]");
        let speed = JsonPath::root().key("robots").key("B1").key("speed");
        assert_eq!(locate(TEXT, &speed), (6, 14));
        assert_eq!(locate(TEXT, &JsonPath::root().key("field")), (3, 10));
    }

    #[test]
    fn missing_paths_point_at_the_deepest_ancestor() {
        let p = JsonPath::root().key("robots").key("B2").key("speed");
        assert_eq!(locate(TEXT, &p), (4, 13));
        assert_eq!(locate(TEXT, &JsonPath::root().key("rate")), (2, 1));
    }

    #[test]
    fn line_columns_count_characters() {
        assert_eq!(line_column("a\r\nbé c", 7), (2, 4));
    }
}

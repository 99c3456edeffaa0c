//! tinyxml2 leniency: rewrites attribute values that strict XML rejects (a raw `&` or `<`) or
//! normalises differently (newlines, tabs), keeping a map back to the original byte offsets.

use std::collections::HashMap;

/// One replaced span: `orig_start..orig_end` of the source became `new_start..new_end`.
#[derive(Debug, Clone, Copy)]
struct Edit {
    orig_start: usize,
    orig_end: usize,
    new_start: usize,
    new_end: usize,
}

/// The text handed to roxmltree, with the way back to the original offsets.
#[derive(Debug)]
pub(crate) struct Prepared {
    /// Text that strict XML accepts wherever tinyxml2 would.
    pub text: String,
    edits: Vec<Edit>,
    /// Attribute values as tinyxml2 reads them, keyed by the value's start in `text`.
    values: HashMap<usize, String>,
}

impl Prepared {
    /// The original byte offset of `offset` in the prepared text (a replaced span maps to its start).
    pub fn to_original(&self, offset: usize) -> usize {
        let idx = self.edits.partition_point(|e| e.new_start <= offset);
        if idx == 0 {
            return offset;
        }
        let e = self.edits[idx - 1];
        if offset < e.new_end {
            e.orig_start
        } else {
            e.orig_end + (offset - e.new_end)
        }
    }

    /// The tinyxml2 reading of the attribute value starting at `value_start` in the prepared text,
    /// when it differs from what roxmltree decodes.
    pub fn value_at(&self, value_start: usize) -> Option<&str> {
        self.values.get(&value_start).map(String::as_str)
    }
}

/// Scans the markup and rewrites attribute values that need tinyxml2 semantics.
pub(crate) fn prepare(src: &str) -> Prepared {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len() + 16);
    let mut edits = Vec::new();
    let mut values = HashMap::new();
    let mut copied = 0usize;
    let mut i = 0usize;
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            i = find(b, i + 4, b"-->").map_or(b.len(), |p| p + 3);
        } else if rest.starts_with(b"<![CDATA[") {
            i = find(b, i + 9, b"]]>").map_or(b.len(), |p| p + 3);
        } else if rest.starts_with(b"<?") {
            i = find(b, i + 2, b"?>").map_or(b.len(), |p| p + 2);
        } else if rest.starts_with(b"<!") {
            i = skip_declaration(b, i + 2);
        } else {
            // A start or end tag: attribute values are the quoted runs up to `>`.
            let mut j = i + 1;
            while j < b.len() {
                let c = b[j];
                if c == b'>' || c == b'<' {
                    break;
                }
                if c == b'"' || c == b'\'' {
                    let start = j + 1;
                    let end = b[start..]
                        .iter()
                        .position(|&x| x == c)
                        .map_or(b.len(), |p| start + p);
                    let raw = &src[start..end];
                    if let Some((decoded, encoded)) = rewrite_value(raw, c) {
                        out.push_str(&src[copied..start]);
                        let new_start = out.len();
                        out.push_str(&encoded);
                        edits.push(Edit {
                            orig_start: start,
                            orig_end: end,
                            new_start,
                            new_end: out.len(),
                        });
                        values.insert(new_start, decoded);
                        copied = end;
                    }
                    j = end + 1;
                    continue;
                }
                j += 1;
            }
            i = j.max(i + 1);
        }
    }
    out.push_str(&src[copied..]);
    Prepared {
        text: out,
        edits,
        values,
    }
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    b[from..]
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| from + p)
}

/// Skips `<!DOCTYPE ...>` and the like, including a bracketed internal subset.
fn skip_declaration(b: &[u8], mut j: usize) -> usize {
    let mut depth = 0usize;
    let mut quote = None;
    while j < b.len() {
        let c = b[j];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'"' | b'\'' => quote = Some(c),
                b'[' => depth += 1,
                b']' => depth = depth.saturating_sub(1),
                b'>' if depth == 0 => return j + 1,
                _ => {}
            },
        }
        j += 1;
    }
    b.len()
}

/// For a raw attribute value that needs it: (tinyxml2's reading, text strict XML accepts).
/// tinyxml2 reads a value up to its closing quote, so a raw `<` (`_skipIf="A<2"`) is kept
/// like a raw `&`.
fn rewrite_value(raw: &str, quote: u8) -> Option<(String, String)> {
    if !raw.contains(['&', '<', '\n', '\r', '\t']) {
        return None;
    }
    let decoded = tinyxml2_unescape(raw.as_bytes());
    let mut encoded = String::with_capacity(decoded.len() + 8);
    for ch in decoded.chars() {
        match ch {
            '&' => encoded.push_str("&amp;"),
            '<' => encoded.push_str("&lt;"),
            '"' if quote == b'"' => encoded.push_str("&quot;"),
            '\'' if quote == b'\'' => encoded.push_str("&apos;"),
            '\n' => encoded.push_str("&#10;"),
            '\t' => encoded.push_str("&#9;"),
            '\r' => encoded.push_str("&#13;"),
            c if is_xml_char(c) => encoded.push(c),
            _ => encoded.push('\u{FFFD}'),
        }
    }
    if encoded == raw {
        return None;
    }
    Some((decoded, encoded))
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// tinyxml2's entities, in its table order.
const ENTITIES: [(&[u8], u8); 5] = [
    (b"quot", b'"'),
    (b"amp", b'&'),
    (b"apos", b'\''),
    (b"lt", b'<'),
    (b"gt", b'>'),
];

/// A port of tinyxml2's in-place `StrPair::GetStr` for attribute values (entity processing and
/// newline normalisation). An `&` that starts no entity advances the write pointer without
/// writing: the slot keeps the source byte at the same offset, which is the `&` itself until an
/// entity or a CR-LF has shortened the text, and some earlier byte afterwards.
pub(crate) fn tinyxml2_unescape(src: &[u8]) -> String {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    let mut out: Vec<u8> = Vec::with_capacity(src.len());
    let mut p = 0usize;
    while p < src.len() {
        let c = src[p];
        if c == b'\r' {
            p += if at(p + 1) == b'\n' { 2 } else { 1 };
            out.push(b'\n');
        } else if c == b'\n' {
            p += if at(p + 1) == b'\r' { 2 } else { 1 };
            out.push(b'\n');
        } else if c == b'&' {
            if at(p + 1) == b'#' {
                match character_ref(src, p) {
                    None => {
                        out.push(c);
                        p += 1;
                    }
                    Some((next, bytes)) => {
                        out.extend_from_slice(&bytes);
                        p = next;
                    }
                }
            } else if let Some((pat, value)) = ENTITIES.iter().find(|(pat, _)| {
                src.get(p + 1..p + 1 + pat.len()) == Some(pat) && at(p + 1 + pat.len()) == b';'
            }) {
                out.push(*value);
                p += pat.len() + 2;
            } else {
                // "fixme: treat as error?": ++p; ++q; without writing.
                out.push(src.get(out.len()).copied().unwrap_or(0));
                p += 1;
            }
        } else {
            out.push(c);
            p += 1;
        }
    }
    // The value is a C string: a NUL from `&#0;` ends it.
    if let Some(nul) = out.iter().position(|&x| x == 0) {
        out.truncate(nul);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// tinyxml2's `XMLUtil::GetCharacterRef` at `p` (which holds `&#`): `None` when it is not a
/// reference (the `&` is then copied), else the read position after it and the UTF-8 bytes.
fn character_ref(src: &[u8], p: usize) -> Option<(usize, Vec<u8>)> {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    if at(p + 2) == 0 {
        return Some((p + 1, Vec::new()));
    }
    let hex = at(p + 2) == b'x';
    let first = if hex { p + 3 } else { p + 2 };
    if at(first) == 0 {
        return None;
    }
    let semi = first + src.get(first..)?.iter().position(|&x| x == b';')?;
    let stop = if hex { b'x' } else { b'#' };
    let base: u32 = if hex { 16 } else { 10 };
    let mut ucs: u64 = 0;
    let mut mult: u32 = 1;
    let mut q = semi - 1;
    while at(q) != stop {
        let d = at(q);
        let digit = match d {
            b'0'..=b'9' => u32::from(d - b'0'),
            b'a'..=b'f' if hex => u32::from(d - b'a') + 10,
            b'A'..=b'F' if hex => u32::from(d - b'A') + 10,
            _ => return None,
        };
        ucs = ucs.wrapping_add(u64::from(mult.wrapping_mul(digit)));
        mult = mult.wrapping_mul(base);
        q = q.checked_sub(1)?;
    }
    Some((semi + 1, utf32_to_utf8(ucs)))
}

/// tinyxml2's `ConvertUTF32ToUTF8` (no check for surrogates; nothing for 0x200000 and above).
fn utf32_to_utf8(mut input: u64) -> Vec<u8> {
    let len = match input {
        0..0x80 => 1,
        0x80..0x800 => 2,
        0x800..0x10000 => 3,
        0x10000..0x200000 => 4,
        _ => return Vec::new(),
    };
    const FIRST: [u64; 5] = [0x00, 0x00, 0xC0, 0xE0, 0xF0];
    let mut bytes = vec![0u8; len];
    for k in (1..len).rev() {
        bytes[k] = ((input | 0x80) & 0xBF) as u8;
        input >>= 6;
    }
    bytes[0] = (input | FIRST[len]) as u8;
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_ampersands_are_kept_before_any_entity() {
        assert_eq!(tinyxml2_unescape(b"a && b"), "a && b");
        assert_eq!(tinyxml2_unescape(b"a &foo; b"), "a &foo; b");
        assert_eq!(tinyxml2_unescape(b"x &amp;&amp; y"), "x && y");
    }

    #[test]
    fn quirk_after_an_entity_copies_stale_bytes() {
        // After `&lt;` (4 bytes -> 1) the write pointer lags 3 behind: each later raw `&`
        // leaves the source byte of its slot in place.
        assert_eq!(tinyxml2_unescape(b"x &lt;= y && z"), "x <= y  y z");
        assert_eq!(tinyxml2_unescape(b"&lt;&"), "<l");
    }

    #[test]
    fn character_references_follow_tinyxml2() {
        assert_eq!(tinyxml2_unescape(b"&#65;&#x42;"), "AB");
        assert_eq!(tinyxml2_unescape(b"&#x1x2;"), "\u{2}");
        assert_eq!(tinyxml2_unescape(b"a&#;b"), "a");
        assert_eq!(tinyxml2_unescape(b"a&#12 b"), "a&#12 b");
        assert_eq!(tinyxml2_unescape(b"a&#"), "a#");
        assert_eq!(tinyxml2_unescape("&#x4e2d;".as_bytes()), "中");
    }

    #[test]
    fn quirk_after_a_crlf_too() {
        // CR-LF -> LF also shortens the text, so a later raw `&` copies a stale byte.
        assert_eq!(tinyxml2_unescape(b"a\r\nb&c"), "a\nbbc");
    }

    #[test]
    fn newlines_are_normalised_and_kept() {
        assert_eq!(tinyxml2_unescape(b"a\r\nb\n\rc\rd\te"), "a\nb\nc\nd\te");
    }

    #[test]
    fn prepare_maps_offsets_back() {
        let src = r#"<a x="p && q" y="1"/>"#;
        let prep = prepare(src);
        assert_eq!(prep.text, r#"<a x="p &amp;&amp; q" y="1"/>"#);
        let y_new = prep.text.find("y=").unwrap_or(0);
        assert_eq!(prep.to_original(y_new), src.find("y=").unwrap_or(0));
        assert_eq!(prep.to_original(7), 6);
        assert_eq!(prep.value_at(6), Some("p && q"));
    }

    #[test]
    fn raw_less_than_signs_are_escaped() {
        let src = r#"<a _skipIf="A<2" y='b<=c && d'/>"#;
        let prep = prepare(src);
        assert_eq!(
            prep.text,
            r#"<a _skipIf="A&lt;2" y='b&lt;=c &amp;&amp; d'/>"#
        );
        let x_new = prep.text.find("A&lt;").unwrap_or(0);
        assert_eq!(prep.value_at(x_new), Some("A<2"));
        let y_new = prep.text.find("y=").unwrap_or(0);
        assert_eq!(prep.to_original(y_new), src.find("y=").unwrap_or(0));
    }

    #[test]
    fn comments_and_text_are_untouched() {
        let src = "<!-- a && b --><a>&amp;</a><![CDATA[ & ]]>";
        assert_eq!(prepare(src).text, src);
    }
}

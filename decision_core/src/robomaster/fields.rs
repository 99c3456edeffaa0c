//! Reading typed fields out of a parsed object with the original package's coercions
//! (jsoncpp `asInt` / `asDouble` / `asBool`): a real in an int field truncates toward zero, a
//! missing key or `null` reads as 0 / false. Every coercion and every missing key is a warning;
//! strings, arrays or objects where a number belongs, non-finite and out-of-range numbers are
//! errors.

use super::diagnostics::{Diagnostics, Place};
use super::jsonc::{Json, JsonValue, Member, Pos};

/// Reads the fields of one object, collecting diagnostics and remembering which keys it used.
pub struct FieldReader<'a> {
    object: &'a Json,
    place: Place<'a>,
    used: Vec<&'static str>,
}

impl<'a> FieldReader<'a> {
    /// Starts reading `object` (which the caller has checked is an object).
    pub fn new(object: &'a Json, place: Place<'a>) -> Self {
        Self {
            object,
            place,
            used: Vec::new(),
        }
    }

    /// The place diagnostics of this object point at.
    pub fn place(&self) -> &Place<'a> {
        &self.place
    }

    /// Position of the object itself.
    pub fn pos(&self) -> Pos {
        self.object.pos
    }

    /// The raw member `key`, marking it as used.
    pub fn member(&mut self, key: &'static str) -> Option<&'a Member> {
        self.used.push(key);
        self.object.get(key)
    }

    /// Position of `key`'s value, or of the object when the key is missing.
    pub fn pos_of(&self, key: &str) -> Pos {
        self.object
            .get(key)
            .map_or(self.object.pos, |m| m.value.pos)
    }

    fn missing(&self, diags: &mut Diagnostics, key: &str, reads_as: &str) {
        diags.warning(
            &self.place,
            self.object.pos,
            Some(key),
            format!("missing, reads as {reads_as} (the original treats a missing key as {reads_as}, not as \"skip\")"),
        );
    }

    /// An integer field (i32 range); missing or null reads as 0 with a warning.
    pub fn int(&mut self, diags: &mut Diagnostics, key: &'static str) -> i32 {
        match self.member(key) {
            None => {
                self.missing(diags, key, "0");
                0
            }
            Some(m) => coerce_int(&m.value, &self.place, key, diags).unwrap_or(0),
        }
    }

    /// An optional integer field: missing means `None` (no warning); null reads as 0.
    pub fn opt_int(&mut self, diags: &mut Diagnostics, key: &'static str) -> Option<i32> {
        let m = self.member(key)?;
        Some(coerce_int(&m.value, &self.place, key, diags).unwrap_or(0))
    }

    /// A real field; missing or null reads as 0 with a warning.
    pub fn real(&mut self, diags: &mut Diagnostics, key: &'static str) -> f64 {
        match self.member(key) {
            None => {
                self.missing(diags, key, "0");
                0.0
            }
            Some(m) => coerce_real(&m.value, &self.place, key, diags).unwrap_or(0.0),
        }
    }

    /// A boolean field; missing or null reads as false with a warning; a number is coerced.
    pub fn bool(&mut self, diags: &mut Diagnostics, key: &'static str) -> bool {
        match self.member(key) {
            None => {
                self.missing(diags, key, "false");
                false
            }
            Some(m) => coerce_bool(&m.value, &self.place, key, diags),
        }
    }

    /// A string field; missing or null reads as "" with a warning; a number or boolean is
    /// coerced to its text with a warning (jsoncpp `asString`); an array or object is an error.
    pub fn string(&mut self, diags: &mut Diagnostics, key: &'static str) -> String {
        match self.member(key) {
            None => {
                self.missing(diags, key, "\"\"");
                String::new()
            }
            Some(m) => match &m.value.value {
                JsonValue::String(s) => s.clone(),
                JsonValue::Null => {
                    diags.warning(&self.place, m.value.pos, Some(key), "null reads as \"\"");
                    String::new()
                }
                JsonValue::Number { value, integer } if value.is_finite() => {
                    let text = if *integer || value.fract() == 0.0 {
                        format!("{}", value.trunc())
                    } else {
                        format!("{value}")
                    };
                    diags.warning(
                        &self.place,
                        m.value.pos,
                        Some(key),
                        format!("number {value} coerced to \"{text}\""),
                    );
                    text
                }
                JsonValue::Bool(b) => {
                    diags.warning(
                        &self.place,
                        m.value.pos,
                        Some(key),
                        format!("boolean {b} coerced to \"{b}\""),
                    );
                    b.to_string()
                }
                _ => {
                    diags.error(
                        &self.place,
                        m.value.pos,
                        Some(key),
                        format!("expected a string, found {}", m.value.type_name()),
                    );
                    String::new()
                }
            },
        }
    }

    /// A non-empty list of integers; `None` after an error (reported).
    pub fn int_list(&mut self, diags: &mut Diagnostics, key: &'static str) -> Option<Vec<i32>> {
        let Some(m) = self.member(key) else {
            diags.error(
                &self.place,
                self.object.pos,
                Some(key),
                "missing (a list of waypoint ids, or [-1])",
            );
            return None;
        };
        int_list(&m.value, &self.place, key, diags)
    }

    /// Warns about keys of the object that no reader asked for.
    pub fn warn_unknown_keys(&self, diags: &mut Diagnostics) {
        if let JsonValue::Object(members) = &self.object.value {
            for m in members {
                if !self.used.contains(&m.key.as_str()) {
                    diags.warning(&self.place, m.key_pos, Some(&m.key), "unknown key, ignored");
                }
            }
        }
    }
}

/// Coerces `value` to an i32 like jsoncpp's `asInt`, reporting coercions and errors.
pub fn coerce_int(
    value: &Json,
    place: &Place,
    field: &str,
    diags: &mut Diagnostics,
) -> Option<i32> {
    match value.value {
        JsonValue::Number { value: v, integer } => {
            if !v.is_finite() {
                diags.error(place, value.pos, Some(field), "number is not finite");
                None
            } else if v.trunc() < f64::from(i32::MIN) || v.trunc() > f64::from(i32::MAX) {
                diags.error(
                    place,
                    value.pos,
                    Some(field),
                    format!("number {v} is out of the integer range"),
                );
                None
            } else {
                if !integer && v.fract() != 0.0 {
                    diags.warning(
                        place,
                        value.pos,
                        Some(field),
                        format!("real {v} truncated to integer {}", v.trunc()),
                    );
                }
                // In range and truncated: the cast is exact.
                Some(v.trunc() as i32)
            }
        }
        JsonValue::Null => {
            diags.warning(place, value.pos, Some(field), "null reads as 0");
            Some(0)
        }
        JsonValue::Bool(b) => {
            diags.warning(
                place,
                value.pos,
                Some(field),
                format!("boolean {b} coerced to {}", i32::from(b)),
            );
            Some(i32::from(b))
        }
        _ => {
            diags.error(
                place,
                value.pos,
                Some(field),
                format!("expected an integer, found {}", value.type_name()),
            );
            None
        }
    }
}

/// Coerces `value` to a finite f64 like jsoncpp's `asDouble`.
pub fn coerce_real(
    value: &Json,
    place: &Place,
    field: &str,
    diags: &mut Diagnostics,
) -> Option<f64> {
    match value.value {
        JsonValue::Number { value: v, .. } => {
            if v.is_finite() && v.abs() <= f64::from(f32::MAX) {
                Some(v)
            } else {
                diags.error(
                    place,
                    value.pos,
                    Some(field),
                    "number is not finite (or too large)",
                );
                None
            }
        }
        JsonValue::Null => {
            diags.warning(place, value.pos, Some(field), "null reads as 0");
            Some(0.0)
        }
        JsonValue::Bool(b) => {
            diags.warning(
                place,
                value.pos,
                Some(field),
                format!("boolean {b} coerced to {}", i32::from(b)),
            );
            Some(f64::from(u8::from(b)))
        }
        _ => {
            diags.error(
                place,
                value.pos,
                Some(field),
                format!("expected a number, found {}", value.type_name()),
            );
            None
        }
    }
}

/// Coerces `value` to a bool like jsoncpp's `asBool`.
pub fn coerce_bool(value: &Json, place: &Place, field: &str, diags: &mut Diagnostics) -> bool {
    match value.value {
        JsonValue::Bool(b) => b,
        JsonValue::Null => {
            diags.warning(place, value.pos, Some(field), "null reads as false");
            false
        }
        JsonValue::Number { value: v, .. } if v.is_finite() => {
            diags.warning(
                place,
                value.pos,
                Some(field),
                format!("number {v} coerced to {}", v != 0.0),
            );
            v != 0.0
        }
        JsonValue::Number { .. } => {
            diags.error(place, value.pos, Some(field), "number is not finite");
            false
        }
        _ => {
            diags.error(
                place,
                value.pos,
                Some(field),
                format!("expected a boolean, found {}", value.type_name()),
            );
            false
        }
    }
}

/// A non-empty array of integers.
pub fn int_list(
    value: &Json,
    place: &Place,
    field: &str,
    diags: &mut Diagnostics,
) -> Option<Vec<i32>> {
    let JsonValue::Array(items) = &value.value else {
        diags.error(
            place,
            value.pos,
            Some(field),
            format!("expected a list of integers, found {}", value.type_name()),
        );
        return None;
    };
    if items.is_empty() {
        diags.error(
            place,
            value.pos,
            Some(field),
            "empty list (write [-1] to skip this check)",
        );
        return None;
    }
    let mut out = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        match coerce_int(item, place, &format!("{field}[{i}]"), diags) {
            Some(v) => out.push(v),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

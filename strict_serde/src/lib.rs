//! Serde input in which a struct must be written as an object (the reader of every loader of
//! outside data: files, bus messages, recordings; a crate of its own so that the bus and the
//! engine share it without depending on each other).
//!
//! Serde's derived structs also accept an array and read it by position, so a parameter
//! written `ready: [0.15, 0.2]` or a pose written `[x, y, yaw]` would be taken silently, field
//! by field in declaration order. [`Strict`] wraps any deserializer and refuses an array
//! wherever a struct (or a struct variant) is expected, at every depth; everything else passes
//! through unchanged. Every reader of outside data (parameters, frames, trees, scenarios,
//! snapshots, bus messages) deserialises through it, usually via [`deserialize`] or
//! [`from_slice`].

#![warn(missing_docs)]

use serde::de::{self, DeserializeSeed, Deserializer, Expected, Visitor};
use std::fmt;

/// Deserialises `T` from `deserializer`, refusing arrays for structs and recording the path of
/// the offending field (`serde_path_to_error`), as every positioned loader needs.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<T, serde_path_to_error::Error<D::Error>>
where
    D: Deserializer<'de>,
    T: de::Deserialize<'de>,
{
    serde_path_to_error::deserialize(Strict(deserializer))
}

/// `serde_json::from_slice` with structs refused as arrays: the whole of `bytes` must be one
/// JSON value of type `T` (for messages and records read from the bus or a recording).
pub fn from_slice<'de, T: de::Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = T::deserialize(Strict(&mut de))?;
    de.end()?;
    Ok(value)
}

/// Why one JSON line (a `decide` snapshot, a soccer frame) does not read as its type: where in
/// the line and which field, for an error that names line, column and field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// 1-based column in the line.
    pub column: usize,
    /// The offending field's path (`game.players[2]`; `.` for the line as a whole).
    pub field: String,
    /// What is wrong, without serde's own position (the caller names the place).
    pub message: String,
}

/// Reads one JSON line as `T` through [`deserialize`]: the line must be one value of `T`; a
/// failure names its column and the field's path. The one reader of every line-based input.
pub fn from_json_line<T: de::DeserializeOwned>(line: &[u8]) -> Result<T, LineError> {
    let mut de = serde_json::Deserializer::from_slice(line);
    let value: T = deserialize(&mut de).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        LineError {
            column: inner.column(),
            field,
            message: without_position(&inner.to_string()),
        }
    })?;
    de.end().map_err(|e| LineError {
        column: e.column(),
        field: ".".into(),
        message: without_position(&e.to_string()),
    })?;
    Ok(value)
}

/// A serde_json message without its trailing ` at line L column C` (for errors that name the
/// place their own way).
pub fn without_position(message: &str) -> String {
    message
        .split(" at line ")
        .next()
        .unwrap_or(message)
        .to_owned()
}

/// A deserializer that refuses an array where a struct is expected (see the module doc).
pub struct Strict<D>(pub D);

/// The visitor wrapper: passes every value on, wraps nested deserializers and, for a struct,
/// refuses a sequence.
struct Wrap<V> {
    inner: V,
    is_struct: bool,
}

impl<V> Wrap<V> {
    fn value(inner: V) -> Self {
        Wrap {
            inner,
            is_struct: false,
        }
    }

    fn structure(inner: V) -> Self {
        Wrap {
            inner,
            is_struct: true,
        }
    }
}

/// What a struct expects, said as an object ("struct Pose written as an object {"name": ...}").
struct AsObject<'a>(&'a dyn Expected);

impl fmt::Display for AsObject<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} written as an object {{\"name\": value, ...}}",
            self.0
        )
    }
}

impl Expected for AsObject<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

macro_rules! forward_deserialize {
    ($($method:ident),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
                self.0.$method(Wrap::value(visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward_deserialize!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_unit_struct(name, Wrap::value(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_newtype_struct(name, Wrap::value(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_tuple(len, Wrap::value(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_tuple_struct(name, len, Wrap::value(visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_struct(name, fields, Wrap::structure(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_enum(name, variants, Wrap::value(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident: $ty:ty),* $(,)?) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit!(
        visit_bool: bool,
        visit_i8: i8,
        visit_i16: i16,
        visit_i32: i32,
        visit_i64: i64,
        visit_i128: i128,
        visit_u8: u8,
        visit_u16: u16,
        visit_u32: u32,
        visit_u64: u64,
        visit_u128: u128,
        visit_f32: f32,
        visit_f64: f64,
        visit_char: char,
        visit_str: &str,
        visit_borrowed_str: &'de str,
        visit_string: String,
        visit_bytes: &[u8],
        visit_borrowed_bytes: &'de [u8],
        visit_byte_buf: Vec<u8>,
    );

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_some(Strict(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_newtype_struct(Strict(d))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        if self.is_struct {
            return Err(de::Error::invalid_type(
                de::Unexpected::Seq,
                &AsObject(&self.inner),
            ));
        }
        self.inner.visit_seq(StrictSeq(seq))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_map(StrictMap(map))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_enum(StrictEnum(data))
    }
}

/// A seed whose deserializer is wrapped in [`Strict`].
struct StrictSeed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(Strict(d))
    }
}

/// The elements of an array, each read strictly.
struct StrictSeq<A>(A);

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for StrictSeq<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// The members of an object, each value read strictly.
struct StrictMap<A>(A);

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for StrictMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(StrictSeed(seed))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// An enum whose variant content is read strictly.
struct StrictEnum<A>(A);

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for StrictEnum<A> {
    type Error = A::Error;
    type Variant = StrictVariant<A::Variant>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(StrictSeed(seed))
            .map(|(value, variant)| (value, StrictVariant(variant)))
    }
}

/// A variant's content, read strictly (a struct variant must be an object too).
struct StrictVariant<A>(A);

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for StrictVariant<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(StrictSeed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap::value(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap::structure(visitor))
    }
}

#[cfg(test)]
mod tests {
    use super::{LineError, deserialize, from_json_line, without_position};
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Pose {
        x: f64,
        y: f64,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Outer {
        pose: Option<Pose>,
        #[serde(default)]
        poses: Vec<Pose>,
        #[serde(default)]
        pair: Option<(f64, f64)>,
        #[serde(default)]
        shape: Option<Shape>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Shape {
        Circle { r: f64 },
        Dot,
    }

    fn from_str(text: &str) -> Result<Outer, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        deserialize(&mut de).map_err(|e| format!("{}: {}", e.path(), e.inner()))
    }

    #[test]
    fn objects_tuples_and_arrays_of_objects_pass() {
        let outer = from_str(
            r#"{"pose": {"x": 1, "y": 2}, "poses": [{"x": 3, "y": 4}], "pair": [5, 6],
                "shape": {"circle": {"r": 1}}}"#,
        )
        .unwrap();
        assert_eq!(outer.pose, Some(Pose { x: 1.0, y: 2.0 }));
        assert_eq!(outer.poses, vec![Pose { x: 3.0, y: 4.0 }]);
        assert_eq!(outer.pair, Some((5.0, 6.0)));
        assert_eq!(outer.shape, Some(Shape::Circle { r: 1.0 }));
    }

    #[test]
    fn an_array_for_a_struct_is_refused_at_every_depth() {
        let message = from_str(r#"{"pose": [1, 2]}"#).unwrap_err();
        assert!(
            message.starts_with(
                "pose: invalid type: sequence, expected struct Pose written as an object"
            ),
            "{message}"
        );
        let message = from_str(r#"{"poses": [{"x": 1, "y": 2}, [3, 4]]}"#).unwrap_err();
        assert!(
            message.starts_with("poses[1]: invalid type: sequence"),
            "{message}"
        );
        let message = from_str(r#"{"shape": {"circle": [1]}}"#).unwrap_err();
        assert!(
            message.starts_with("shape.circle: invalid type: sequence"),
            "{message}"
        );
        let message = from_str(r#"[null]"#).unwrap_err();
        assert!(
            message.contains("expected struct Outer written as an object"),
            "{message}"
        );
    }

    #[test]
    fn from_slice_refuses_arrays_and_trailing_text() {
        assert!(super::from_slice::<Pose>(br#"{"x": 1, "y": 2}"#).is_ok());
        let e = super::from_slice::<Pose>(b"[1, 2]").unwrap_err();
        assert!(e.to_string().contains("written as an object"), "{e}");
        assert!(super::from_slice::<Pose>(br#"{"x": 1, "y": 2} x"#).is_err());
    }

    #[test]
    fn values_work_as_well() {
        let value = serde_json::json!({"pose": [1, 2]});
        let error = deserialize::<_, Outer>(value).unwrap_err();
        assert_eq!(error.path().to_string(), "pose");
        let value = serde_json::json!({"pose": {"x": 1, "y": 2}});
        assert!(deserialize::<_, Outer>(value).is_ok());
    }

    #[test]
    fn a_json_line_error_names_its_column_and_field_without_serdes_position() {
        let line = br#"{"pose": {"x": 1, "y": "a"}}"#;
        let err = from_json_line::<Outer>(line).expect_err("y is a string");
        assert_eq!(err.column, 26);
        assert_eq!(err.field, "pose.y");
        assert_eq!(err.message, "invalid type: string \"a\", expected f64");
        // Trailing data after the value is the line's fault as a whole.
        let err = from_json_line::<Pose>(br#"{"x": 1, "y": 2} 3"#).expect_err("trailing");
        assert_eq!(
            err,
            LineError {
                column: 18,
                field: ".".into(),
                message: "trailing characters".into()
            }
        );
        let pose: Pose = from_json_line(br#"{"x": 1, "y": 2}"#).expect("reads");
        assert_eq!(pose, Pose { x: 1.0, y: 2.0 });
        assert_eq!(
            without_position("expected value at line 1 column 5"),
            "expected value"
        );
    }
}

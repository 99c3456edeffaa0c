//! Typed decoding of received payloads with errors that name the topic and the field path.

use serde::de::DeserializeOwned;

/// A payload that did not decode: the topic, the field path (`hp[3]`, `header.stamp`, `.` for
/// the root) and serde's message without the line / column suffix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("topic `{topic}`: field `{field}`: {message}")]
pub struct DecodeError {
    /// The topic the payload arrived on (without the namespace).
    pub topic: String,
    /// Path of the offending field, `.` for the root.
    pub field: String,
    /// What was wrong.
    pub message: String,
}

/// Decodes a JSON payload received on `topic` into `T`, naming the offending field on error.
pub fn decode<T: DeserializeOwned>(topic: &str, payload: &[u8]) -> Result<T, DecodeError> {
    let mut de = serde_json::Deserializer::from_slice(payload);
    let value = strict_serde::deserialize::<_, T>(&mut de).map_err(|err| {
        let field = err.path().to_string();
        DecodeError {
            topic: topic.to_owned(),
            field,
            message: bare_message(err.inner()),
        }
    })?;
    de.end().map_err(|err| DecodeError {
        topic: topic.to_owned(),
        field: ".".to_owned(),
        message: bare_message(&err),
    })?;
    Ok(value)
}

/// serde_json's message without its ` at line L column C` suffix.
fn bare_message(err: &serde_json::Error) -> String {
    let text = err.to_string();
    if err.line() == 0 {
        return text;
    }
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    match text.strip_suffix(&suffix) {
        Some(bare) => bare.to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::ObjHp;

    #[test]
    fn names_the_element_of_a_list() {
        let err = decode::<ObjHp>(
            "obj_hp",
            br#"{"header":{"stamp":{"sec":1,"nanosec":2}},"hp":[1,2,3,"x"]}"#,
        )
        .err()
        .map(|e| (e.field.clone(), e.to_string()));
        assert_eq!(
            err,
            Some((
                "hp[3]".to_owned(),
                "topic `obj_hp`: field `hp[3]`: invalid type: string \"x\", expected u16"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn garbage_is_a_root_error() {
        let err = decode::<ObjHp>("obj_hp", b"\xff\x00garbage").err();
        assert_eq!(err.as_ref().map(|e| e.topic.as_str()), Some("obj_hp"));
        assert_eq!(err.as_ref().map(|e| e.field.as_str()), Some("."));
    }

    #[test]
    fn trailing_characters_are_rejected() {
        let err = decode::<ObjHp>(
            "obj_hp",
            br#"{"header":{"stamp":{"sec":1,"nanosec":2}},"hp":[]} x"#,
        )
        .err();
        assert_eq!(err.map(|e| e.field), Some(".".to_owned()));
    }

    #[test]
    fn good_payload_decodes() {
        let hp = decode::<ObjHp>(
            "obj_hp",
            br#"{"header":{"stamp":{"sec":1,"nanosec":2}},"hp":[7]}"#,
        );
        assert_eq!(hp.map(|m| (m.header.stamp.sec, m.hp)), Ok((1, vec![7])));
    }
}

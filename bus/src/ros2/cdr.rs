//! CDR payloads as ROS 2 puts them on the wire: a 4-byte encapsulation header (`00 01` plain
//! CDR little-endian, `00 00` big-endian, then two option bytes) and the message body aligned
//! from the byte after it. Encoding is always little-endian; decoding takes either, and up to
//! three padding bytes after the body (writers may pad to a multiple of 4).

use super::msg::RosMessage;
use hiroz_cdr::{BigEndian, LittleEndian};

/// The encapsulation header of a little-endian plain CDR payload.
pub const CDR_LE: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// Why a payload is not a message of the expected type.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CdrError {
    /// Shorter than the encapsulation header.
    #[error("{len} byte(s), shorter than the 4-byte CDR encapsulation header")]
    TooShort {
        /// Length of the payload.
        len: usize,
    },
    /// An encapsulation this reader does not take (e.g. XCDR2, PL_CDR).
    #[error("encapsulation {0:#06x} is not plain CDR (0x0000 big-endian or 0x0001 little-endian)")]
    Encapsulation(u16),
    /// The body does not decode as the type.
    #[error("not a {type_name}: {message}")]
    Body {
        /// The expected ROS type.
        type_name: &'static str,
        /// What the decoder found.
        message: String,
    },
    /// Bytes left over after the message (more than alignment padding).
    #[error("not a {type_name}: {extra} byte(s) after the message")]
    Trailing {
        /// The expected ROS type.
        type_name: &'static str,
        /// How many bytes were left.
        extra: usize,
    },
}

/// The payload of `message`: header and little-endian body.
pub fn encode<T: RosMessage>(message: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    encode_into(message, &mut out);
    out
}

/// As [`encode`], into `out` (cleared first), to reuse its buffer.
pub fn encode_into<T: RosMessage>(message: &T, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(&CDR_LE);
    // The serializer aligns from where it starts writing, i.e. from the byte after the
    // header, as CDR wants; it writes straight into `out`.
    let mut serializer = hiroz_cdr::CdrSerializer::<LittleEndian>::new(out);
    if let Err(e) = message.serialize(&mut serializer) {
        // Serialising our own fixed-layout structs cannot fail (no maps, no unsized
        // sequences).
        debug_assert!(false, "CDR encoding of {} failed: {e}", T::TYPE_NAME);
    }
}

/// The message in `payload`, checked against its type: header, body, nothing but padding
/// after it.
pub fn decode<T: RosMessage>(payload: &[u8]) -> Result<T, CdrError> {
    let (header, body) = payload
        .split_first_chunk::<4>()
        .ok_or(CdrError::TooShort { len: payload.len() })?;
    let encapsulation = u16::from_be_bytes([header[0], header[1]]);
    let decoded = match encapsulation {
        0x0001 => hiroz_cdr::from_bytes::<T, LittleEndian>(body),
        0x0000 => hiroz_cdr::from_bytes::<T, BigEndian>(body),
        other => return Err(CdrError::Encapsulation(other)),
    };
    let (message, used) = decoded.map_err(|e| CdrError::Body {
        type_name: T::TYPE_NAME,
        message: e.to_string(),
    })?;
    let extra = body.len().saturating_sub(used);
    if extra > 3 {
        return Err(CdrError::Trailing {
            type_name: T::TYPE_NAME,
            extra,
        });
    }
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::{Header, Stamp};
    use crate::ros2::msg;

    fn header(frame: &str) -> Header {
        Header {
            stamp: Stamp {
                sec: 3,
                nanosec: 500,
            },
            frame_id: frame.into(),
        }
    }

    #[test]
    fn game_info_bytes_follow_the_cdr_rules() {
        let m = msg::GameInfo {
            header: header(""),
            timestamp: 420,
            game_stage: 4,
        };
        // Written by hand from the CDR rules: sec, nanosec, the empty string as length 1 and
        // its NUL, one byte of padding to align the uint16s, then 420 and 4.
        let expected: Vec<u8> = [
            &CDR_LE[..],
            &[3, 0, 0, 0, 0xf4, 1, 0, 0],
            &[1, 0, 0, 0, 0],
            &[0],
            &[0xa4, 1, 4, 0],
        ]
        .concat();
        assert_eq!(encode(&m), expected);
        assert_eq!(decode::<msg::GameInfo>(&expected), Ok(m));
    }

    #[test]
    fn decision_bytes_follow_the_cdr_rules() {
        let m = msg::Decision {
            header: header("map"),
            decision_id: 13,
            x: 1.5,
            y: -2.0,
            theta: 0.25,
            mode: 8,
        };
        let expected: Vec<u8> = [
            &CDR_LE[..],
            &[3, 0, 0, 0, 0xf4, 1, 0, 0],
            &[4, 0, 0, 0, b'm', b'a', b'p', 0],
            &[13, 0, 0, 0],
            &1.5f32.to_le_bytes(),
            &(-2.0f32).to_le_bytes(),
            &0.25f32.to_le_bytes(),
            &[8],
        ]
        .concat();
        assert_eq!(encode(&m), expected);
        assert_eq!(decode::<msg::Decision>(&expected), Ok(m));
    }

    #[test]
    fn big_endian_payloads_decode_too() {
        let payload: Vec<u8> = [
            &[0x00, 0x00, 0x00, 0x00][..],
            &[0, 0, 0, 3, 0, 0, 1, 0xf4],
            &[0, 0, 0, 1, 0],
            &[0],
            &[1, 0xa4, 0, 4],
        ]
        .concat();
        let m = decode::<msg::GameInfo>(&payload).expect("big-endian");
        assert_eq!(
            (m.timestamp, m.game_stage, m.header.stamp.nanosec),
            (420, 4, 500)
        );
    }

    #[test]
    fn every_message_round_trips() {
        let mut hp = [0u16; 16];
        for (i, v) in hp.iter_mut().enumerate() {
            *v = 100 * i as u16 + 7;
        }
        let obj = msg::ObjHP {
            header: header("referee"),
            hp,
        };
        assert_eq!(decode::<msg::ObjHP>(&encode(&obj)), Ok(obj));
        let mut pos = [msg::Point2f::default(); 12];
        pos[5] = msg::Point2f { x: 8.8, y: 2.55 };
        let cars = msg::CarPos {
            header: header("map"),
            pos,
        };
        assert_eq!(decode::<msg::CarPos>(&encode(&cars)), Ok(cars));
        let serial = msg::Serial {
            header: header("gimbal"),
            imu: msg::Imu {
                orientation_covariance: [-1.0; 9],
                angular_velocity: msg::Vector3 {
                    x: 0.1,
                    y: 0.2,
                    z: 0.3,
                },
                ..msg::Imu::default()
            },
            mode: 8,
            theta: 0.5,
            bullet_speed: 27.5,
        };
        assert_eq!(decode::<msg::Serial>(&encode(&serial)), Ok(serial));
        let detections = msg::DetectionArray {
            header: header("camera"),
            detections: vec![
                msg::Detection {
                    header: header("camera"),
                    conf: 0.9,
                    kind: "B3".into(),
                    center: msg::Pose::default(),
                },
                msg::Detection::default(),
            ],
        };
        assert_eq!(
            decode::<msg::DetectionArray>(&encode(&detections)),
            Ok(detections)
        );
        let aim = msg::Autoaim {
            key: "3".into(),
            is_target_lost: true,
            timestamp: -5,
            ..msg::Autoaim::default()
        };
        assert_eq!(decode::<msg::Autoaim>(&encode(&aim)), Ok(aim));
        let weights = msg::StrikeLicensing {
            header: header(""),
            weights: [0.5; 6],
        };
        assert_eq!(
            decode::<msg::StrikeLicensing>(&encode(&weights)),
            Ok(weights)
        );
    }

    #[test]
    fn malformed_payloads_are_errors_naming_the_type() {
        let m = msg::GameInfo::default();
        let good = encode(&m);
        assert_eq!(
            decode::<msg::GameInfo>(&good[..2]),
            Err(CdrError::TooShort { len: 2 })
        );
        let mut xcdr2 = good.clone();
        xcdr2[1] = 0x07;
        assert_eq!(
            decode::<msg::GameInfo>(&xcdr2),
            Err(CdrError::Encapsulation(0x0007))
        );
        let cut = decode::<msg::GameInfo>(&good[..good.len() - 1]);
        assert!(
            matches!(&cut, Err(CdrError::Body { type_name, .. }) if *type_name == "global_interface/msg/GameInfo"),
            "{cut:?}"
        );
        let mut long = good.clone();
        long.extend_from_slice(&[0; 8]);
        assert_eq!(
            decode::<msg::GameInfo>(&long),
            Err(CdrError::Trailing {
                type_name: "global_interface/msg/GameInfo",
                extra: 8
            })
        );
        let mut padded = good;
        padded.extend_from_slice(&[0; 2]);
        assert_eq!(decode::<msg::GameInfo>(&padded), Ok(m));
        // A sequence claiming a billion detections in a few bytes: an error, no allocation.
        let mut huge = encode(&msg::DetectionArray::default());
        let at = huge.len() - 4;
        huge[at..].copy_from_slice(&1_000_000_000u32.to_le_bytes());
        assert!(decode::<msg::DetectionArray>(&huge).is_err());
        // A string that is not UTF-8.
        let mut bad_text = encode(&msg::Decision {
            header: header("map"),
            ..msg::Decision::default()
        });
        bad_text[16] = 0xff;
        assert!(decode::<msg::Decision>(&bad_text).is_err());
    }
}

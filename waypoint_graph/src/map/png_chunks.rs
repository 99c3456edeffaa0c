//! The few PNG header chunks that change what libpng's grey conversion produces.
//!
//! OpenCV's `imread(IMREAD_GRAYSCALE)` lets libpng turn colour into grey, and libpng switches
//! to a gamma-corrected formula when the file declares a gamma (`gAMA`, or `sRGB`, which
//! implies 1/2.2) far enough from 1; for 16-bit files the significant bits (`sBIT`) also
//! change the table resolution. This module reads just those chunks, with libpng's rules.

/// Gamma-relevant header facts of a PNG file, as libpng would record them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PngColourInfo {
    /// File gamma in PNG fixed point (x 100000), after libpng's validity rules.
    pub gamma: Option<u32>,
    /// Largest significant-bit count of the colour channels (`sBIT`), if valid.
    pub sig_bits: Option<u8>,
}

/// libpng's fixed-point gamma of sRGB (1 / 2.2).
const SRGB_GAMMA: u32 = 45455;
/// libpng accepts gAMA values in this range only and ignores others.
const GAMMA_RANGE: std::ops::RangeInclusive<u32> = 16..=625_000_000;

/// Reads `gAMA`, `sRGB` and `sBIT` from the chunks before the first `PLTE`/`IDAT`.
///
/// Rules (libpng 1.6): the first valid `gAMA` counts; `sRGB` forces gamma 45455 whatever
/// `gAMA` says; chunks after `PLTE` are out of place and ignored; an `sBIT` value of 0 or
/// above the bit depth is invalid and ignored. Malformed input just yields the defaults
/// (the decoder reports real errors).
pub fn scan(bytes: &[u8]) -> PngColourInfo {
    let mut info = PngColourInfo::default();
    let mut srgb = false;
    let mut sample_depth = 8u8;
    let mut colour = false;
    let mut pos = 8usize; // after the signature
    while let Some((kind, data, next)) = next_chunk(bytes, pos) {
        pos = next;
        match kind {
            b"IHDR" => {
                if let (Some(&d), Some(&c)) = (data.get(8), data.get(9)) {
                    sample_depth = if c == 3 { 8 } else { d }; // palette samples are 8-bit
                    colour = c & 2 != 0;
                }
            }
            b"gAMA" if info.gamma.is_none() => {
                if let Some(v) = be_u32(data).filter(|v| GAMMA_RANGE.contains(v)) {
                    info.gamma = Some(v);
                }
            }
            b"sRGB" => srgb = true,
            b"sBIT" => {
                let channels: &[u8] = if colour {
                    data.get(..3).unwrap_or(&[])
                } else {
                    data.get(..1).unwrap_or(&[])
                };
                let valid =
                    !channels.is_empty() && channels.iter().all(|&b| b > 0 && b <= sample_depth);
                if valid {
                    info.sig_bits = channels.iter().copied().max();
                }
            }
            b"PLTE" | b"IDAT" | b"IEND" => break,
            _ => {}
        }
    }
    if srgb {
        info.gamma = Some(SRGB_GAMMA);
    }
    info
}

/// The chunk starting at `pos`: (type, data, position of the following chunk).
fn next_chunk(bytes: &[u8], pos: usize) -> Option<(&[u8], &[u8], usize)> {
    let len = usize::try_from(be_u32(bytes.get(pos..)?)?).ok()?;
    let kind = bytes.get(pos + 4..pos + 8)?;
    let start = pos + 8;
    let end = start.checked_add(len)?;
    let data = bytes.get(start..end)?;
    Some((kind, data, end.checked_add(4)?))
}

/// Big-endian u32 at the start of `b`.
fn be_u32(b: &[u8]) -> Option<u32> {
    let a: [u8; 4] = b.get(..4)?.try_into().ok()?;
    Some(u32::from_be_bytes(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(kind: &[u8], data: &[u8]) -> Vec<u8> {
        let mut v = (data.len() as u32).to_be_bytes().to_vec();
        v.extend_from_slice(kind);
        v.extend_from_slice(data);
        v.extend_from_slice(&[0; 4]);
        v
    }

    fn png(chunks: &[(&[u8], &[u8])]) -> Vec<u8> {
        let mut v = b"\x89PNG\r\n\x1a\n".to_vec();
        v.extend(chunk(b"IHDR", &[0, 0, 0, 1, 0, 0, 0, 1, 16, 2, 0, 0, 0]));
        for (k, d) in chunks {
            v.extend(chunk(k, d));
        }
        v
    }

    #[test]
    fn gamma_srgb_and_sbit_rules() {
        let g = 45455u32.to_be_bytes();
        assert_eq!(scan(&png(&[(b"gAMA", &g)])).gamma, Some(45455));
        assert_eq!(scan(&png(&[(b"gAMA", &1u32.to_be_bytes())])).gamma, None);
        let s = png(&[(b"sRGB", &[0]), (b"gAMA", &100_000u32.to_be_bytes())]);
        assert_eq!(scan(&s).gamma, Some(SRGB_GAMMA));
        assert_eq!(scan(&png(&[(b"PLTE", &[0; 3]), (b"gAMA", &g)])).gamma, None);
        assert_eq!(scan(&png(&[(b"sBIT", &[10, 12, 9])])).sig_bits, Some(12));
        assert_eq!(scan(&png(&[(b"sBIT", &[0, 12, 9])])).sig_bits, None);
        assert_eq!(scan(b"garbage"), PngColourInfo::default());
    }
}

//! PNG to 8-bit grey exactly as OpenCV 4.6's `cv::imread(path, IMREAD_GRAYSCALE)` gives it.
//!
//! OpenCV does not convert colour itself here: it asks libpng for grey
//! (`png_set_rgb_to_gray(.., 0.299, 0.587)`, alpha stripped, 16-bit stripped to the high byte),
//! so the result is libpng's fixed-point conversion, verified against OpenCV on the fixtures
//! of `tests/fixtures/make_fixture.py`:
//!
//! * coefficients 9797, 19234, 3737 (/ 32768): libpng's truncation of 0.299 and 0.587;
//! * 8-bit, no significant gamma: `(9797 R + 19234 G + 3737 B) >> 15` (truncating);
//! * 16-bit, no significant gamma: `((9797 R + 19234 G + 3737 B + 16384) >> 15) >> 8`;
//! * a file gamma (`gAMA`, or `sRGB` = 45455) that libpng finds significant (file gamma or
//!   its reciprocal outside 0.95..1.05): channels are linearised through libpng's tables,
//!   combined with rounding, and re-encoded; pixels with R == G == B pass unchanged (8-bit);
//! * grey and grey+alpha files: the grey samples as they are (16-bit: high byte); alpha is
//!   dropped, never composited; palettes are expanded first.
//!
//! Not reproduced: an `iCCP` profile that libpng recognises as sRGB (it then assumes gamma
//! 45455); such files get the plain formula. The tables use the platform's `pow`, like libpng
//! does; on glibc both call the same function.

use std::io::Cursor;

use image::codecs::png::PngDecoder;
use image::{DynamicImage, ImageError};

use super::png_chunks::{self, PngColourInfo};

/// libpng's red weight (0.299 in 1/32768, truncated).
const RC: u32 = 9797;
/// libpng's green weight (0.587 in 1/32768, truncated).
const GC: u32 = 19234;
/// libpng's blue weight (the rest of 32768).
const BC: u32 = 32768 - RC - GC;

/// An 8-bit single-channel image, row-major, as decoded from a PNG.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GreyImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height` grey values, row-major, 0 = black.
    pub pixels: Vec<u8>,
}

/// Decodes PNG bytes to grey like `imread(IMREAD_GRAYSCALE)` (see the module docs).
pub fn decode_png_grey(bytes: &[u8]) -> Result<GreyImage, ImageError> {
    let info = png_chunks::scan(bytes);
    let decoder = PngDecoder::new(Cursor::new(bytes))?;
    let img = DynamicImage::from_decoder(decoder)?;
    let (width, height) = (img.width(), img.height());
    let pixels = to_grey(&img, info);
    Ok(GreyImage {
        width,
        height,
        pixels,
    })
}

/// libpng's 8-bit RGB to grey without gamma correction (what most map PNGs get).
pub fn rgb8_to_grey(r: u8, g: u8, b: u8) -> u8 {
    ((RC * u32::from(r) + GC * u32::from(g) + BC * u32::from(b)) >> 15) as u8
}

/// Converts a decoded image to grey with libpng's rules for the file's colour info.
fn to_grey(img: &DynamicImage, info: PngColourInfo) -> Vec<u8> {
    let gamma = info.gamma.and_then(GammaSetup::new);
    match img {
        DynamicImage::ImageLuma8(g) => g.as_raw().clone(),
        DynamicImage::ImageLumaA8(g) => g.as_raw().chunks_exact(2).map(|p| p[0]).collect(),
        DynamicImage::ImageLuma16(g) => g.as_raw().iter().map(|&v| (v >> 8) as u8).collect(),
        DynamicImage::ImageLumaA16(g) => g
            .as_raw()
            .chunks_exact(2)
            .map(|p| (p[0] >> 8) as u8)
            .collect(),
        DynamicImage::ImageRgb8(c) => rgb8_pixels(c.as_raw(), 3, gamma),
        DynamicImage::ImageRgba8(c) => rgb8_pixels(c.as_raw(), 4, gamma),
        DynamicImage::ImageRgb16(c) => rgb16_pixels(c.as_raw(), 3, gamma, info.sig_bits),
        DynamicImage::ImageRgba16(c) => rgb16_pixels(c.as_raw(), 4, gamma, info.sig_bits),
        // Not produced by the PNG decoder; convert conservatively.
        other => rgb8_pixels(other.to_rgb8().as_raw(), 3, None),
    }
}

/// File and screen gamma as libpng derives them when only the file declares one.
#[derive(Debug, Clone, Copy)]
struct GammaSetup {
    /// File gamma (fixed point, x 100000).
    file: u32,
    /// libpng's default screen gamma: the reciprocal of the file gamma.
    screen: u32,
}

impl GammaSetup {
    /// `None` when libpng would not build gamma tables (neither value significant).
    fn new(file: u32) -> Option<Self> {
        let screen = reciprocal(file)?;
        (significant(file) || significant(screen)).then_some(Self { file, screen })
    }
}

/// libpng's "gamma differs from 1 by more than 5%" test on a fixed-point value.
fn significant(g: u32) -> bool {
    !(95_000..=105_000).contains(&g)
}

/// libpng's `png_reciprocal`: 1e10 / g, rounded, in fixed point.
fn reciprocal(g: u32) -> Option<u32> {
    let r = (1e10 / f64::from(g) + 0.5).floor();
    (r >= 1.0 && r <= f64::from(i32::MAX)).then_some(r as u32)
}

/// libpng's `png_product2`: a * b / 1e5, rounded.
fn product2(a: u32, b: u32) -> f64 {
    (f64::from(a) * 1e-5 * f64::from(b) + 0.5).floor()
}

/// libpng's 8-bit gamma table: identity unless the exponent is significant.
fn table8(exponent: u32) -> [u8; 256] {
    let mut t = [0u8; 256];
    for (i, v) in t.iter_mut().enumerate() {
        *v = if significant(exponent) {
            let e = f64::from(exponent) * 0.00001;
            (255.0 * (i as f64 / 255.0).powf(e) + 0.5).floor() as u8
        } else {
            i as u8
        };
    }
    t
}

/// 8-bit RGB(A) samples to grey (alpha ignored).
fn rgb8_pixels(raw: &[u8], channels: usize, gamma: Option<GammaSetup>) -> Vec<u8> {
    let px = raw.chunks_exact(channels);
    let Some(g) = gamma else {
        return px.map(|p| rgb8_to_grey(p[0], p[1], p[2])).collect();
    };
    let (Some(to_1), Some(from_1)) = (
        reciprocal(g.file).map(table8),
        reciprocal(g.screen).map(table8),
    ) else {
        return px.map(|p| rgb8_to_grey(p[0], p[1], p[2])).collect();
    };
    px.map(|p| {
        let (r, gr, b) = (p[0], p[1], p[2]);
        if r == gr && r == b {
            return r;
        }
        let lin = RC * u32::from(to_1[usize::from(r)])
            + GC * u32::from(to_1[usize::from(gr)])
            + BC * u32::from(to_1[usize::from(b)]);
        from_1[((lin + 16384) >> 15).min(255) as usize]
    })
    .collect()
}

/// libpng's gamma-table shift for 16-bit data stripped to 8 bits.
fn shift16(sig_bits: Option<u8>) -> u32 {
    let sig = u32::from(sig_bits.unwrap_or(0));
    let shift = if sig > 0 && sig < 16 { 16 - sig } else { 0 };
    shift.clamp(5, 8)
}

/// libpng's 16-bit gamma table indexed by `v >> shift`.
fn table16(exponent: u32, shift: u32) -> Vec<u16> {
    let max = (1u32 << (16 - shift)) - 1;
    (0..=max)
        .map(|ig| {
            if significant(exponent) {
                let e = f64::from(exponent) * 0.00001;
                (65535.0 * (f64::from(ig) / f64::from(max)).powf(e) + 0.5).floor() as u16
            } else {
                ((ig * 65535 + (1 << (15 - shift))) / max) as u16
            }
        })
        .collect()
}

/// libpng's 16-to-8 table for equal-channel pixels, indexed by `v >> shift`, giving 8 bits.
fn table16to8(gamma: f64, shift: u32) -> Vec<u8> {
    let max = (1u32 << (16 - shift)) - 1;
    let mut t = vec![255u8; (max + 1) as usize];
    let mut last = 0usize;
    for i in 0..255u32 {
        let out = i * 257 + 128;
        let corrected = (65535.0 * (f64::from(out) / 65535.0).powf(gamma * 0.00001) + 0.5).floor();
        let bound = ((corrected as u32 * max + 32768) / 65535 + 1) as usize;
        while last < bound.min(t.len()) {
            t[last] = i as u8;
            last += 1;
        }
    }
    t
}

/// 16-bit RGB(A) samples to grey (alpha ignored, result stripped to the high byte).
fn rgb16_pixels(
    raw: &[u16],
    channels: usize,
    gamma: Option<GammaSetup>,
    sig_bits: Option<u8>,
) -> Vec<u8> {
    let px = raw.chunks_exact(channels);
    let plain = |p: &[u16]| {
        let (r, g, b) = (u32::from(p[0]), u32::from(p[1]), u32::from(p[2]));
        (((RC * r + GC * g + BC * b + 16384) >> 15) >> 8) as u8
    };
    let Some(gs) = gamma else {
        return px.map(plain).collect();
    };
    let (Some(to_exp), Some(from_exp)) = (reciprocal(gs.file), reciprocal(gs.screen)) else {
        return px.map(plain).collect();
    };
    let shift = shift16(sig_bits);
    let to_1 = table16(to_exp, shift);
    let from_1 = table16(from_exp, shift);
    let equal = table16to8(product2(gs.file, gs.screen), shift);
    let look16 = |t: &[u16], v: u32| u32::from(t.get((v >> shift) as usize).copied().unwrap_or(0));
    px.map(|p| {
        let (r, g, b) = (u32::from(p[0]), u32::from(p[1]), u32::from(p[2]));
        if r == g && r == b {
            return equal.get((r >> shift) as usize).copied().unwrap_or(255);
        }
        let lin =
            (RC * look16(&to_1, r) + GC * look16(&to_1, g) + BC * look16(&to_1, b) + 16384) >> 15;
        (look16(&from_1, lin) >> 8) as u8
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_coefficients() {
        assert_eq!(rgb8_to_grey(255, 0, 0), 76);
        assert_eq!(rgb8_to_grey(0, 255, 0), 149);
        assert_eq!(rgb8_to_grey(0, 0, 255), 29);
        assert_eq!(rgb8_to_grey(255, 255, 255), 255);
        assert_eq!(rgb8_to_grey(17, 9, 4), 10);
        assert_eq!(rgb8_to_grey(8, 9, 12), 9); // 9.04, truncated
    }

    #[test]
    fn gamma_significance_like_libpng() {
        assert!(GammaSetup::new(45455).is_some());
        assert!(GammaSetup::new(100_000).is_none());
        assert!(GammaSetup::new(98_000).is_none());
        // 95000 itself is not significant, but its reciprocal (105263) is.
        assert!(GammaSetup::new(95_000).is_some());
        assert_eq!(shift16(None), 5);
        assert_eq!(shift16(Some(10)), 6);
        assert_eq!(shift16(Some(4)), 8);
    }
}

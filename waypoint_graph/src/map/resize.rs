//! Bilinear resize bit-exact with OpenCV 4.6 `cv::resize(.., INTER_LINEAR)` on 8-bit grey.
//!
//! What OpenCV does (checked against it on random sizes and on the fixtures):
//!
//! * scale = `1 / (dst / src)` in `f64`; source coordinate
//!   `f = (float)((d + 0.5) * scale - 0.5)`, `s = floor(f)`, weight `f - s` in `f32`;
//! * horizontally, `s < 0` or `s >= src_w - 1` clamps to the border pixel with weight 0;
//!   vertically the weights are kept and the two row indices are clamped instead;
//! * weights are `round_half_even(w * 2048)` (11 fractional bits) for `1 - f` and `f`;
//! * pass 1 (exact integers): `H = a0 * S[s] + a1 * S[s + 1]`;
//! * pass 2: `(((b0 * (H0 >> 4)) >> 16) + ((b1 * (H1 >> 4)) >> 16) + 2) >> 2`. This is
//!   OpenCV's 8-bit vertical step (SIMD and scalar agree), *not* `(b0 H0 + b1 H1 + 2^21) >> 22`,
//!   which differs on about a third of the pixels.
//!
//! OpenCV swaps in INTER_AREA for an exact 2x downscale; for 8-bit grey that gives the same
//! bytes as the formula above, so no special case is needed (tested).

/// Field map height in pixels that every map is resized to (the original's constant).
pub const MAP_ROWS: u32 = 1080;

/// Fractional bits of OpenCV's resize weights (`INTER_RESIZE_COEF_BITS`).
const COEF_SCALE: f32 = 2048.0;

/// Resized map size for a field of `real_width` x `real_height` metres: `(cols, 1080)` with
/// `cols = int(W / H * 1080)`.
///
/// The quotient is `f32` (the config values are floats) and the product is taken in `f64`:
/// that is what reproduces OpenCV's reference 1799 columns for 25 x 15 (an all-`f32` product
/// rounds to 1800.0). Non-finite or negative ratios give 0 columns.
pub fn target_size(real_width: f32, real_height: f32) -> (u32, u32) {
    let ratio = real_width / real_height;
    let cols = f64::from(ratio) * f64::from(MAP_ROWS);
    // `as` saturates: NaN -> 0, negative -> 0, huge -> u32::MAX (rejected by the caller).
    (cols as u32, MAP_ROWS)
}

/// Bilinear resize of an 8-bit single-channel image, bit-exact with OpenCV `INTER_LINEAR`.
///
/// `src` is row-major `src_w * src_h`. Returns `dst_w * dst_h` bytes; empty if a destination
/// size is 0. A source that is empty or shorter than `src_w * src_h` gives an all-zero
/// (all-wall) image instead of panicking.
pub fn resize_linear_u8(src: &[u8], src_w: u32, src_h: u32, dst_w: u32, dst_h: u32) -> Vec<u8> {
    let (sw, sh, dw, dh) = (
        src_w as usize,
        src_h as usize,
        dst_w as usize,
        dst_h as usize,
    );
    let Some(dst_len) = dw.checked_mul(dh) else {
        return Vec::new();
    };
    let mut dst = vec![0u8; dst_len];
    if dst_len == 0 || sw == 0 || sh == 0 || sw.checked_mul(sh).is_none_or(|n| src.len() < n) {
        return dst;
    }
    let xs = axis_weights(dw, sw, true);
    let ys = axis_weights(dh, sh, false);
    let mut rows = RowCache::new(dw);
    for (dst_row, y) in dst.chunks_exact_mut(dw).zip(&ys) {
        let r0 = y.src.clamp(0, sh as i64 - 1) as usize;
        let r1 = (y.src + 1).clamp(0, sh as i64 - 1) as usize;
        let (h0, h1) = rows.pair(r0, r1, |r, out| {
            horizontal(src.get(r * sw..(r + 1) * sw).unwrap_or(&[]), &xs, out);
        });
        let (b0, b1) = (y.w0, y.w1);
        for ((d, &a), &b) in dst_row.iter_mut().zip(h0).zip(h1) {
            let v = (((b0 * (a >> 4)) >> 16) + ((b1 * (b >> 4)) >> 16) + 2) >> 2;
            *d = v.clamp(0, 255) as u8;
        }
    }
    dst
}

/// Source index and fixed-point weights of one destination column or row.
#[derive(Debug, Clone, Copy)]
struct AxisWeight {
    /// Left/top source index (may be -1 or `n - 1` vertically; clamped horizontally).
    src: i64,
    /// Weight of `src` in 1/2048.
    w0: i32,
    /// Weight of `src + 1` in 1/2048.
    w1: i32,
}

/// OpenCV's per-axis coordinate mapping; `clamp` selects the horizontal border rule.
fn axis_weights(dst_n: usize, src_n: usize, clamp: bool) -> Vec<AxisWeight> {
    let scale = 1.0 / (dst_n as f64 / src_n as f64);
    (0..dst_n)
        .map(|d| {
            let f = ((d as f64 + 0.5) * scale - 0.5) as f32;
            let mut s = f.floor() as i64;
            let mut frac = f - s as f32;
            if clamp {
                if s < 0 {
                    s = 0;
                    frac = 0.0;
                }
                if s >= src_n as i64 - 1 {
                    s = src_n as i64 - 1;
                    frac = 0.0;
                }
            }
            AxisWeight {
                src: s,
                w0: ((1.0 - frac) * COEF_SCALE).round_ties_even() as i32,
                w1: (frac * COEF_SCALE).round_ties_even() as i32,
            }
        })
        .collect()
}

/// Pass 1 for one source row: exact integer blend of the two neighbouring pixels.
fn horizontal(row: &[u8], xs: &[AxisWeight], out: &mut [i32]) {
    let last = row.len().saturating_sub(1);
    for (o, x) in out.iter_mut().zip(xs) {
        let s = x.src as usize; // in 0..=last by construction
        let p0 = i32::from(row.get(s).copied().unwrap_or(0));
        let p1 = i32::from(row.get((s + 1).min(last)).copied().unwrap_or(0));
        *o = p0 * x.w0 + p1 * x.w1;
    }
}

/// The two most recent horizontally resized source rows, so each row is computed once.
struct RowCache {
    rows: [Option<usize>; 2],
    bufs: [Vec<i32>; 2],
}

impl RowCache {
    /// Cache for rows of `width` destination columns.
    fn new(width: usize) -> Self {
        Self {
            rows: [None, None],
            bufs: [vec![0; width], vec![0; width]],
        }
    }

    /// Rows `r0` and `r1` (computed with `fill` when missing), as slices.
    fn pair(
        &mut self,
        r0: usize,
        r1: usize,
        mut fill: impl FnMut(usize, &mut [i32]),
    ) -> (&[i32], &[i32]) {
        let i0 = self.slot(r0, None, &mut fill);
        let i1 = self.slot(r1, Some(i0), &mut fill);
        (&self.bufs[i0], &self.bufs[i1])
    }

    /// Slot holding `row`, computing it into a slot other than `keep` if needed.
    fn slot(
        &mut self,
        row: usize,
        keep: Option<usize>,
        fill: &mut impl FnMut(usize, &mut [i32]),
    ) -> usize {
        if let Some(i) = self.rows.iter().position(|&r| r == Some(row)) {
            return i;
        }
        let i = match keep {
            Some(0) => 1,
            Some(_) => 0,
            // Evict the empty or the older (smaller) row: rows only move down.
            None => match self.rows {
                [None, _] => 0,
                [_, None] => 1,
                [Some(a), Some(b)] => usize::from(a > b),
            },
        };
        fill(row, &mut self.bufs[i]);
        self.rows[i] = Some(row);
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_sizes_of_the_original_fields() {
        assert_eq!(target_size(12.0, 8.0), (1620, 1080));
        assert_eq!(target_size(25.0, 15.0), (1799, 1080));
        assert_eq!(target_size(f32::NAN, 8.0).0, 0);
        assert_eq!(target_size(-1.0, 8.0).0, 0);
    }

    #[test]
    fn identity_and_degenerate_inputs() {
        let src: Vec<u8> = (0..12).map(|v| v * 20).collect();
        assert_eq!(resize_linear_u8(&src, 4, 3, 4, 3), src);
        assert_eq!(resize_linear_u8(&src, 4, 3, 0, 3), Vec::<u8>::new());
        assert_eq!(resize_linear_u8(&src[..5], 4, 3, 2, 2), vec![0; 4]);
        assert_eq!(resize_linear_u8(&[], 0, 0, 2, 2), vec![0; 4]);
        assert_eq!(resize_linear_u8(&[7], 1, 1, 3, 2), vec![7; 6]);
    }

    #[test]
    fn exact_half_is_the_2x2_average() {
        let src = [0u8, 10, 200, 255, 30, 41, 100, 1];
        // (0+10+30+41+2)>>2 = 20, (200+255+100+1+2)>>2 = 139
        assert_eq!(resize_linear_u8(&src, 4, 2, 2, 1), vec![20, 139]);
    }
}

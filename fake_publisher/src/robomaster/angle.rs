//! Angles of the simulator: headings in [0, 2 pi) and turns in [-pi, pi], on top of
//! [`geometry::wrap_pi`] with the simulator's own (bit-exact, historical) ranges.

use std::f64::consts::{PI, TAU};

/// `a` modulo 2 pi in [0, 2 pi], bit for bit `a.rem_euclid(TAU)` (NaN unless finite).
///
/// [`geometry::wrap_pi`] reduces `a % TAU` (exact) into (-pi, pi] by adding or subtracting
/// TAU, which is exact there (Sterbenz); adding TAU back to a negative result is then the
/// same single rounding `rem_euclid` does.
fn rem_tau(a: f64) -> f64 {
    if !a.is_finite() {
        return f64::NAN;
    }
    let w = geometry::wrap_pi(a);
    if w < 0.0 { w + TAU } else { w }
}

/// Angle in [0, 2 pi) (headings), on top of [`geometry::wrap_pi`].
pub(super) fn norm_angle(a: f64) -> f64 {
    let r = rem_tau(a);
    if r >= TAU { 0.0 } else { r }
}

/// Angle in [-pi, pi] (gimbal yaw, turns), on top of [`geometry::wrap_pi`]. Not
/// `geometry::wrap_pi` itself: this shifts by pi first, as the simulator always has, so its
/// results differ in the last bits and at -pi (kept -pi, where geometry gives pi). It is the
/// `f64` form of [`geometry::wrap_pi_f32`], the wrap the decisions make.
pub(super) fn wrap_pi(a: f64) -> f64 {
    let r = rem_tau(a + PI) - PI;
    if r < -PI { r + TAU } else { r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn angles_are_bit_for_bit_the_rem_euclid_forms() {
        let old_norm = |a: f64| {
            let r = a.rem_euclid(TAU);
            if r >= TAU { 0.0 } else { r }
        };
        let old_wrap = |a: f64| {
            let r = (a + PI).rem_euclid(TAU) - PI;
            if r < -PI { r + TAU } else { r }
        };
        let mut rng = SplitMix64::for_stream(11, 0);
        let mut angles = vec![
            0.0,
            -0.0,
            PI,
            -PI,
            TAU,
            -TAU,
            3.0 * PI,
            -3.0 * PI,
            1e-300,
            -1e-300,
            1e-17,
            -1e-17,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for k in -64..=64 {
            let m = f64::from(k) * PI / 4.0;
            angles.extend([m, m.next_up(), m.next_down()]);
        }
        for _ in 0..200_000 {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            angles.push((u - 0.5) * 40.0);
            angles.push((u - 0.5) * 1e-6);
        }
        // Bit for bit, except that any NaN matches any NaN.
        let same = |x: f64, y: f64| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
        for a in angles {
            assert!(same(norm_angle(a), old_norm(a)), "norm_angle({a:e})");
            assert!(same(wrap_pi(a), old_wrap(a)), "wrap_pi({a:e})");
        }
    }

    #[test]
    fn angles_wrap() {
        assert!((norm_angle(-0.5) - (TAU - 0.5)).abs() < 1e-12);
        assert!((wrap_pi(3.5 * PI) + 0.5 * PI).abs() < 1e-12);
        assert!((wrap_pi(-PI) + PI).abs() < 1e-12 || (wrap_pi(-PI) - PI).abs() < 1e-12);
    }
}

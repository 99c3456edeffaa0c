//! The statistics of `evaluate`: per metric the mean over the matches with a 95% Student t
//! confidence interval, and for two configs on the same matches the paired difference B - A
//! with its 95% paired t interval, significant at 5% when the interval excludes 0.

use schemars::JsonSchema;
use serde::Serialize;

/// The method named in the output.
pub const METHOD: &str = "paired t interval (95%, two-sided; Student t on the per-match values)";

/// Two-sided 97.5% quantiles of Student's t for 1 to 30 degrees of freedom.
const T_975: [f64; 30] = [
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
    2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687,
    2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/// The 97.5% quantile of Student's t with `df` degrees of freedom: the table up to 30, then
/// the Cornish-Fisher expansion around the normal quantile (error below 1e-4 there).
pub fn t_975(df: usize) -> f64 {
    if df == 0 {
        return f64::INFINITY;
    }
    if let Some(&t) = T_975.get(df - 1) {
        return t;
    }
    let z: f64 = 1.959_963_984_540_054;
    let n = df as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * n)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * n * n * n)
}

/// One config's values of one metric over the matches.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Summary {
    /// Mean over the matches that have a value (null when none has one).
    #[schemars(with = "Option<f64>")]
    pub mean: f64,
    /// 95% confidence interval of the mean (`[mean, mean]` with fewer than two values).
    #[schemars(with = "[Option<f64>; 2]")]
    pub ci95: [f64; 2],
    /// Smallest value (null when no match has one).
    #[schemars(with = "Option<f64>")]
    pub min: f64,
    /// Largest value (null when no match has one).
    #[schemars(with = "Option<f64>")]
    pub max: f64,
}

/// The paired difference B - A of one metric.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Difference {
    /// Mean of the per-match differences B - A, over the matches where both have a value
    /// (null when none does).
    #[schemars(with = "Option<f64>")]
    pub mean: f64,
    /// Its 95% paired t interval.
    #[schemars(with = "[Option<f64>; 2]")]
    pub ci95: [f64; 2],
    /// Whether the interval excludes 0 (significant at 5%).
    pub significant: bool,
}

/// Mean and 95% t interval of `values` (summed in order: the same values give the same bits).
fn mean_and_interval(values: &[f64]) -> (f64, [f64; 2]) {
    let n = values.len();
    if n == 0 {
        return (f64::NAN, [f64::NAN, f64::NAN]);
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, [mean, mean]);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t_975(n - 1) * (variance / n as f64).sqrt();
    (mean, [mean - half, mean + half])
}

/// The values a metric has: a match in which it has none (NaN, such as the time to find a
/// lost ball in a match without one) is left out, instead of counting as a value.
fn measured(values: &[f64]) -> Vec<f64> {
    values.iter().copied().filter(|v| !v.is_nan()).collect()
}

/// The summary of one config's values (over the matches that have one; NaN without any).
pub fn summarize(values: &[f64]) -> Summary {
    let values = measured(values);
    let (mean, ci95) = mean_and_interval(&values);
    let (min, max) = if values.is_empty() {
        (f64::NAN, f64::NAN)
    } else {
        (
            values.iter().copied().fold(f64::INFINITY, f64::min),
            values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    };
    Summary {
        mean,
        ci95,
        min,
        max,
    }
}

/// The per-match differences `b - a` of the matches in which both have a value.
fn differences(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter()
        .zip(b)
        .map(|(a, b)| b - a)
        .filter(|d| !d.is_nan())
        .collect()
}

/// The paired difference of `b` against `a` (the same matches, in the same order), over the
/// matches in which both have a value.
pub fn paired_difference(a: &[f64], b: &[f64]) -> Difference {
    let differences = differences(a, b);
    let (mean, ci95) = mean_and_interval(&differences);
    let significant = differences.len() >= 2 && (ci95[0] > 0.0 || ci95[1] < 0.0);
    Difference {
        mean,
        ci95,
        significant,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quantiles_match_the_table_and_approach_the_normal_one() {
        assert_eq!(t_975(1), 12.7062);
        assert_eq!(t_975(19), 2.0930);
        // Published values: 2.0211 (40), 2.0086 (50), 1.9840 (100).
        assert!((t_975(40) - 2.0211).abs() < 2e-4, "{}", t_975(40));
        assert!((t_975(50) - 2.0086).abs() < 2e-4, "{}", t_975(50));
        assert!((t_975(100) - 1.9840).abs() < 2e-4, "{}", t_975(100));
        assert!(t_975(0).is_infinite());
    }

    #[test]
    fn a_summary_has_the_t_interval_of_the_mean() {
        // mean 3, sample sd sqrt(2.5), n 5: half width 2.7764 * sqrt(2.5 / 5).
        let s = summarize(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(s.mean, 3.0);
        let half = 2.7764 * (0.5f64).sqrt();
        assert!((s.ci95[0] - (3.0 - half)).abs() < 1e-12);
        assert!((s.ci95[1] - (3.0 + half)).abs() < 1e-12);
        assert_eq!((s.min, s.max), (1.0, 5.0));
        assert_eq!(summarize(&[7.0]).ci95, [7.0, 7.0]);
    }

    #[test]
    fn identical_configs_differ_by_exactly_nothing() {
        let a = [3.0, 1.5, 9.25, 4.0];
        let d = paired_difference(&a, &a);
        assert_eq!(d.mean, 0.0);
        assert_eq!(d.ci95, [0.0, 0.0]);
        assert!(!d.significant);
    }

    #[test]
    fn a_consistent_gain_is_significant_and_a_noisy_one_is_not() {
        let a = [10.0, 20.0, 30.0, 40.0, 50.0];
        let better = [12.0, 21.0, 33.0, 41.0, 52.0];
        let d = paired_difference(&a, &better);
        assert_eq!(d.mean, 1.8);
        assert!(d.significant && d.ci95[0] > 0.0, "{d:?}");
        let noisy = [15.0, 14.0, 36.0, 33.0, 55.0];
        let d = paired_difference(&a, &noisy);
        assert!(!d.significant, "{d:?}");
        assert!(d.ci95[0] < 0.0 && d.ci95[1] > 0.0);
    }

    #[test]
    fn a_match_without_a_value_is_left_out_of_the_summary_and_the_pairs() {
        let nan = f64::NAN;
        let s = summarize(&[2.0, nan, 4.0]);
        assert_eq!((s.mean, s.min, s.max), (3.0, 2.0, 4.0));
        let none = summarize(&[nan, nan]);
        assert!(none.mean.is_nan() && none.min.is_nan() && none.max.is_nan());
        // Only matches 0 and 3 have a value in both configs.
        let a = [1.0, nan, 2.0, 5.0];
        let b = [2.0, 3.0, nan, 7.0];
        assert_eq!(differences(&a, &b), [1.0, 2.0]);
        assert_eq!(paired_difference(&a, &b).mean, 1.5);
    }
}

//! The workspace's one seeded PRNG (SplitMix64): deterministic, no OS randomness, one stream
//! per robot; the simulator's noise and walks and the planner's samples all draw from it.

/// SplitMix64 (Steele, Lea, Flood 2014): 64-bit state, full period, good enough for choosing
/// random-walk neighbours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// An independent stream for `stream` (e.g. a robot index) derived from `seed`, so that
    /// adding a robot does not change the others' choices.
    pub fn for_stream(seed: u64, stream: u64) -> Self {
        let mut mixer =
            Self::new(seed ^ stream.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03));
        Self::new(mixer.next_u64())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in [0, 1) (53 random bits).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform `f32` in [0, 1) (24 random bits: every value exact in `f32`), for scenes
    /// in single precision.
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A standard normal number (Box-Muller), for sensor noise.
    pub fn normal(&mut self) -> f64 {
        let u = self.unit().max(1e-300);
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// A uniform number in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    /// A uniform index in `0..n` (0 when `n` is 0), without modulo bias worth speaking of
    /// (Lemire's multiply-shift).
    pub fn below(&mut self, n: usize) -> usize {
        let n64 = n as u64;
        ((u128::from(self.next_u64()) * u128::from(n64)) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_streams_differ() {
        let a: Vec<u64> = (0..5)
            .map({
                let mut r = SplitMix64::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..5)
            .map({
                let mut r = SplitMix64::new(7);
                move |_| r.next_u64()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(
            SplitMix64::for_stream(7, 0).next_u64(),
            SplitMix64::for_stream(7, 1).next_u64()
        );
        let mut r = SplitMix64::new(1);
        assert!((0..1000).all(|_| r.below(3) < 3));
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn known_first_output() {
        // Reference value of SplitMix64 seeded with 0.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }
}

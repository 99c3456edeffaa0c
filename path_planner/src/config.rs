//! Planner parameters (Sumatra `sisyphus` defaults, Release 2024 / 2025 presets), in SI units.

/// Movement limits of the planning robot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveLimits {
    /// Maximum speed (m/s).
    pub vmax: f64,
    /// Maximum acceleration used for planning (m/s²).
    pub amax: f64,
}

impl Default for MoveLimits {
    fn default() -> Self {
        Self {
            vmax: 3.0,
            amax: 3.0,
        }
    }
}

/// Path-finder parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannerConfig {
    /// Initial collision-check offset t0 (s) (before the time correction).
    pub t0: f64,
    /// Switch-time grid step on the sub path (s).
    pub switch_step: f64,
    /// Smallest dynamic collision-check step (s).
    pub min_check_step: f64,
    /// Number of random sub-destinations per frame.
    pub random_sub_dests: usize,
    /// Also try the systematic set (14 fixed offsets with jitter) after the random set.
    pub systematic_sub_dests: bool,
    /// Base of the dynamic margin m_base (m).
    pub margin_base: f64,
    /// Reference speed of the dynamic margin (m/s).
    pub margin_vref: f64,
    /// Motionless acceptor time threshold T_thr (s) (2 s R2024, 4 s R2025).
    pub motionless_t_thr: f64,
    /// Moving acceptor: max distance destination ↔ collision for aggressive acceptance (m).
    pub moving_max_dest_dist: f64,
    /// Moving acceptor: speed below which a collision is tolerated (m/s).
    pub moving_crash_speed: f64,
    /// Moving acceptor: brake-time offset (s).
    pub moving_brake_offset: f64,
    /// Robot radius (m).
    pub bot_radius: f64,
    /// Scale speeds in (vmax, vmax + this] down to vmax before planning (adaptVel) (m/s).
    pub adapt_vel_band: f64,
    /// Sub paths longer than this are skipped (s).
    pub max_sub_time: f64,
    /// Seed of the sub-destination generator.
    pub seed: u64,
}

impl PlannerConfig {
    /// Release 2024 defaults.
    pub fn r2024() -> Self {
        Self {
            t0: 0.1,
            switch_step: 0.2,
            min_check_step: 0.02,
            random_sub_dests: 5,
            systematic_sub_dests: false,
            margin_base: 0.2,
            margin_vref: 3.0,
            motionless_t_thr: 2.0,
            moving_max_dest_dist: 0.3,
            moving_crash_speed: 1.5,
            moving_brake_offset: 0.0,
            bot_radius: 0.09,
            adapt_vel_band: 0.2,
            max_sub_time: 100.0,
            seed: 0x5EED,
        }
    }

    /// Release 2025 defaults (motionless T_thr = 4 s).
    pub fn r2025() -> Self {
        Self {
            motionless_t_thr: 4.0,
            ..Self::r2024()
        }
    }

    /// Dynamic margin m = (min(v, v_ref)/v_ref)² · m_base (m).
    pub fn margin(&self, speed: f64) -> f64 {
        let k = speed.min(self.margin_vref) / self.margin_vref;
        k * k * self.margin_base
    }
}

impl Default for PlannerConfig {
    fn default() -> Self {
        Self::r2024()
    }
}

//! `behavior_node.json5`: the behaviour's parameters, with their names and defaults.

use super::Problem;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every parameter of the behaviour (`behavior_node.json5`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields, default)]
pub struct BehaviorParameters {
    /// What runs around the tree each tick: `soccer` (default) or `booster`. A tree file may
    /// choose it too (`<root brain="booster">`), which takes precedence.
    pub brain: BrainKind,
    /// Development switches.
    pub control: Control,
    /// Remote control by an operator.
    pub remote_control: RemoteControl,
    /// Who keeps goal and where.
    pub goalkeeper: Goalkeeper,
    /// Ready-state formations.
    pub kickoff: Kickoff,
    /// When a ready pose counts as reached.
    pub ready: Ready,
    /// Ball retention, striker hysteresis and interception.
    pub ball: BallParameters,
    /// Team communication.
    pub team: Team,
    /// Walking speeds, arrival and path planning.
    pub walking: Walking,
    /// Kicking in open play.
    pub kicking: Kicking,
    /// Set plays (free kick, goal kick, corner kick, throw-in, penalty kick).
    pub substates: Substates,
    /// Penalty shootout.
    pub penalty_shootout: PenaltyShootout,
    /// Walking to the search suggestor's target.
    pub search: Search,
    /// Head limits.
    pub head: Head,
    /// Voronoi partition of the field players (striker choice, support positions).
    pub voronoi: Voronoi,
    /// What a supporter does near the ball besides taking its support position.
    pub support: Support,
}

/// `brain`: what runs around the tree each tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum BrainKind {
    /// The soccer behaviour's: the striker hysteresis before each tick; a tick that succeeds
    /// moves the robot, anything else stands it; the first root branch that succeeded is
    /// reported.
    #[default]
    Soccer,
    /// The Booster RoboCup demo's C++ brain: its blackboard keys written before each tick;
    /// running and skipped roots still move the robot (a kick, a turn); the last root branch
    /// that ran is reported. Trees using Booster's nodes need it.
    Booster,
}

impl BrainKind {
    /// The name as written in parameters and tree files.
    pub fn name(self) -> &'static str {
        match self {
            BrainKind::Soccer => "soccer",
            BrainKind::Booster => "booster",
        }
    }

    /// The kind named `name` (`soccer`, `booster`).
    pub fn from_name(name: &str) -> Option<Self> {
        [BrainKind::Soccer, BrainKind::Booster]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

/// `control`: development switches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Control {
    /// Skip team-based role assignment: search without a ball, else striker.
    pub simple_mode: bool,
    /// A body command returned verbatim instead of the game behaviour (`null` = off).
    pub injected_motion_command: Option<serde_json::Value>,
}

/// `remote_control`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RemoteControl {
    /// Whether a frame's remote-control command takes over before the game behaviour.
    pub enable: bool,
    /// Distance of the kick target ahead of the robot (m).
    pub kick_target_distance: f64,
}

/// `goalkeeper`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Goalkeeper {
    /// The player number that keeps goal (1..=7).
    pub player_number: u8,
    /// Distance of the default position in front of the own goal line (m).
    pub x_offset: f64,
    /// The keeper clears a ball inside its penalty area closer than this (m).
    pub kick_away_ball_maximum_robot_distance: f64,
    /// The active defence position is not taken when farther than this from the robot (m).
    pub active_defense_maximum_robot_distance: f64,
}

/// `kickoff`: formations in normalised field coordinates `[u, v]`, each in [-1, 1].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Kickoff {
    /// The goalkeeper's ready position.
    pub goalkeeper_position: [f64; 2],
    /// The kick-off taker's position (own kick-off).
    pub striker_position: [f64; 2],
    /// The other field players' slots on an own kick-off, filled from the highest number.
    pub aggressive_positions: Vec<[f64; 2]>,
    /// The field players' slots on an opponent or unknown kick-off, from the highest number.
    pub defensive_positions: Vec<[f64; 2]>,
}

/// `ready`: arrival at the kick-off pose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Ready {
    /// Position tolerance (m).
    pub arrival_distance: f64,
    /// Heading tolerance (rad).
    pub arrival_yaw: f64,
}

/// `ball`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct BallParameters {
    /// How long a lost local ball is still used (s).
    pub last_ball_timeout: f64,
    /// How long a teammate's ball is used after its observation (s).
    pub team_ball_timeout: f64,
    /// Striker hysteresis.
    pub closest_to_ball: ClosestToBall,
    /// When a moving ball is intercepted.
    pub interception: Interception,
}

/// `ball.closest_to_ball`: time hysteresis of the striker choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ClosestToBall {
    /// The raw answer must hold this long to become striker (s).
    pub enter_duration: f64,
    /// A striker stays one until the raw answer has been false this long (s).
    pub exit_duration: f64,
    /// Which own pose enters the field players' partition (striker choice and support
    /// positions): `current` (this frame's; the default) or `last_sent` (the pose of
    /// this robot's last State message while within `team.maximum_player_state_age`, i.e. as
    /// its teammates know it, so that every robot decides from the same poses).
    pub own_pose: OwnPose,
    /// Stickiness of the striker choice (m; 0: off, the plain partition owner). Every robot
    /// keeps the field player it takes as the team's striker (the ball cell's owner it chose
    /// last); the choice moves to the partition's new owner only when the new owner's cost to
    /// the ball (the distance times 1 + `voronoi.orientation_bias` * (1 - cos of the angle
    /// between heading and ball) / 2, as the partition counts a straight walk) is lower by
    /// more than this. The belief is cleared outside `playing` and while this robot is the
    /// only field player it knows of. (Each robot's belief is private: in the simulated
    /// match beliefs drift apart and a margin gives more double strikers; no sample location
    /// sets it.)
    pub striker_margin: f64,
    /// The ball of the striker choice: `retained` (the ball the tree uses; the
    /// default) or `shared`: the freshest ball of the team's State messages (this robot's last
    /// sent one included) observed within `ball.team_ball_timeout`, else the retained ball;
    /// with `own_pose: last_sent` every robot then decides from the same inputs. While the
    /// robot knows no other field player, the `shared` choice answers false (the last active
    /// robot is striker by its own rule), so no robot carries a lone striker answer into play.
    pub ball_source: StrikerBallSource,
    /// Whether the State message carries the sender's striker claim (`striker`: whether it
    /// is striker when it sends; one bit of the message) and, with `striker_margin` > 0, the
    /// claims replace each robot's private belief: the kept striker is the field player whose
    /// message claimed the role last (this robot's own last sent claim included), and it
    /// stays striker unless the partition's owner is cheaper to the ball by more than
    /// `striker_margin`. Every robot reads the same messages, so the robots agree on the kept
    /// striker instead of drifting apart. False (the default): the message has no claim and
    /// each robot keeps its own striker choice.
    pub striker_claim: bool,
    /// With `striker_claim`: whether a robot whose raw answer turns true becomes striker at
    /// once, without waiting `enter_duration`, while no field player claims the role (no
    /// fresh State message or own last sent one says striker). The hysteresis is there to
    /// hand the role over without flapping; when nobody holds the role, as in the first
    /// tenths of a second of play, waiting only leaves the team without a striker. False
    /// (the default): `enter_duration` always applies.
    pub enter_at_once_when_unclaimed: bool,
    /// With `striker_claim`: a change of this robot's striker claim goes out in a State
    /// message at once, as soon as this long (s) has passed since its last message, instead
    /// of waiting for the next regular one, so the team learns of a new striker within
    /// tenths of a second. The message interval is computed from the remaining budget, so
    /// the extra messages lengthen it a little and the budget holds. `null` (the default):
    /// the claim waits for the next regular message.
    pub claim_change_gap: Option<f64>,
    /// Whether the striker hysteresis keeps its state while the robot has no pose (not
    /// localized, e.g. lying after a fall): without a pose the raw answer says nothing, and a
    /// striker that drops the role while its teammates still defer to its claim leaves the
    /// team without one. False (the default): without a pose the raw answer is false, and a
    /// striker gives the role up after `exit_duration`.
    pub hold_without_pose: bool,
}

/// `ball.closest_to_ball.ball_source`: the ball of the striker choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum StrikerBallSource {
    /// The retained ball (the default).
    #[default]
    Retained,
    /// The freshest ball the team's State messages carry.
    Shared,
}

/// `ball.closest_to_ball.own_pose`: the own pose of the partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum OwnPose {
    /// This frame's pose (the default).
    #[default]
    Current,
    /// The pose of the last State message sent, while it is fresh; else this frame's.
    LastSent,
}

/// `ball.interception`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Interception {
    /// Only balls nearer than this are intercepted (m).
    pub maximum_ball_distance: f64,
    /// Minimum ball speed (m/s).
    pub minimum_ball_velocity: f64,
    /// Minimum speed of the ball towards the robot (m/s).
    pub minimum_ball_velocity_towards_robot: f64,
    /// Minimum speed of the ball towards the own half (m/s).
    pub minimum_ball_velocity_towards_own_half: f64,
    /// The interception point may be at most this far from the robot (m).
    pub maximum_intercept_distance: f64,
}

/// `team`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Team {
    /// Messages kept in reserve: the budget is what remains above this.
    pub remaining_amount_of_messages_to_stop_sending: i64,
    /// A teammate not heard for this long is not used (s).
    pub maximum_player_state_age: f64,
    /// Whether play starts from the ready formation (false, the default: a teammate exists
    /// once heard). True: on entering `playing` from `set`, every active teammate not heard
    /// yet counts as heard at that moment at its kick-off pose (the ready formation of the
    /// set state's kick-off team), without a ball, until its first
    /// message replaces it or `maximum_player_state_age` passes. No robot is then "the last
    /// active robot" (striker or searcher) in the first tenths of a second of play while
    /// the first messages are on their way.
    pub formation_at_kickoff: bool,
}

/// `walking`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Walking {
    /// Speeds by purpose (m/s).
    pub speed: WalkingSpeed,
    /// When a walk target counts as reached.
    pub walk_and_stand: WalkAndStand,
    /// The local path planner behind `walk_to`.
    pub path_planning: PathPlanning,
}

/// `walking.speed` (m/s).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct WalkingSpeed {
    /// Walking to the ball.
    pub kicking: f64,
    /// Walking to a search target.
    pub search: f64,
    /// Walking to a blocking or goalkeeper position.
    pub blocking: f64,
    /// Walking to a support position.
    pub support: f64,
    /// Walking to the kick-off pose.
    pub walk_to_kickoff: f64,
}

/// `walking.walk_and_stand`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct WalkAndStand {
    /// `[distance m, angle rad]` within which a walk target is reached.
    pub target_reached_thresholds: [f64; 2],
    /// Added to the thresholds while the robot already stands there (m, rad).
    pub hysteresis: [f64; 2],
}

/// `walking.path_planning`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PathPlanning {
    /// Plan a path around obstacles (false: the target only).
    pub enable: bool,
    /// Robot radius for the obstacles (m).
    pub robot_radius: f64,
    /// Radius of the ball as an obstacle (m).
    pub ball_obstacle_radius: f64,
    /// Acceleration limit of the walk (m/s²).
    pub acceleration: f64,
}

/// `kicking`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Kicking {
    /// A ball nearer than this is kicked (m).
    pub distance_for_kick: f64,
    /// Width of the band around `distance_for_kick` (m): a kicking robot keeps kicking up to
    /// `distance_for_kick + hysteresis / 2`.
    pub distance_for_kick_hysteresis: f64,
    /// Distance of the kick position behind the ball (m).
    pub kick_position_ball_distance: f64,
    /// Kick targets stay this far inside the goal posts (m).
    pub goal_post_margin: f64,
}

/// `substates`: set plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Substates {
    /// The kicker kicks when nearer than this to the kick position (m).
    pub distance_for_kick: f64,
    /// Width of the band around it (m).
    pub distance_for_kick_hysteresis: f64,
    /// The kicker must face the goal within this (rad).
    pub alignment_angle_threshold: f64,
    /// Extra distance of a blocking position beyond the keep-out circle (m).
    pub blocking_distance_offset: f64,
    /// Rotation of the corner-kick blocking direction (rad).
    pub corner_kick_blocking_angle: f64,
}

/// `penalty_shootout`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PenaltyShootout {
    /// Lateral offset of the kick target from the goal centre, as a fraction of half the
    /// goal's inner width, in [0, 1).
    pub target_y_fraction: f64,
}

/// `search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Search {
    /// Arrival distance as a fraction of the shorter heatmap cell side.
    pub position_reached_cell_fraction: f64,
    /// Lower bound of the arrival distance (m).
    pub minimum_position_reached_distance: f64,
}

/// `head`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Head {
    /// Largest head yaw relative to the body (rad).
    pub maximum_yaw: f64,
}

/// `voronoi`: the field players' partition of the field (multi-source Dijkstra on a grid).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Voronoi {
    /// Cost of a step at right angles to a robot's heading, in cells (0: plain distance).
    pub orientation_bias: f64,
    /// Cell side (m); 0.2 as HULKs. A coarser grid is cheaper: a partition of the 11 x 8 m
    /// grid started over costs about 2.4 times as much at 0.2 as at 0.3 (most ticks continue
    /// the last one: see [`crate::voronoi::VoronoiGrid::compute`]).
    pub grid_resolution: f64,
    /// Padding of the field length in the forward score (m).
    pub padding: f64,
    /// Weight of being far forward in the support score.
    pub forward_weight: f64,
    /// Weight of the preferred distance to the ball.
    pub ball_weight: f64,
    /// Preferred distance of a supporter from the ball (m).
    pub ball_support_distance: f64,
    /// Width of that preference (m).
    pub ball_support_sigma: f64,
    /// Weight of staying near the own region's centroid.
    pub centroid_anchor_weight: f64,
    /// Distance scale of that weight (m).
    pub centroid_anchor_sigma: f64,
}

/// `support`: what a supporter does near the ball besides taking its support position. The
/// defaults leave the supporter as the contract describes it (it only walks to its position).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Support {
    /// Whether a supporter kicks a ball that is within its kicking distance
    /// (`kicking.distance_for_kick`, with its band) at the opponent goal, as the striker
    /// would, instead of walking on to its position; its role stays `supporter`. False (the
    /// default): a supporter never kicks.
    pub kick_ball_in_reach: bool,
    /// Weight of the press point in the support score (0, the default: no press point). The
    /// press point lies `press_distance` from the ball on the line to the own goal centre,
    /// where a supporter blocks the opponent's kicks and takes the rebounds; a cell scores
    /// `press_weight * gauss(distance to the press point, press_sigma)` more.
    pub press_weight: f64,
    /// Distance of the press point from the ball, towards the own goal centre (m).
    pub press_distance: f64,
    /// Width of the press point's preference (m).
    pub press_sigma: f64,
}

impl Default for Support {
    fn default() -> Self {
        Self {
            kick_ball_in_reach: false,
            press_weight: 0.0,
            press_distance: 1.0,
            press_sigma: 0.5,
        }
    }
}

impl Default for RemoteControl {
    fn default() -> Self {
        Self {
            enable: false,
            kick_target_distance: 3.0,
        }
    }
}

impl Default for Goalkeeper {
    fn default() -> Self {
        Self {
            player_number: 1,
            x_offset: 0.3,
            kick_away_ball_maximum_robot_distance: 1.5,
            active_defense_maximum_robot_distance: 2.0,
        }
    }
}

impl Default for Kickoff {
    fn default() -> Self {
        Self {
            goalkeeper_position: [-0.93, 0.0],
            striker_position: [-0.13, 0.0],
            aggressive_positions: vec![[-0.38, 0.5], [-0.38, -0.5], [-0.67, 0.0]],
            defensive_positions: vec![[-0.4, 0.0], [-0.62, 0.53], [-0.62, -0.53], [-0.71, 0.0]],
        }
    }
}

impl Default for Ready {
    fn default() -> Self {
        Self {
            arrival_distance: 0.15,
            arrival_yaw: 0.2,
        }
    }
}

impl Default for BallParameters {
    fn default() -> Self {
        Self {
            last_ball_timeout: 2.0,
            team_ball_timeout: 1.0,
            closest_to_ball: ClosestToBall::default(),
            interception: Interception::default(),
        }
    }
}

impl Default for ClosestToBall {
    fn default() -> Self {
        Self {
            enter_duration: 0.3,
            exit_duration: 0.15,
            own_pose: OwnPose::Current,
            striker_margin: 0.0,
            ball_source: StrikerBallSource::Retained,
            striker_claim: false,
            enter_at_once_when_unclaimed: false,
            claim_change_gap: None,
            hold_without_pose: false,
        }
    }
}

impl Default for Interception {
    fn default() -> Self {
        Self {
            maximum_ball_distance: 4.0,
            minimum_ball_velocity: 1.0,
            minimum_ball_velocity_towards_robot: 0.7,
            minimum_ball_velocity_towards_own_half: 0.7,
            maximum_intercept_distance: 1.5,
        }
    }
}

impl Default for Team {
    fn default() -> Self {
        Self {
            remaining_amount_of_messages_to_stop_sending: 20,
            maximum_player_state_age: 1.0,
            formation_at_kickoff: false,
        }
    }
}

impl Default for WalkingSpeed {
    fn default() -> Self {
        Self {
            kicking: 1.0,
            search: 0.4,
            blocking: 0.8,
            support: 0.75,
            walk_to_kickoff: 0.5,
        }
    }
}

impl Default for WalkAndStand {
    fn default() -> Self {
        Self {
            target_reached_thresholds: [0.05, 0.1],
            hysteresis: [0.3, 0.3],
        }
    }
}

impl Default for PathPlanning {
    fn default() -> Self {
        Self {
            enable: true,
            robot_radius: 0.3,
            ball_obstacle_radius: 0.05,
            acceleration: 1.0,
        }
    }
}

impl Default for Kicking {
    fn default() -> Self {
        Self {
            distance_for_kick: 0.5,
            distance_for_kick_hysteresis: 0.2,
            kick_position_ball_distance: 0.3,
            goal_post_margin: 0.3,
        }
    }
}

impl Default for Substates {
    fn default() -> Self {
        Self {
            distance_for_kick: 0.4,
            distance_for_kick_hysteresis: 0.2,
            alignment_angle_threshold: 0.4,
            blocking_distance_offset: 0.2,
            corner_kick_blocking_angle: 0.78,
        }
    }
}

impl Default for PenaltyShootout {
    fn default() -> Self {
        Self {
            target_y_fraction: 0.6,
        }
    }
}

impl Default for Search {
    fn default() -> Self {
        Self {
            position_reached_cell_fraction: 0.5,
            minimum_position_reached_distance: 0.2,
        }
    }
}

impl Default for Head {
    fn default() -> Self {
        Self { maximum_yaw: 2.0 }
    }
}

impl Default for Voronoi {
    fn default() -> Self {
        Self {
            orientation_bias: 0.5,
            grid_resolution: 0.2,
            padding: 0.5,
            forward_weight: 0.2,
            ball_weight: 1.0,
            ball_support_distance: 1.5,
            ball_support_sigma: 0.5,
            centroid_anchor_weight: 0.6,
            centroid_anchor_sigma: 1.0,
        }
    }
}

impl BehaviorParameters {
    /// Range checks the types cannot express; each problem names its key path.
    pub fn validate(&self, out: &mut Vec<Problem>) {
        let mut check = |path: &str, ok: bool, message: &str| {
            if !ok {
                out.push(Problem::new(path, message));
            }
        };
        let positive = |v: f64| v.is_finite() && v > 0.0;
        let non_negative = |v: f64| v.is_finite() && v >= 0.0;
        let unit = |p: &[f64; 2]| p.iter().all(|c| c.is_finite() && (-1.0..=1.0).contains(c));
        check(
            "goalkeeper.player_number",
            (1..=7).contains(&self.goalkeeper.player_number),
            "must be a player number in 1..=7",
        );
        let g = &self.goalkeeper;
        check(
            "goalkeeper.x_offset",
            non_negative(g.x_offset),
            "must be finite and >= 0",
        );
        check(
            "goalkeeper.kick_away_ball_maximum_robot_distance",
            non_negative(g.kick_away_ball_maximum_robot_distance),
            "must be finite and >= 0",
        );
        check(
            "goalkeeper.active_defense_maximum_robot_distance",
            non_negative(g.active_defense_maximum_robot_distance),
            "must be finite and >= 0",
        );
        let k = &self.kickoff;
        check(
            "kickoff.goalkeeper_position",
            unit(&k.goalkeeper_position),
            "normalised coordinates must be finite and in [-1, 1]",
        );
        check(
            "kickoff.striker_position",
            unit(&k.striker_position),
            "normalised coordinates must be finite and in [-1, 1]",
        );
        for (name, list) in [
            ("kickoff.aggressive_positions", &k.aggressive_positions),
            ("kickoff.defensive_positions", &k.defensive_positions),
        ] {
            if let Some(i) = list.iter().position(|p| !unit(p)) {
                out.push(Problem::new(
                    name,
                    &format!("position {i}: normalised coordinates must be finite and in [-1, 1]"),
                ));
            }
        }
        let mut check = |path: &str, ok: bool, message: &str| {
            if !ok {
                out.push(Problem::new(path, message));
            }
        };
        let times = [
            ("ready.arrival_distance", self.ready.arrival_distance),
            ("ready.arrival_yaw", self.ready.arrival_yaw),
            ("ball.last_ball_timeout", self.ball.last_ball_timeout),
            ("ball.team_ball_timeout", self.ball.team_ball_timeout),
            (
                "ball.closest_to_ball.enter_duration",
                self.ball.closest_to_ball.enter_duration,
            ),
            (
                "ball.closest_to_ball.exit_duration",
                self.ball.closest_to_ball.exit_duration,
            ),
            (
                "ball.closest_to_ball.striker_margin",
                self.ball.closest_to_ball.striker_margin,
            ),
            (
                "ball.closest_to_ball.claim_change_gap",
                self.ball.closest_to_ball.claim_change_gap.unwrap_or(0.0),
            ),
            (
                "ball.interception.maximum_ball_distance",
                self.ball.interception.maximum_ball_distance,
            ),
            (
                "ball.interception.minimum_ball_velocity",
                self.ball.interception.minimum_ball_velocity,
            ),
            (
                "ball.interception.minimum_ball_velocity_towards_robot",
                self.ball.interception.minimum_ball_velocity_towards_robot,
            ),
            (
                "ball.interception.minimum_ball_velocity_towards_own_half",
                self.ball
                    .interception
                    .minimum_ball_velocity_towards_own_half,
            ),
            (
                "ball.interception.maximum_intercept_distance",
                self.ball.interception.maximum_intercept_distance,
            ),
            (
                "team.maximum_player_state_age",
                self.team.maximum_player_state_age,
            ),
            (
                "walking.walk_and_stand.target_reached_thresholds",
                self.walking.walk_and_stand.target_reached_thresholds[0]
                    .min(self.walking.walk_and_stand.target_reached_thresholds[1]),
            ),
            (
                "walking.walk_and_stand.hysteresis",
                self.walking.walk_and_stand.hysteresis[0]
                    .min(self.walking.walk_and_stand.hysteresis[1]),
            ),
            (
                "walking.path_planning.ball_obstacle_radius",
                self.walking.path_planning.ball_obstacle_radius,
            ),
            ("kicking.distance_for_kick", self.kicking.distance_for_kick),
            (
                "kicking.distance_for_kick_hysteresis",
                self.kicking.distance_for_kick_hysteresis,
            ),
            (
                "kicking.kick_position_ball_distance",
                self.kicking.kick_position_ball_distance,
            ),
            ("kicking.goal_post_margin", self.kicking.goal_post_margin),
            (
                "substates.distance_for_kick",
                self.substates.distance_for_kick,
            ),
            (
                "substates.distance_for_kick_hysteresis",
                self.substates.distance_for_kick_hysteresis,
            ),
            (
                "substates.alignment_angle_threshold",
                self.substates.alignment_angle_threshold,
            ),
            (
                "substates.blocking_distance_offset",
                self.substates.blocking_distance_offset,
            ),
            (
                "substates.corner_kick_blocking_angle",
                self.substates.corner_kick_blocking_angle,
            ),
            (
                "search.minimum_position_reached_distance",
                self.search.minimum_position_reached_distance,
            ),
            ("head.maximum_yaw", self.head.maximum_yaw),
            ("voronoi.orientation_bias", self.voronoi.orientation_bias),
            ("voronoi.padding", self.voronoi.padding),
            ("voronoi.forward_weight", self.voronoi.forward_weight),
            ("voronoi.ball_weight", self.voronoi.ball_weight),
            (
                "voronoi.ball_support_distance",
                self.voronoi.ball_support_distance,
            ),
            (
                "voronoi.centroid_anchor_weight",
                self.voronoi.centroid_anchor_weight,
            ),
            (
                "remote_control.kick_target_distance",
                self.remote_control.kick_target_distance,
            ),
            ("support.press_weight", self.support.press_weight),
            ("support.press_distance", self.support.press_distance),
        ];
        for (path, v) in times {
            check(path, non_negative(v), "must be finite and >= 0");
        }
        let positives = [
            ("walking.speed.kicking", self.walking.speed.kicking),
            ("walking.speed.search", self.walking.speed.search),
            ("walking.speed.blocking", self.walking.speed.blocking),
            ("walking.speed.support", self.walking.speed.support),
            (
                "walking.speed.walk_to_kickoff",
                self.walking.speed.walk_to_kickoff,
            ),
            (
                "walking.path_planning.robot_radius",
                self.walking.path_planning.robot_radius,
            ),
            (
                "walking.path_planning.acceleration",
                self.walking.path_planning.acceleration,
            ),
            ("voronoi.grid_resolution", self.voronoi.grid_resolution),
            (
                "voronoi.ball_support_sigma",
                self.voronoi.ball_support_sigma,
            ),
            (
                "voronoi.centroid_anchor_sigma",
                self.voronoi.centroid_anchor_sigma,
            ),
            ("support.press_sigma", self.support.press_sigma),
        ];
        for (path, v) in positives {
            check(path, positive(v), "must be finite and > 0");
        }
        check(
            "search.position_reached_cell_fraction",
            self.search.position_reached_cell_fraction.is_finite()
                && (0.0..=1.0).contains(&self.search.position_reached_cell_fraction),
            "must be finite and in [0, 1]",
        );
        check(
            "penalty_shootout.target_y_fraction",
            self.penalty_shootout.target_y_fraction.is_finite()
                && (0.0..1.0).contains(&self.penalty_shootout.target_y_fraction),
            "must be finite and in [0, 1)",
        );
        check(
            "team.remaining_amount_of_messages_to_stop_sending",
            self.team.remaining_amount_of_messages_to_stop_sending >= 0,
            "must be >= 0",
        );
        if self.voronoi.orientation_bias > crate::voronoi::MAX_ORIENTATION_BIAS {
            check(
                "voronoi.orientation_bias",
                false,
                "must be at most 100 (cell lengths of extra cost for a step against the heading)",
            );
        }
        if self.voronoi.grid_resolution.is_finite() && self.voronoi.grid_resolution < 0.05 {
            check(
                "voronoi.grid_resolution",
                false,
                "must be at least 0.05 m (finer grids cost too much per tick)",
            );
        }
    }
}

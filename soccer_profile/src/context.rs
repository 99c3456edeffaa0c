//! The profile's context: what every leaf sees (world, parameters) and writes (this tick's
//! choices), plus the memory kept between ticks.

use crate::motion::{Body, Head, TurnDirection};
use crate::params::OwnPose;
use crate::params::Parameters;
use crate::path_planning::Walker;
use crate::voronoi::{Site, Until, VoronoiGrid};
use crate::world::World;
use geometry::{Field, Point2, Pose2};
use std::sync::Arc;

/// A high-level task of the playing robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Keeps goal.
    Goalkeeper,
    /// Plays the ball.
    Striker,
    /// Positions itself to support the striker.
    Supporter,
    /// Looks for the ball.
    Searcher,
    /// Takes or defends a penalty shootout kick.
    PenaltyShootout,
}

impl Role {
    /// The role's name in the output.
    pub fn name(self) -> &'static str {
        match self {
            Role::Goalkeeper => "goalkeeper",
            Role::Striker => "striker",
            Role::Supporter => "supporter",
            Role::Searcher => "searcher",
            Role::PenaltyShootout => "penalty_shootout",
        }
    }

    /// The role named `name`.
    pub fn from_name(name: &str) -> Option<Role> {
        [
            Role::Goalkeeper,
            Role::Striker,
            Role::Supporter,
            Role::Searcher,
            Role::PenaltyShootout,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

/// What the actions chose in one tick (reset before each tick).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TickChoices {
    /// The body motion, if an action chose one.
    pub body: Option<Body>,
    /// The head motion, if an action chose one.
    pub head: Option<Head>,
    /// The role `assume_role` (or Booster's cooperation) set; reported only while playing.
    pub role: Option<Role>,
    /// The ready formation's pose for this robot.
    pub kickoff_pose: Option<Pose2<Field>>,
    /// A positioning leaf's target for the next walking leaf.
    pub target: Option<Pose2<Field>>,
    /// The planned path's next destination of a `walk_to`.
    pub path_next: Option<Point2<Field>>,
}

/// The partition and the player whose cells inside the field the support cells are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SupportCellsSource {
    /// The grid: the one without obstacles or not.
    pub without_obstacles: bool,
    /// Its [`VoronoiGrid::revision`].
    pub revision: u64,
    /// The player.
    pub player: u8,
    /// The field's length and width (their bits).
    pub field: [u64; 2],
}

/// What is kept from tick to tick besides the world model.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    /// The body motion of the previous tick (for hysteresis: standing at a target, kicking).
    pub last_body: Option<Body>,
    /// The search's turning direction, chosen when the search starts.
    pub search_direction: Option<TurnDirection>,
    /// The grid of the partitions around perceived obstacles (buffers reused).
    pub voronoi: VoronoiGrid,
    /// The grid of the partitions without obstacles (the shared striker choice's, and any
    /// while nothing is perceived). Kept apart from `voronoi`, so that each continues its own
    /// last computation from tick to tick: between teammates' messages the sites of the
    /// shared choice do not change, while the obstacles around them do.
    pub voronoi_without_obstacles: VoronoiGrid,
    /// Whether the last partition asked for was `voronoi_without_obstacles`'s.
    pub last_partition_without_obstacles: bool,
    /// Sites of the last partition.
    pub sites: Vec<Site>,
    /// The supporter's candidate cells (its own cells inside the field), row by row: read
    /// from the partition (see [`Memory::read_support_cells`]), then scored.
    pub support_cells: Vec<Point2<Field>>,
    /// What `support_cells` were read from; while the same, they and their centroid are
    /// kept instead of read again.
    pub support_cells_source: Option<SupportCellsSource>,
    /// The centroid of `support_cells`.
    pub support_centroid: Point2<Field>,
    /// The cell `support_pose` chose last: scored first next time, its score is a floor
    /// that lets the scan skip most cells (the choice is the same).
    pub support_best: Option<Point2<Field>>,
    /// The field player this robot takes as the team's striker (`ball.closest_to_ball.
    /// striker_margin`; unused while it is 0).
    pub believed_striker: Option<u8>,
    /// When the last State message was sent and whether it claimed the striker role
    /// (`ball.closest_to_ball.striker_claim`).
    pub last_sent_claim: Option<(f64, bool)>,
    /// When the last State message was sent and the pose it carried.
    pub last_sent_pose: Option<(f64, Pose2<Field>)>,
    /// The ball of the last State message sent, with its observation time.
    pub last_sent_ball: Option<(Point2<Field>, f64)>,
    /// The path planner behind `walk_to`.
    pub walker: Walker,
    /// What Booster's brain keeps beside a Booster tree.
    pub booster: crate::booster::BrainState,
}

impl Memory {
    /// The grid of the last partition asked for (the striker choice's or the support
    /// leaves').
    pub fn last_partition(&self) -> &VoronoiGrid {
        if self.last_partition_without_obstacles {
            &self.voronoi_without_obstacles
        } else {
            &self.voronoi
        }
    }

    /// Fills `support_cells` with the cells of `player`'s region inside `field` in the last
    /// partition, row by row, and returns their centroid (`None` when there is none). The
    /// cells are read again only when the partition, the player or the field changed.
    pub fn read_support_cells(
        &mut self,
        player: u8,
        field: &crate::params::FieldDimensions,
    ) -> Option<Point2<Field>> {
        let source = SupportCellsSource {
            without_obstacles: self.last_partition_without_obstacles,
            revision: self.last_partition().revision(),
            player,
            field: [field.length.to_bits(), field.width.to_bits()],
        };
        if self.support_cells_source != Some(source) {
            // Taken out while the grid is read (no allocation: the buffer goes back).
            let mut cells = std::mem::take(&mut self.support_cells);
            cells.clear();
            let (mut sum_x, mut sum_y) = (0.0, 0.0);
            let (x, y) = (field.half_length(), field.half_width());
            let grid = self.last_partition();
            grid.for_each_cell_of_around(player, (-x, x), (-y, y), |p| {
                if field.contains(p.x, p.y) {
                    cells.push(p);
                    sum_x += p.x;
                    sum_y += p.y;
                }
            });
            let n = cells.len() as f64;
            self.support_cells = cells;
            self.support_centroid = Point2::new(sum_x / n, sum_y / n);
            self.support_cells_source = Some(source);
        }
        (!self.support_cells.is_empty()).then_some(self.support_centroid)
    }
}

/// The context the soccer tree ticks with.
pub struct SoccerContext {
    /// The parameters in force.
    pub params: Arc<Parameters>,
    /// This frame's world.
    pub world: World,
    /// This tick's choices.
    pub out: TickChoices,
    /// Kept between ticks.
    pub memory: Memory,
}

impl SoccerContext {
    /// A context with `params` and an empty world.
    pub fn new(params: Arc<Parameters>) -> Self {
        Self {
            params,
            world: World::default(),
            out: TickChoices::default(),
            memory: Memory::default(),
        }
    }

    /// Whether the previous tick's body motion was of `kind` (`kick`, `stand`, ...).
    pub fn last_body_was(&self, kind: &str) -> bool {
        self.memory
            .last_body
            .as_ref()
            .is_some_and(|b| b.kind() == kind)
    }

    /// The field players' sites: own pose (see [`Self::own_site_pose`]) and the poses of
    /// fresh teammates, without the goalkeeper.
    pub fn field_player_sites(&self, out: &mut Vec<Site>) {
        out.clear();
        let keeper = self.params.behavior_node.goalkeeper.player_number;
        if let Some(pose) = self.own_site_pose()
            && self.world.player_number != keeper
        {
            out.push(Site {
                player: self.world.player_number,
                pose,
            });
        }
        for mate in self.world.teammates.iter() {
            if mate.player == keeper {
                continue;
            }
            if let Some(pose) = mate.pose {
                out.push(Site {
                    player: mate.player,
                    pose,
                });
            }
        }
    }

    /// The own pose of the partition: this frame's, or with `ball.closest_to_ball.own_pose:
    /// last_sent` the pose of the last State message while it is fresh (within
    /// `team.maximum_player_state_age`, as a teammate's pose is). None without a pose.
    pub fn own_site_pose(&self) -> Option<Pose2<Field>> {
        let current = self.world.pose?;
        let behavior = &self.params.behavior_node;
        if behavior.ball.closest_to_ball.own_pose == OwnPose::Current {
            return Some(current);
        }
        Some(match self.memory.last_sent_pose {
            Some((at, pose))
                if crate::world::is_within(
                    self.world.now - at,
                    behavior.team.maximum_player_state_age,
                ) =>
            {
                pose
            }
            _ => current,
        })
    }

    /// Computes the full partition of this tick (leaves that need owned cells call it). The
    /// grid continues a computation with the same inputs, so the ball query's partition of
    /// this tick is finished, not done again, and a second call costs nothing.
    pub fn ensure_voronoi(&mut self) {
        self.partition(Until::Complete);
    }

    /// Whether this robot owns the ball's cell of the field players' partition (the raw
    /// striker answer; false without pose or ball, and for the goalkeeper).
    pub fn owns_ball_cell(&mut self) -> bool {
        let shared = self.params.behavior_node.ball.closest_to_ball.ball_source
            == crate::params::StrikerBallSource::Shared;
        let retained = self.world.ball.map(|b| b.position);
        // With the shared ball the choice is made (and the believed striker kept up) even
        // without an own ball, so that every robot follows the same sequence of choices.
        let ball = if shared {
            self.shared_ball().or(retained)
        } else {
            retained
        };
        let (Some(_), Some(ball)) = (self.world.pose, ball) else {
            return false;
        };
        if self.world.player_number == self.params.behavior_node.goalkeeper.player_number {
            return false;
        }
        if shared {
            // Obstacles are each robot's own perception: the shared choice leaves them out,
            // and the support leaves compute their own partition with them.
            // (Without perceived obstacles this is the partition the support leaves use too:
            // they finish it; with obstacles they compute their own.)
            self.partition_among(Until::OwnerOf(ball), false);
            // Until another field player is heard, not striker (several strikers would carry
            // over from Set); unless no other field player plays: then the cell is ours.
            let keeper = self.params.behavior_node.goalkeeper.player_number;
            if self.memory.sites.len() < 2 && !self.world.is_only_active_field_player(keeper) {
                return false;
            }
        } else {
            self.partition(Until::OwnerOf(ball));
        }
        let owner = self.memory.last_partition().owner_at(ball);
        let margin = self
            .params
            .behavior_node
            .ball
            .closest_to_ball
            .striker_margin;
        if margin <= 0.0 {
            return owner == Some(self.world.player_number) && retained.is_some();
        }
        if self.world.primary_state != crate::frame::PrimaryState::Playing
            || self.memory.sites.len() < 2
        {
            // Nobody to agree with (alone, or teammates not heard) or not playing: the plain
            // owner, and no belief carried into play.
            self.memory.believed_striker = None;
            return owner == Some(self.world.player_number) && retained.is_some();
        }
        let believed = if self.params.behavior_node.ball.closest_to_ball.striker_claim {
            self.claimed_striker()
        } else {
            self.memory.believed_striker
        };
        let chosen = self.sticky_striker(believed, owner, ball, margin);
        self.memory.believed_striker = chosen;
        chosen == Some(self.world.player_number) && retained.is_some()
    }

    /// `ball.closest_to_ball.striker_claim`: the field player of the partition whose State
    /// message claimed the striker role last: the freshest claim among the teammates' last
    /// messages (by the time they were heard) and this robot's last sent one (by the time it
    /// was sent, while within `team.maximum_player_state_age`); equal times to the lower
    /// number. `None` when no field player's last message claims it. Every robot reads the
    /// same messages, so every robot names the same player.
    pub fn claimed_striker(&self) -> Option<u8> {
        let own = self
            .memory
            .last_sent_claim
            .filter(|(at, claims)| {
                *claims
                    && crate::world::is_within(
                        self.world.now - at,
                        self.params.behavior_node.team.maximum_player_state_age,
                    )
            })
            .map(|(at, _)| (self.world.player_number, at));
        let mates = self
            .world
            .teammates
            .iter()
            .filter(|m| m.striker == Some(true))
            .map(|m| (m.player, m.heard_at));
        own.into_iter()
            .chain(mates)
            .filter(|(player, _)| self.memory.sites.iter().any(|s| s.player == *player))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(player, _)| player)
    }

    /// The freshest ball of the team's State messages (this robot's last sent one included)
    /// observed within `ball.team_ball_timeout`; ties to the lower position (x, then y), so
    /// every robot picks the same one.
    pub fn shared_ball(&self) -> Option<Point2<Field>> {
        let timeout = self.params.behavior_node.ball.team_ball_timeout;
        let now = self.world.now;
        self.world
            .teammates
            .iter()
            .filter_map(|m| m.ball)
            .chain(self.memory.last_sent_ball)
            .filter(|(_, seen)| crate::world::is_within(now - seen, timeout))
            .max_by(|a, b| {
                a.1.total_cmp(&b.1)
                    .then(b.0.x.total_cmp(&a.0.x))
                    .then(b.0.y.total_cmp(&a.0.y))
            })
            .map(|(position, _)| position)
    }

    /// The striker with `striker_margin`: the `believed` striker while it is still a site and
    /// the partition's `owner` is not cheaper to the ball by more than `margin`; else `owner`.
    fn sticky_striker(
        &self,
        believed: Option<u8>,
        owner: Option<u8>,
        ball: Point2<Field>,
        margin: f64,
    ) -> Option<u8> {
        let (Some(believed), Some(owner)) = (believed, owner) else {
            return owner;
        };
        if believed == owner {
            return Some(owner);
        }
        let sites = &self.memory.sites;
        let cost_of = |player: u8| {
            sites
                .iter()
                .find(|s| s.player == player)
                .map(|s| self.cost_to_ball(s.pose, ball))
        };
        match (cost_of(believed), cost_of(owner)) {
            (Some(kept), Some(new)) if kept - new <= margin => Some(believed),
            _ => Some(owner),
        }
    }

    /// A robot's cost to reach the ball (m) as the partition counts a straight walk: the
    /// distance times 1 + `orientation_bias` * (1 - cos of the angle between heading and
    /// ball) / 2.
    pub fn cost_to_ball(&self, pose: Pose2<Field>, ball: Point2<Field>) -> f64 {
        let v = &self.params.behavior_node.voronoi;
        let to_ball = ball - pose.position;
        let distance = to_ball.norm();
        if distance <= 0.0 {
            return 0.0;
        }
        let cos = geometry::Vector2::<Field>::from_angle(pose.yaw).dot(to_ball) / distance;
        distance * (1.0 + v.orientation_bias * (1.0 - cos) / 2.0)
    }

    /// Partitions the grid among this tick's field players, as far as `until` needs (see
    /// [`VoronoiGrid::compute`]).
    fn partition(&mut self, until: Until) {
        self.partition_among(until, true);
    }

    /// [`Self::partition`], around the perceived obstacles or not.
    fn partition_among(&mut self, until: Until, with_obstacles: bool) {
        let mut sites = std::mem::take(&mut self.memory.sites);
        self.field_player_sites(&mut sites);
        let field = &self.params.field;
        let v = &self.params.behavior_node.voronoi;
        let obstacles: &[crate::world::Obstacle] = if with_obstacles {
            &self.world.obstacles
        } else {
            &[]
        };
        self.memory.last_partition_without_obstacles = obstacles.is_empty();
        let grid = if obstacles.is_empty() {
            &mut self.memory.voronoi_without_obstacles
        } else {
            &mut self.memory.voronoi
        };
        grid.resize(
            field.length,
            field.width,
            field.border_strip_width,
            v.grid_resolution,
        );
        grid.compute(&sites, obstacles, v.orientation_bias, until);
        self.memory.sites = sites;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaves::test_support::{frame, with_params};
    use crate::params::{OwnPose, StrikerBallSource};

    /// Parameters with the striker-choice options of issue 32.
    fn params(own_pose: OwnPose, ball_source: StrikerBallSource, margin: f64) -> Parameters {
        let mut p = Parameters::default();
        let choice = &mut p.behavior_node.ball.closest_to_ball;
        choice.own_pose = own_pose;
        choice.ball_source = ball_source;
        choice.striker_margin = margin;
        p.behavior_node.team.maximum_player_state_age = 6.0;
        p.behavior_node.ball.team_ball_timeout = 6.0;
        p
    }

    /// Robot 3 at `own_x` facing +x and teammate 2 at (`mate_x`, 0) facing -x, ball at
    /// (`ball_x`, 0) seen by robot 3, at time `t`.
    fn scene(t: f64, own_x: f64, mate_x: f64, ball_x: f64) -> crate::frame::Frame {
        frame(&format!(
            r#"{{"t": {t}, "player_number": 3, "pose": {{"x": {own_x}, "y": 0, "yaw": 0}},
                "ball": {{"x": {ball_x}, "y": 0}},
                "teammate_messages": [{{"player": 2, "pose": {{"x": {mate_x}, "y": 0, "yaw": 3.14159}},
                    "ball": {{"x": {ball_x}, "y": 0}}, "ball_age": 0.5}}]}}"#
        ))
    }

    #[test]
    fn the_own_site_is_the_last_sent_pose_only_with_last_sent_and_while_fresh() {
        let mut ctx = with_params(
            &scene(10.0, -1.0, 2.0, 0.0),
            params(OwnPose::Current, StrikerBallSource::Retained, 0.0),
        );
        ctx.memory.last_sent_pose = Some((8.0, Pose2::new(-3.0, 0.0, 0.0)));
        assert_eq!(ctx.own_site_pose(), Some(Pose2::new(-1.0, 0.0, 0.0)));
        let mut ctx = with_params(
            &scene(10.0, -1.0, 2.0, 0.0),
            params(OwnPose::LastSent, StrikerBallSource::Retained, 0.0),
        );
        ctx.memory.last_sent_pose = Some((8.0, Pose2::new(-3.0, 0.0, 0.0)));
        assert_eq!(ctx.own_site_pose(), Some(Pose2::new(-3.0, 0.0, 0.0)));
        // Sent 6.5 s ago, beyond team.maximum_player_state_age (6 s): this frame's pose.
        ctx.memory.last_sent_pose = Some((3.5, Pose2::new(-3.0, 0.0, 0.0)));
        assert_eq!(ctx.own_site_pose(), Some(Pose2::new(-1.0, 0.0, 0.0)));
        ctx.memory.last_sent_pose = None;
        assert_eq!(ctx.own_site_pose(), Some(Pose2::new(-1.0, 0.0, 0.0)));
    }

    #[test]
    fn the_shared_ball_is_the_freshest_message_ball_within_the_team_ball_timeout() {
        let mut ctx = with_params(
            &scene(10.0, -1.0, 2.0, 1.0),
            params(OwnPose::LastSent, StrikerBallSource::Shared, 0.0),
        );
        // The teammate's ball was observed at 10.0 - 0.5 = 9.5.
        ctx.memory.last_sent_ball = Some((Point2::new(4.0, 0.0), 9.0));
        assert_eq!(ctx.shared_ball(), Some(Point2::new(1.0, 0.0)));
        ctx.memory.last_sent_ball = Some((Point2::new(4.0, 0.0), 9.75));
        assert_eq!(ctx.shared_ball(), Some(Point2::new(4.0, 0.0)));
        // Same observation time: the lower x, whoever holds it.
        ctx.memory.last_sent_ball = Some((Point2::new(-4.0, 0.0), 9.5));
        assert_eq!(ctx.shared_ball(), Some(Point2::new(-4.0, 0.0)));
        // At 16.0 the teammate's ball is 6.5 s old and the own one 6.5 s too: none.
        let mut later = with_params(
            &frame(r#"{"t": 16.0, "player_number": 3, "pose": {"x": 0, "y": 0, "yaw": 0}}"#),
            params(OwnPose::LastSent, StrikerBallSource::Shared, 0.0),
        );
        later.memory.last_sent_ball = Some((Point2::new(4.0, 0.0), 9.5));
        assert_eq!(later.shared_ball(), None);
    }

    #[test]
    fn the_shared_choice_uses_the_shared_ball_and_answers_false_alone() {
        // Own ball at x = -0.8 (robot 3 nearer), the teammate's at x = 1.5 (robot 2 nearer).
        let mut f = scene(10.0, -1.0, 2.0, 1.5);
        if let Some(b) = &mut f.ball {
            b.x = -0.8;
        }
        let mut retained = with_params(
            &f,
            params(OwnPose::Current, StrikerBallSource::Retained, 0.0),
        );
        assert!(retained.owns_ball_cell());
        let mut shared = with_params(&f, params(OwnPose::Current, StrikerBallSource::Shared, 0.0));
        assert!(
            !shared.owns_ball_cell(),
            "robot 2 owns the shared ball's cell"
        );
        // Alone (no teammate): the shared choice answers false, the retained one true.
        let alone = frame(
            r#"{"t": 1, "player_number": 3, "pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": 1, "y": 0}}"#,
        );
        let p = params(OwnPose::Current, StrikerBallSource::Shared, 0.0);
        assert!(!with_params(&alone, p).owns_ball_cell());
        let p = params(OwnPose::Current, StrikerBallSource::Retained, 0.0);
        assert!(with_params(&alone, p).owns_ball_cell());
        // Alone among the field players (2 and 4 penalized, 1 the keeper): the cell is ours.
        let last = frame(
            r#"{"t": 1, "player_number": 3, "pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": 1, "y": 0},
                "game": {"players": [1, 2, 3, 4], "penalized": [2, 4]}}"#,
        );
        let p = params(OwnPose::Current, StrikerBallSource::Shared, 0.0);
        assert!(with_params(&last, p).owns_ball_cell());
        // Another field player plays but is not heard yet: still not striker.
        let unheard = frame(
            r#"{"t": 1, "player_number": 3, "pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": 1, "y": 0},
                "game": {"players": [1, 2, 3, 4], "penalized": [2]}}"#,
        );
        let p = params(OwnPose::Current, StrikerBallSource::Shared, 0.0);
        assert!(!with_params(&unheard, p).owns_ball_cell());
    }

    #[test]
    fn with_a_margin_the_believed_striker_keeps_the_role_until_clearly_beaten() {
        let p = || params(OwnPose::Current, StrikerBallSource::Retained, 1.0);
        // Ball at 0.4: robot 3 at -1 (cost 1.4), robot 2 at 1.2 facing it (cost 0.8).
        let mut ctx = with_params(&scene(10.0, -1.0, 1.2, 0.4), p());
        ctx.memory.believed_striker = Some(3);
        assert!(
            ctx.owns_ball_cell(),
            "0.6 m cheaper is not more than the 1 m margin"
        );
        assert_eq!(ctx.memory.believed_striker, Some(3));
        // Ball at 0.9: costs 1.9 and 0.3, 1.6 m cheaper: the role moves to robot 2.
        let mut ctx = with_params(&scene(10.0, -1.0, 1.2, 0.9), p());
        ctx.memory.believed_striker = Some(3);
        assert!(!ctx.owns_ball_cell());
        assert_eq!(ctx.memory.believed_striker, Some(2));
        // Without a belief the plain owner is taken and remembered.
        let mut ctx = with_params(&scene(10.0, -1.0, 1.2, 0.4), p());
        assert!(!ctx.owns_ball_cell());
        assert_eq!(ctx.memory.believed_striker, Some(2));
        // Outside play the belief is dropped.
        let mut f = scene(10.0, -1.0, 1.2, 0.4);
        f.primary_state = crate::frame::PrimaryState::Set;
        let mut ctx = with_params(&f, p());
        ctx.memory.believed_striker = Some(3);
        assert!(!ctx.owns_ball_cell());
        assert_eq!(ctx.memory.believed_striker, None);
    }

    #[test]
    fn the_cost_to_the_ball_counts_a_ball_behind_as_the_partition_does() {
        let ctx = with_params(
            &frame("{}"),
            params(OwnPose::Current, StrikerBallSource::Retained, 0.0),
        );
        let ball = Point2::new(2.0, 0.0);
        // orientation_bias 0.5: facing the ball x1, ball behind x1.5.
        assert_eq!(ctx.cost_to_ball(Pose2::new(0.0, 0.0, 0.0), ball), 2.0);
        assert_eq!(
            ctx.cost_to_ball(Pose2::new(4.0, 0.0, 0.0), ball),
            3.0,
            "ball behind"
        );
    }

    /// Claim-mode parameters: shared inputs as the sample's simulation location, with
    /// `striker_claim` and `margin`.
    fn claim_params(margin: f64) -> Parameters {
        let mut p = params(OwnPose::Current, StrikerBallSource::Retained, margin);
        p.behavior_node.ball.closest_to_ball.striker_claim = true;
        p
    }

    /// Robot 3 at (-1, 0) facing +x, teammate 2 at (2, 0) facing the ball at (1.5, 0) (costs
    /// to the ball: 3 2.5 m, 2 0.5 m), at t = 10; teammate 2's message claims `claim`.
    fn claim_scene(claim: Option<bool>) -> crate::frame::Frame {
        let claim = claim.map_or(String::new(), |c| format!(r#", "striker": {c}"#));
        frame(&format!(
            r#"{{"t": 10.0, "player_number": 3, "pose": {{"x": -1, "y": 0, "yaw": 0}},
                "ball": {{"x": 1.5, "y": 0}},
                "teammate_messages": [{{"player": 2, "pose": {{"x": 2, "y": 0, "yaw": 3.141592653589793}},
                    "ball": {{"x": 1.5, "y": 0}}, "ball_age": 0.5{claim}}}]}}"#
        ))
    }

    fn with_sites(mut ctx: SoccerContext) -> SoccerContext {
        let mut sites = Vec::new();
        ctx.field_player_sites(&mut sites);
        ctx.memory.sites = sites;
        ctx
    }

    #[test]
    fn the_claimed_striker_is_the_freshest_claim_of_a_field_player() {
        // No claim anywhere.
        let ctx = with_sites(with_params(&claim_scene(None), claim_params(3.0)));
        assert_eq!(ctx.claimed_striker(), None);
        // The own last sent claim (at 9.0, within team.maximum_player_state_age 6 s).
        let mut ctx = with_sites(with_params(&claim_scene(Some(false)), claim_params(3.0)));
        ctx.memory.last_sent_claim = Some((9.0, true));
        assert_eq!(ctx.claimed_striker(), Some(3));
        // A message without the claim, or an own claim sent 7 s ago, names nobody.
        ctx.memory.last_sent_claim = Some((9.0, false));
        assert_eq!(ctx.claimed_striker(), None);
        ctx.memory.last_sent_claim = Some((3.0, true));
        assert_eq!(ctx.claimed_striker(), None);
        // Teammate 2's claim heard at 10.0 is fresher than the own one sent at 9.0 ...
        let mut ctx = with_sites(with_params(&claim_scene(Some(true)), claim_params(3.0)));
        ctx.memory.last_sent_claim = Some((9.0, true));
        assert_eq!(ctx.claimed_striker(), Some(2));
        // ... and one of the same time goes to the lower number.
        ctx.memory.last_sent_claim = Some((10.0, true));
        assert_eq!(ctx.claimed_striker(), Some(2));
        // The goalkeeper (player 1) is no field player: its claim counts for nothing.
        let mut p = claim_params(3.0);
        p.behavior_node.goalkeeper.player_number = 2;
        let ctx = with_sites(with_params(&claim_scene(Some(true)), p));
        assert_eq!(ctx.claimed_striker(), None);
    }

    #[test]
    fn the_claimant_stays_striker_unless_the_owner_is_cheaper_by_more_than_the_margin() {
        // Robot 3 claimed the role (its last message); robot 2 owns the ball's cell and is
        // 2.0 m cheaper: within a 3 m margin robot 3 stays striker ...
        let mut ctx = with_params(&claim_scene(Some(false)), claim_params(3.0));
        ctx.memory.last_sent_claim = Some((9.0, true));
        assert!(ctx.owns_ball_cell());
        assert_eq!(ctx.memory.believed_striker, Some(3));
        // ... beyond a 1.5 m margin robot 2 takes it.
        let mut ctx = with_params(&claim_scene(Some(false)), claim_params(1.5));
        ctx.memory.last_sent_claim = Some((9.0, true));
        assert!(!ctx.owns_ball_cell());
        assert_eq!(ctx.memory.believed_striker, Some(2));
        // Robot 2's fresher claim: robot 2, whatever robot 3 believed before.
        let mut ctx = with_params(&claim_scene(Some(true)), claim_params(3.0));
        ctx.memory.last_sent_claim = Some((9.0, true));
        ctx.memory.believed_striker = Some(3);
        assert!(!ctx.owns_ball_cell());
        assert_eq!(ctx.memory.believed_striker, Some(2));
        // No claim: the partition's owner (robot 2); a private belief in robot 3 is not used.
        let mut ctx = with_params(&claim_scene(Some(false)), claim_params(3.0));
        ctx.memory.believed_striker = Some(3);
        assert!(!ctx.owns_ball_cell());
        assert_eq!(ctx.memory.believed_striker, Some(2));
        // Without striker_claim the same private belief keeps robot 3 (the margin alone).
        let mut p = claim_params(3.0);
        p.behavior_node.ball.closest_to_ball.striker_claim = false;
        let mut ctx = with_params(&claim_scene(Some(true)), p);
        ctx.memory.believed_striker = Some(3);
        assert!(ctx.owns_ball_cell());
    }
}

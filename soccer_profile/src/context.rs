//! The profile's context: what every leaf sees (world, parameters) and writes (this tick's
//! choices), plus the memory kept between ticks.

use crate::motion::{Body, Head, TurnDirection};
use crate::params::Parameters;
use crate::path_planning::Walker;
use crate::voronoi::{Site, VoronoiGrid};
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

/// What is kept from tick to tick besides the world model.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    /// The body motion of the previous tick (for hysteresis: standing at a target, kicking).
    pub last_body: Option<Body>,
    /// The search's turning direction, chosen when the search starts.
    pub search_direction: Option<TurnDirection>,
    /// The partition grid (buffers reused).
    pub voronoi: VoronoiGrid,
    /// Sites of the last partition.
    pub sites: Vec<Site>,
    /// Whether `voronoi` holds this tick's partition (possibly stopped at the ball's cell).
    pub voronoi_fresh: bool,
    /// The path planner behind `walk_to`.
    pub walker: Walker,
    /// What Booster's brain keeps beside a Booster tree.
    pub booster: crate::booster::BrainState,
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

    /// The field players' sites: own pose and the poses of fresh teammates, without the
    /// goalkeeper.
    pub fn field_player_sites(&self, out: &mut Vec<Site>) {
        out.clear();
        let keeper = self.params.behavior_node.goalkeeper.player_number;
        if let Some(pose) = self.world.pose
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

    /// Computes the full partition of this tick once (leaves that need owned cells call it).
    pub fn ensure_voronoi(&mut self) {
        if self.memory.voronoi_fresh {
            // The ball query of this tick stopped early: finish its partition.
            self.memory.voronoi.finish();
            return;
        }
        self.partition(None);
    }

    /// Whether this robot owns the ball's cell of the field players' partition (the raw
    /// striker answer; false without pose or ball, and for the goalkeeper).
    pub fn owns_ball_cell(&mut self) -> bool {
        let (Some(_), Some(ball)) = (self.world.pose, self.world.ball) else {
            return false;
        };
        if self.world.player_number == self.params.behavior_node.goalkeeper.player_number {
            return false;
        }
        self.partition(Some(ball.position));
        self.memory.voronoi.owner_at(ball.position) == Some(self.world.player_number)
    }

    /// Partitions the grid among this tick's field players, stopping once the owner of
    /// `stop_at` is final (see [`VoronoiGrid::compute`]).
    fn partition(&mut self, stop_at: Option<Point2<Field>>) {
        let mut sites = std::mem::take(&mut self.memory.sites);
        self.field_player_sites(&mut sites);
        let field = &self.params.field;
        let v = &self.params.behavior_node.voronoi;
        let grid = &mut self.memory.voronoi;
        grid.resize(
            field.length,
            field.width,
            field.border_strip_width,
            v.grid_resolution,
        );
        grid.compute(&sites, &self.world.obstacles, v.orientation_bias, stop_at);
        self.memory.sites = sites;
        self.memory.voronoi_fresh = true;
    }
}

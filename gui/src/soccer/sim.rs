//! The in-process adapter: a seeded five-a-side [`SoccerMatch`] advanced by the viewer's
//! clock (play, pause, speed) or one 20 ms tick at a time, and [`fill_scene`], which copies
//! what the view draws into a [`SoccerScene`]. Only this file knows the simulation.

use super::blackboard::blackboard_rows;
use super::scene::{
    BallView, EventView, HeatmapView, MessageView, RobotView, SelectedView, SoccerScene, TeamSide,
    VoronoiCell, VoronoiView, classify,
};
use crate::model::FlatTree;
use decision_core::engine::{NodeId, TreeSpec};
use decision_node::soccer::trace::{SoccerTraceRecord, trace_payload};
use fake_publisher::soccer::{
    Player, Side, SoccerMatch, SoccerScenario, TICK, load_soccer_scenario, phase_name, point_for,
};
use geometry::{Field, Point2, Pose2};
use soccer_profile::brain::SoccerBrain;
use soccer_profile::motion::Body as Motion;
use soccer_profile::params::Parameters;
use std::path::PathBuf;
use std::sync::Arc;

/// At most this many simulated seconds per frame (a slow frame does not stall the UI).
const MAX_SECONDS_PER_FRAME: f64 = 5.0;

/// What `--soccer-sim` was asked to run, like `robot-decision soccer sim`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SoccerSimOptions {
    /// The parameters folder (default: the sample's, with its `simulation` location).
    pub params_dir: Option<PathBuf>,
    /// The scenario (default: a whole match of two teams of five).
    pub scenario: Option<PathBuf>,
    /// Seed (replaces the scenario's).
    pub seed: Option<u64>,
    /// A tree replacing the default.
    pub tree: Option<PathBuf>,
}

/// The sample soccer parameters folder.
pub fn sample_params() -> PathBuf {
    crate::sample_dir().join("soccer").join("parameters")
}

/// Loads the parameters, the scenario and the tree of `options`; every problem as one string.
pub fn load(
    options: &SoccerSimOptions,
) -> Result<(Arc<Parameters>, SoccerScenario, TreeSpec), String> {
    // The sample's `simulation` location unless a folder is given (as `soccer sim` does).
    let (dir, location) = match &options.params_dir {
        Some(dir) => (dir.clone(), None),
        None => (sample_params(), Some("simulation")),
    };
    let mut params = soccer_profile::params::load(&dir, location, None).map_err(|errors| {
        let mut text = format!(
            "{}: parameters not loaded ({} error(s))",
            dir.display(),
            errors.len()
        );
        for e in &errors {
            text.push('\n');
            text.push_str(&e.to_string());
        }
        text
    })?;
    let scenario = match &options.scenario {
        Some(path) => load_soccer_scenario(path)?,
        None => SoccerScenario::default(),
    };
    let tree = match &options.tree {
        Some(path) => soccer_profile::tree::load_tree_file(path),
        None => soccer_profile::tree::TreeFile::default_tree(),
    }
    .map_err(|diagnostics| {
        diagnostics
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    tree.apply_to(&mut params);
    Ok((Arc::new(params), scenario, tree.spec))
}

/// The match in process, with the viewer's clock.
pub struct SoccerSim {
    game: SoccerMatch,
    params: Arc<Parameters>,
    scenario: SoccerScenario,
    spec: TreeSpec,
    seed: Option<u64>,
    flat_tree: FlatTree,
    /// Whether the match advances with the wall clock.
    pub playing: bool,
    /// Simulated seconds per wall second.
    pub speed: f64,
    /// Simulated time not yet stepped (less than one tick).
    carry: f64,
}

impl SoccerSim {
    /// Loads `options` and starts the match paused at time 0.
    pub fn open(options: &SoccerSimOptions) -> Result<Self, String> {
        let (params, scenario, spec) = load(options)?;
        Self::new(params, scenario, spec, options.seed)
    }

    /// A match of `scenario` with `params` and the tree `spec`.
    pub fn new(
        params: Arc<Parameters>,
        scenario: SoccerScenario,
        spec: TreeSpec,
        seed: Option<u64>,
    ) -> Result<Self, String> {
        let mut game = SoccerMatch::new(scenario.clone(), Arc::clone(&params), &spec, seed)?;
        // The blackboard panel reads the records a node would publish: the frame is one.
        game.keep_frames(true);
        let flat_tree = FlatTree::new(&spec);
        Ok(Self {
            game,
            params,
            scenario,
            spec,
            seed,
            flat_tree,
            playing: false,
            speed: 1.0,
            carry: 0.0,
        })
    }

    /// The match (read only).
    pub fn game(&self) -> &SoccerMatch {
        &self.game
    }

    /// Simulated seconds so far.
    pub fn time(&self) -> f64 {
        self.game.now
    }

    /// Whether the match is over.
    pub fn finished(&self) -> bool {
        self.game.is_over()
    }

    /// A scene of the match as it stands, with our first field player selected.
    pub fn scene(&self) -> SoccerScene {
        let keeper = self.params.behavior_node.goalkeeper.player_number;
        let mut scene = SoccerScene {
            selected: self
                .game
                .players
                .iter()
                .find(|p| p.brain().is_some() && p.number != keeper)
                .or(self.game.players.first())
                .map(|p| (team_of(p.side), p.number)),
            ..SoccerScene::default()
        };
        fill_scene(&self.game, &self.flat_tree, &mut scene);
        scene
    }

    /// Steps one 20 ms tick (unless the match is over); returns whether it stepped.
    pub fn step_tick(&mut self, scene: &mut SoccerScene) -> bool {
        if self.game.is_over() {
            return false;
        }
        self.tick(scene);
        fill_scene(&self.game, &self.flat_tree, scene);
        true
    }

    fn tick(&mut self, scene: &mut SoccerScene) {
        for h in self.game.step() {
            scene.push_event(EventView {
                t: h.t,
                kind: classify(&h.text),
                text: h.text,
            });
        }
        let now = self.game.now;
        for p in &self.game.players {
            scene.roles.record((team_of(p.side), p.number), now, p.role);
        }
        for (side, m) in self.game.delivered() {
            let side = *side;
            scene.push_message(MessageView {
                t: now,
                team: team_of(side),
                from: m.player,
                pose: m
                    .pose
                    .map(|p| world_point(side, Point2::new(p.x, p.y)).to_array()),
                ball: m
                    .ball
                    .map(|b| world_point(side, Point2::new(b.x, b.y)).to_array()),
            });
        }
    }

    /// Runs (paused) until simulated time `t` or the end of the match.
    pub fn run_until(&mut self, t: f64, scene: &mut SoccerScene) {
        while self.game.now + TICK * 0.5 < t && !self.game.is_over() {
            self.tick(scene);
        }
        fill_scene(&self.game, &self.flat_tree, scene);
    }

    /// Advances by `wall_seconds * speed` simulated seconds when playing.
    pub fn advance(&mut self, wall_seconds: f64, scene: &mut SoccerScene) {
        if !self.playing {
            return;
        }
        if self.game.is_over() {
            self.playing = false;
            return;
        }
        let budget = (wall_seconds * self.speed).clamp(0.0, MAX_SECONDS_PER_FRAME) + self.carry;
        let ticks = (budget / TICK).floor();
        self.carry = budget - ticks * TICK;
        let mut any = false;
        for _ in 0..ticks as u64 {
            if self.game.is_over() {
                break;
            }
            self.tick(scene);
            any = true;
        }
        if any {
            fill_scene(&self.game, &self.flat_tree, scene);
        }
        if self.game.is_over() {
            self.playing = false;
        }
    }

    /// Starts the match again from time 0 (same parameters, scenario, tree and seed).
    pub fn restart(&mut self, scene: &mut SoccerScene) -> Result<(), String> {
        let fresh = Self::new(
            Arc::clone(&self.params),
            self.scenario.clone(),
            self.spec.clone(),
            self.seed,
        )?;
        let (playing, speed) = (self.playing, self.speed);
        let selected = scene.selected;
        *self = fresh;
        self.playing = playing;
        self.speed = speed;
        *scene = self.scene();
        if selected.is_some() {
            scene.selected = selected;
            fill_scene(&self.game, &self.flat_tree, scene);
        }
        Ok(())
    }

    /// Re-reads the selected robot's details (after the selection changed).
    pub fn refresh(&self, scene: &mut SoccerScene) {
        fill_scene(&self.game, &self.flat_tree, scene);
    }
}

/// The scene's team of a simulation side.
pub fn team_of(side: Side) -> TeamSide {
    match side {
        Side::Home => TeamSide::Home,
        Side::Away => TeamSide::Away,
    }
}

/// A point of `side`'s team frame in the world frame.
fn world_point(side: Side, p: Point2<Field>) -> Point2<Field> {
    point_for(side, p)
}

/// Copies the match into `scene`: time, score, ball, every robot, and the selected robot's
/// tree, world, heatmap and partition (timeline and messages are appended by the ticks).
pub fn fill_scene(game: &SoccerMatch, flat_tree: &FlatTree, scene: &mut SoccerScene) {
    scene.field = game.params().field.clone();
    scene.time = game.now;
    scene.phase = phase_name(game.referee.phase).to_owned();
    scene.team_names = [
        game.team_name(Side::Home).to_owned(),
        game.team_name(Side::Away).to_owned(),
    ];
    scene.score = [
        game.referee.goals(Side::Home),
        game.referee.goals(Side::Away),
    ];
    scene.over = game.is_over();
    scene.ball_known = true;
    scene.ball = BallView {
        x: game.ball.position.x,
        y: game.ball.position.y,
        vx: game.ball.velocity.x,
        vy: game.ball.velocity.y,
    };
    scene.robots.clear();
    scene
        .robots
        .extend(game.players.iter().map(|p| robot_view(p, game.now)));
    scene.detail = scene
        .selected
        .and_then(|(team, number)| {
            game.players
                .iter()
                .find(|p| team_of(p.side) == team && p.number == number)
        })
        .map(|p| selected_view(p, flat_tree));
}

fn robot_view(p: &Player, now: f64) -> RobotView {
    let side = p.side;
    let (target, kick_target) = match &p.motion.body {
        Motion::WalkTo { target, .. } => (Some(target.position), None),
        Motion::Kick { target, .. } => (None, Some(*target)),
        _ => (None, None),
    };
    let ctx = p.brain().map(|b| b.decider().context());
    let path_next = match (&p.motion.body, ctx) {
        (Motion::WalkTo { .. }, Some(ctx)) => ctx.out.path_next,
        _ => None,
    };
    let perceived_ball = ctx.and_then(|c| c.world.ball).map(|b| b.position);
    let world = |q: Point2<Field>| world_point(side, q).to_array();
    RobotView {
        team: team_of(side),
        number: p.number,
        x: p.body.pose.position.x,
        y: p.body.pose.position.y,
        yaw: p.body.pose.yaw,
        head_yaw: p.body.head_yaw,
        role: p.role.map(str::to_owned),
        branch: p.branch.clone(),
        motion: p.motion.body.kind().to_owned(),
        fallen: p.body.is_down(),
        penalized: p.penalized_until.is_some_and(|until| until > now),
        pose_lost: false,
        decides: p.brain().is_some(),
        target: target.or(kick_target).map(world),
        path_next: path_next.map(world),
        perceived_ball: perceived_ball.map(world),
    }
}

fn selected_view(p: &Player, flat_tree: &FlatTree) -> SelectedView {
    let Some(brain) = p.brain() else {
        return SelectedView {
            blackboard: vec![
                (
                    "robot".into(),
                    format!("{} {}", team_of(p.side).name(), p.number),
                ),
                ("brain".into(), "scripted opponent (no tree)".into()),
                ("motion".into(), p.motion.body.kind().to_owned()),
            ],
            ..SelectedView::default()
        };
    };
    let decider = brain.decider();
    let tree = decider.tree();
    let ctx = decider.context();
    let count = tree.node_count();
    let (statuses, why_not) = if count == flat_tree.len() {
        let trace = tree.trace();
        let now = ctx.world.now;
        let statuses: Vec<_> = (0..count)
            .map(|i| trace.status_of(NodeId(i as u32)))
            .collect();
        let why_not = (0..count)
            .map(|i| {
                let leaf = flat_tree.nodes.get(i).is_some_and(|n| n.end == i + 1);
                let failed = statuses.get(i).copied().flatten()
                    == Some(decision_core::engine::Status::Failure);
                (leaf && failed)
                    .then(|| tree.explain(NodeId(i as u32), ctx, now))
                    .flatten()
            })
            .collect();
        (statuses, why_not)
    } else {
        (Vec::new(), Vec::new())
    };
    SelectedView {
        tree: flat_tree.clone(),
        statuses,
        why_not,
        blackboard: sim_blackboard_rows(p, brain, now_tick(ctx.world.now)),
        heatmap: Some(heatmap_view(p.side, brain)),
        voronoi: voronoi_view(p.side, brain),
    }
}

fn heatmap_view(side: Side, brain: &SoccerBrain) -> HeatmapView {
    let map = brain.suggestor().map();
    let mut values = map.values.clone();
    // The away team's frame is the world turned by pi: cell i is world cell n - 1 - i.
    if side == Side::Away {
        values.reverse();
    }
    HeatmapView {
        cells_x: map.cells_x,
        cells_y: map.cells_y,
        values,
        target: brain
            .suggestor()
            .target()
            .map(|t| world_point(side, t).to_array()),
    }
}

fn voronoi_view(side: Side, brain: &SoccerBrain) -> Option<VoronoiView> {
    let ctx = brain.decider().context();
    let grid = ctx.memory.last_partition();
    if grid.is_empty() || ctx.memory.sites.is_empty() {
        return None;
    }
    // The ball query may have stopped at the ball's cell: finish a copy for the picture.
    let finished;
    let grid = if grid.is_complete() {
        grid
    } else {
        let mut copy = grid.clone();
        copy.finish();
        finished = copy;
        &finished
    };
    let cells = (0..grid.len())
        .filter_map(|c| {
            let site = grid.owner(c)?;
            let player = ctx.memory.sites.get(usize::from(site))?.player;
            let centre = world_point(side, grid.center(c));
            Some(VoronoiCell {
                x: centre.x,
                y: centre.y,
                player,
            })
        })
        .collect();
    Some(VoronoiView {
        team: Some(team_of(side)),
        resolution: ctx.params.behavior_node.voronoi.grid_resolution,
        cells,
    })
}

fn fmt_pose(p: Option<Pose2<Field>>) -> String {
    p.map_or("-".into(), |p| {
        format!(
            "({:.2}, {:.2}) {:.0} deg",
            p.position.x,
            p.position.y,
            p.yaw.to_degrees()
        )
    })
}

/// The step of the match at `now` (the tick index its robots' traces would carry).
fn now_tick(now: f64) -> u64 {
    let steps = (now / TICK).round();
    if steps.is_finite() && steps >= 1.0 {
        steps as u64 - 1
    } else {
        0
    }
}

/// The selected robot's blackboard panel: the rows of the records its node would publish (the
/// frame it decided on and its trace, as live and recordings show them), then what only the
/// simulation knows (its true pose) or its world model keeps (whether it is striker).
fn sim_blackboard_rows(p: &Player, brain: &SoccerBrain, tick: u64) -> Vec<(String, String)> {
    let trace = p.decision.as_ref().and_then(|decision| {
        let payload = trace_payload(brain, p.number, tick, decision);
        decision_core::strict_serde::from_slice::<SoccerTraceRecord>(&payload).ok()
    });
    let mut rows = blackboard_rows(p.recorded_frame.as_ref(), trace.as_ref());
    let w = &brain.decider().context().world;
    rows.push((
        "striker".into(),
        format!(
            "{} (owns ball cell: {})",
            if w.is_striker { "yes" } else { "no" },
            if w.owns_ball_cell { "yes" } else { "no" }
        ),
    ));
    rows.push(("true pose (world)".into(), fmt_pose(Some(p.body.pose))));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim() -> SoccerSim {
        match SoccerSim::open(&SoccerSimOptions::default()) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn the_sample_match_fills_ten_robots_and_the_field() {
        let sim = sim();
        let scene = sim.scene();
        assert_eq!(scene.robots.len(), 10);
        assert_eq!(scene.field.length, sim.game().params().field.length);
        assert_eq!(scene.selected, Some((TeamSide::Home, 2)));
        assert_eq!(scene.score, [0, 0]);
        assert_eq!(scene.time, 0.0);
        let home = scene.robots.iter().filter(|r| r.team == TeamSide::Home);
        assert_eq!(home.count(), 5);
    }

    #[test]
    fn stepping_advances_time_and_fills_the_selected_robots_detail() {
        let mut sim = sim();
        let mut scene = sim.scene();
        assert!(sim.step_tick(&mut scene));
        assert!((scene.time - TICK).abs() < 1e-9);
        let detail = scene.detail.as_ref().expect("detail of the selected robot");
        assert_eq!(detail.statuses.len(), detail.tree.len());
        assert!(detail.statuses.first().copied().flatten().is_some());
        assert!(detail.blackboard.iter().any(|(k, _)| k == "role"));
        let heat = detail.heatmap.as_ref().expect("a heatmap");
        assert_eq!(heat.values.len(), heat.cells_x * heat.cells_y);
        // Robots walk on the field during ready.
        let start: Vec<(f64, f64)> = scene.robots.iter().map(|r| (r.x, r.y)).collect();
        sim.run_until(5.0, &mut scene);
        assert!((scene.time - 5.0).abs() < TICK);
        let moved = scene
            .robots
            .iter()
            .zip(&start)
            .any(|(r, (x, y))| (r.x - x).hypot(r.y - y) > 0.1);
        assert!(moved, "nobody moved in 5 s");
        assert!(scene.events.iter().any(|e| e.text.starts_with("game ")));
    }

    #[test]
    fn the_away_heatmap_is_turned_into_the_world_frame() {
        let mut sim = sim();
        let mut scene = sim.scene();
        scene.selected = Some((TeamSide::Away, 3));
        sim.run_until(1.0, &mut scene);
        let away = scene
            .detail
            .clone()
            .and_then(|d| d.heatmap)
            .expect("heatmap");
        let brain = sim
            .game()
            .players
            .iter()
            .find(|p| p.side == Side::Away && p.number == 3)
            .and_then(|p| p.brain())
            .expect("away 3 decides");
        let map = brain.suggestor().map();
        let n = map.values.len();
        assert_eq!(away.values.first(), map.values.get(n - 1));
        assert_eq!(away.values.last(), map.values.first());
    }

    #[test]
    fn a_match_plays_to_kicks_and_messages_within_a_minute() {
        let mut sim = sim();
        let mut scene = sim.scene();
        sim.run_until(60.0, &mut scene);
        assert!(!scene.messages.is_empty(), "no team message arrived");
        assert!(
            scene
                .events
                .iter()
                .any(|e| e.kind == super::super::scene::EventKind::Kick),
            "no kick in a minute: {:?}",
            scene.events
        );
        let detail = scene.detail.as_ref().expect("detail");
        assert!(detail.voronoi.as_ref().is_some_and(|v| !v.cells.is_empty()));
    }

    #[test]
    fn every_sample_scenario_opens_with_an_explicit_folder_and_seed() {
        let dir = crate::sample_dir().join("soccer").join("scenarios");
        let mut opened = 0;
        for entry in std::fs::read_dir(&dir).expect("sample scenarios").flatten() {
            let options = SoccerSimOptions {
                params_dir: Some(sample_params()),
                scenario: Some(entry.path()),
                seed: Some(7),
                tree: None,
            };
            let mut sim = SoccerSim::open(&options)
                .unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
            let mut scene = sim.scene();
            assert!(sim.step_tick(&mut scene));
            assert!(!scene.robots.is_empty());
            opened += 1;
        }
        assert!(opened >= 5, "{opened} scenarios");
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        let missing = SoccerSimOptions {
            params_dir: Some("/nonexistent/params".into()),
            ..SoccerSimOptions::default()
        };
        assert!(SoccerSim::open(&missing).is_err());
        let bad_tree = SoccerSimOptions {
            tree: Some("/nonexistent/tree.json5".into()),
            ..SoccerSimOptions::default()
        };
        assert!(SoccerSim::open(&bad_tree).is_err());
        let bad_scenario = SoccerSimOptions {
            scenario: Some("/nonexistent/scenario.json5".into()),
            ..SoccerSimOptions::default()
        };
        assert!(SoccerSim::open(&bad_scenario).is_err());
    }
}

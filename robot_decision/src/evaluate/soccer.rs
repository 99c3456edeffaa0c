//! `robot-decision soccer evaluate`: seeded five-a-side matches of the in-process simulator.
//! The home team plays the config under test (A, or B on the same matches); the away team
//! always plays config A, so B is measured against the same opponent as A.

use super::report::PerConfig;
use super::{Common, Lane, MatchResult, Metric, Setup, extend, finish, json5_files};
use decision_core::engine::{Status, TreeSpec};
use fake_publisher::soccer::{Side, SoccerMatch, SoccerScenario, TeamBrains};
use soccer_profile::params::Parameters;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The soccer metrics, in output order.
pub const METRICS: [Metric; 8] = [
    Metric::higher("goals_for", "goals"),
    Metric::lower("goals_against", "goals"),
    Metric::lower("role_changes_per_robot_min", "1/min"),
    Metric::higher("one_striker_share", "share"),
    Metric::lower("lost_balls", "balls"),
    Metric::lower("time_to_find_ball", "s"),
    Metric::lower("falls", "falls"),
    Metric::lower("messages_sent", "messages"),
];

/// The roles of the strips, in legend order.
const ROLES: [&str; 5] = [
    "striker",
    "supporter",
    "searcher",
    "goalkeeper",
    "penalty_shootout",
];

/// What `soccer evaluate` was asked to do (its command-line flags).
#[derive(Debug, Clone, clap::Args)]
pub struct SoccerEvaluateArgs {
    /// Config A's parameters folder (base/, location/NAME/, robot/NAME/).
    pub params_dir: PathBuf,
    /// Config A's location override folder name.
    #[arg(long)]
    pub location: Option<String>,
    /// Robot override folder name (both configs).
    #[arg(long)]
    pub robot: Option<String>,
    /// Config A's tree (.json5 or BT.CPP .xml; default: the built-in tree).
    #[arg(long)]
    pub tree: Option<PathBuf>,
    /// Config B's parameters folder (default: A's).
    #[arg(long, value_name = "PARAMS_DIR_B")]
    pub against: Option<PathBuf>,
    /// Config B's location override (default: A's).
    #[arg(long, value_name = "NAME")]
    pub against_location: Option<String>,
    /// Config B's tree (default: A's).
    #[arg(long, value_name = "FILE_B")]
    pub against_tree: Option<PathBuf>,
    /// A scenario (repeatable; match i plays them in turn; default: every soccer scenario
    /// of the sample).
    #[arg(long = "scenario", value_name = "FILE")]
    pub scenarios: Vec<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

/// One team's parameters and tree.
struct Config {
    params: Arc<Parameters>,
    spec: TreeSpec,
}

/// Loads one config, printing its diagnostics (as `soccer check` does) on failure; its tree
/// is compiled once here so that a bad tree stops the run before any match.
fn load_config(
    dir: &Path,
    location: Option<&str>,
    robot: Option<&str>,
    tree: Option<&Path>,
) -> Option<Config> {
    let (params, spec, _) = crate::soccer::load_setup(dir, location, robot, tree)?;
    Some(Config { params, spec })
}

/// Runs `soccer evaluate`; `sample` is the repository's sample folder.
pub fn run(args: &SoccerEvaluateArgs, sample: &Path) -> ExitCode {
    if let Err(e) = args.common.check() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let Some(a) = load_config(
        &args.params_dir,
        args.location.as_deref(),
        args.robot.as_deref(),
        args.tree.as_deref(),
    ) else {
        return ExitCode::from(1);
    };
    let compared =
        args.against.is_some() || args.against_location.is_some() || args.against_tree.is_some();
    let b = if compared {
        let Some(b) = load_config(
            args.against.as_deref().unwrap_or(&args.params_dir),
            args.against_location
                .as_deref()
                .or(args.location.as_deref()),
            args.robot.as_deref(),
            args.against_tree.as_deref().or(args.tree.as_deref()),
        ) else {
            return ExitCode::from(1);
        };
        if b.params.field != a.params.field {
            eprintln!(
                "error: config B plays on another field than config A: compare configs of one field"
            );
            return ExitCode::from(1);
        }
        Some(b)
    } else {
        None
    };
    let scenario_paths = if args.scenarios.is_empty() {
        json5_files(&sample.join("soccer/scenarios"))
    } else {
        args.scenarios.clone()
    };
    let mut scenarios = Vec::with_capacity(scenario_paths.len().max(1));
    for path in &scenario_paths {
        match fake_publisher::soccer::load_soccer_scenario(path) {
            Ok(s) => scenarios.push(s),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(1);
            }
        }
    }
    if scenarios.is_empty() {
        scenarios.push(SoccerScenario::default());
    }
    let subjects = |c: &Config| -> Vec<(i32, String)> {
        let mut names = Vec::new();
        labels(&c.spec, &mut names);
        (0i32..).zip(names).collect()
    };
    let common = &args.common;
    let setup = Setup {
        profile: "soccer",
        metrics: &METRICS,
        subjects: PerConfig {
            a: subjects(&a),
            b: b.as_ref().map(subjects),
        },
        legend: ROLES.iter().map(|r| (*r).to_owned()).collect(),
        play: Box::new(|i, side| {
            let home = if side == 0 {
                &a
            } else {
                b.as_ref().unwrap_or(&a)
            };
            let scenario = scenarios[i % scenarios.len()].clone();
            let seed = common.seed.wrapping_add(i as u64);
            play(home, &a, scenario, seed, common.seconds)
        }),
    };
    let describe = |dir: &Path, location: Option<&str>, tree: Option<&Path>| {
        let mut text = dir.display().to_string();
        if let Some(l) = location {
            text.push_str(&format!(" --location {l}"));
        }
        if let Some(t) = tree {
            text.push_str(&format!(" --tree {}", t.display()));
        }
        text
    };
    let mut configs = vec![describe(
        &args.params_dir,
        args.location.as_deref(),
        args.tree.as_deref(),
    )];
    if compared {
        configs.push(describe(
            args.against.as_deref().unwrap_or(&args.params_dir),
            args.against_location
                .as_deref()
                .or(args.location.as_deref()),
            args.against_tree.as_deref().or(args.tree.as_deref()),
        ));
    }
    finish(common, setup, configs)
}

fn team(config: &Config) -> TeamBrains<'_> {
    TeamBrains {
        params: Arc::clone(&config.params),
        spec: &config.spec,
    }
}

/// Every node's label (its name, else its kind), in preorder: the coverage subjects.
fn labels(spec: &TreeSpec, out: &mut Vec<String>) {
    out.push(spec.label().to_owned());
    for child in &spec.children {
        labels(child, out);
    }
}

/// Plays one match: `home` is the config under test, `away` the fixed opponent.
fn play(
    home: &Config,
    away: &Config,
    mut scenario: SoccerScenario,
    seed: u64,
    seconds: Option<f64>,
) -> Result<MatchResult, String> {
    if seconds.is_some() {
        scenario.seconds = seconds;
    }
    let mut game = SoccerMatch::with_teams(scenario, [team(home), team(away)], Some(seed))?;
    let ours: Vec<usize> = (0..game.players.len())
        .filter(|&i| game.players[i].side == Side::Home && game.players[i].brain().is_some())
        .collect();
    let nodes = home.spec.node_count();
    let mut ticks_in_effect = vec![0u64; nodes];
    let mut lanes: Vec<Lane> = ours
        .iter()
        .map(|&i| Lane {
            label: format!(" #{}", game.players[i].number),
            segments: Vec::new(),
        })
        .collect();
    let mut was_down: Vec<bool> = vec![false; ours.len()];
    let (mut robot_ticks, mut falls) = (0u64, 0u64);
    while !game.is_over() {
        game.step();
        let now = game.now;
        for (k, &i) in ours.iter().enumerate() {
            let player = &game.players[i];
            let down = player.body.fallen_since.is_some();
            falls += u64::from(down && !was_down[k]);
            was_down[k] = down;
            let role = player.role.and_then(|r| ROLES.iter().position(|x| *x == r));
            extend(&mut lanes[k].segments, role, now);
            if let Some(brain) = player.brain() {
                robot_ticks += 1;
                let tree = brain.decider().tree();
                for entry in tree.trace().entries() {
                    let in_effect = matches!(entry.status, Status::Success | Status::Running);
                    if in_effect && let Some(n) = ticks_in_effect.get_mut(entry.node.index()) {
                        *n += 1;
                    }
                }
            }
        }
    }
    for lane in &mut lanes {
        if let Some(last) = lane.segments.last_mut() {
            last.to = game.now;
        }
    }
    // The same figures `soccer sim` prints, for our (home) team.
    let play = game.play_figures().home;
    let (sent, _lost) = game.message_counts();
    let values = vec![
        f64::from(game.referee.score[0]),
        f64::from(game.referee.score[1]),
        play.role_changes_per_robot_minute,
        play.one_striker_share,
        play.lost_balls as f64,
        // A match without a lost ball has no time to find one (left out, not 0 s).
        play.mean_time_to_find_ball.unwrap_or(f64::NAN),
        falls as f64,
        sent[0] as f64,
    ];
    Ok(MatchResult {
        values,
        ticks_in_effect,
        ticks: robot_ticks,
        lanes,
    })
}

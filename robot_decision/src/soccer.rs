//! `robot-decision soccer ...`: the soccer profile's offline commands.

use crate::lines::{NumberedLines, line_text};
use decision_core::engine::TreeSpec;
use decision_node::runtime::record::RunFacts;
use decision_node::soccer::match_recording::MatchRecording;
use soccer_profile::decider::SoccerDecider;
use soccer_profile::frame::{Frame, FrameError};
use soccer_profile::params;
use soccer_profile::search::{HeatmapFrame, SearchSuggestor};
use soccer_profile::tree::TreeFile;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `soccer decide`.
#[derive(Debug, Clone)]
pub struct DecideArgs {
    /// Folder of `base/`, `location/NAME/` and `robot/NAME/` parameter files.
    pub params_dir: PathBuf,
    /// Location override.
    pub location: Option<String>,
    /// Robot override.
    pub robot: Option<String>,
    /// A tree replacing the default.
    pub tree: Option<PathBuf>,
    /// The frames (`-` = stdin).
    pub input: PathBuf,
    /// Add the why-not of each failed branch.
    pub explain: bool,
}

/// Loads a parameters folder, printing every diagnostic on failure.
pub(crate) fn load_params(
    dir: &Path,
    location: Option<&str>,
    robot: Option<&str>,
) -> Option<params::Parameters> {
    match params::load(dir, location, robot) {
        Ok(p) => Some(p),
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            eprintln!(
                "{}: parameters not loaded ({} error(s))",
                dir.display(),
                errors.len()
            );
            None
        }
    }
}

/// Loads parameters and tree, printing diagnostics on failure.
pub fn load_decider(
    params_dir: &Path,
    location: Option<&str>,
    robot: Option<&str>,
    tree: Option<&Path>,
) -> Option<SoccerDecider> {
    load_setup(params_dir, location, robot, tree).map(|(_, _, decider)| decider)
}

/// One soccer configuration: its parameters with the tree file's brain choice applied, its
/// tree, and the tree compiled (diagnostics printed on failure).
pub(crate) fn load_setup(
    params_dir: &Path,
    location: Option<&str>,
    robot: Option<&str>,
    tree: Option<&Path>,
) -> Option<(Arc<params::Parameters>, TreeSpec, SoccerDecider)> {
    let mut parameters = load_params(params_dir, location, robot)?;
    let tree_file = load_soccer_tree(tree)?;
    tree_file.apply_to(&mut parameters);
    let parameters = Arc::new(parameters);
    let decider = compile_or_report(&tree_file.spec, Arc::clone(&parameters), tree)?;
    Some((parameters, tree_file.spec, decider))
}

/// The tree of `tree` (default: the built-in one) and the brain its file chooses, printing
/// its diagnostics on failure.
pub(crate) fn load_soccer_tree(tree: Option<&Path>) -> Option<TreeFile> {
    let spec = match tree {
        Some(path) => soccer_profile::tree::load_tree_file(path),
        None => TreeFile::default_tree(),
    };
    match spec {
        Ok(s) => Some(s),
        Err(diagnostics) => {
            for d in &diagnostics {
                eprintln!("{d}");
            }
            None
        }
    }
}

/// Compiles `spec` (from the file `tree`, or the built-in tree) into a decider, printing each
/// compile error with its place on failure.
pub(crate) fn compile_or_report(
    spec: &TreeSpec,
    parameters: Arc<params::Parameters>,
    tree: Option<&Path>,
) -> Option<SoccerDecider> {
    match SoccerDecider::new(spec, parameters) {
        Ok(d) => Some(d),
        Err(errors) => {
            // Each error names its node too (a Booster tree's ports belong to a node kind).
            let file = tree.unwrap_or(Path::new(soccer_profile::tree::DEFAULT_TREE_NAME));
            for e in &errors {
                match &e.span {
                    Some(s) => eprintln!(
                        "{}:{}:{}: error: {}: {}",
                        s.file, s.line, s.column, e.node_path, e.message
                    ),
                    None => eprintln!(
                        "{}:1:1: error: {}: {}",
                        file.display(),
                        e.node_path,
                        e.message
                    ),
                }
            }
            None
        }
    }
}

/// What became of one good input line.
enum Answer {
    /// The result was written.
    Written,
    /// The line was refused for this reason (already reported); `{"skipped": reason}`.
    Refused(&'static str),
}

/// The JSON Lines loop every offline soccer command shares: read `input` line by line,
/// parse each with `parse` (time must not go back), let `answer` write its result, answer a
/// malformed line `{"skipped":"malformed_input"}` with `FILE:LINE:COL: error:` on stderr, and
/// exit 1 at the end when any line was skipped.
fn run_lines<T>(
    input: &Path,
    parse: fn(&str) -> Result<T, FrameError>,
    time_of: fn(&T) -> f64,
    mut answer: impl FnMut(T, usize, &mut dyn Write) -> std::io::Result<Answer>,
) -> ExitCode {
    let reader = match crate::open_input(input) {
        Ok(r) => r,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut stdout = std::io::BufWriter::new(stdout.lock());
    let mut skipped = 0usize;
    let mut last_t = f64::NEG_INFINITY;
    for (number, line) in NumberedLines::new(BufReader::new(reader)) {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{}:{number}: cannot read: {e}", input.display());
                return ExitCode::from(1);
            }
        };
        let parsed = line_text(&line)
            .map_err(|fault| FrameError {
                column: fault.column,
                field: ".".into(),
                message: fault.message,
            })
            .and_then(parse);
        let parsed = parsed.and_then(|item| {
            let t = time_of(&item);
            if t < last_t {
                Err(FrameError {
                    column: 0,
                    field: "t".into(),
                    message: format!("time goes back ({t} after {last_t})"),
                })
            } else {
                Ok((item, t))
            }
        });
        let written = match parsed {
            Ok((item, t)) => match answer(item, number, &mut stdout) {
                Ok(Answer::Written) => {
                    last_t = t;
                    Ok(())
                }
                Ok(Answer::Refused(reason)) => {
                    skipped += 1;
                    write!(stdout, r#"{{"skipped":"{reason}"}}"#)
                }
                Err(e) => Err(e),
            },
            Err(e) => {
                skipped += 1;
                eprintln!(
                    "{}:{number}:{}: error: `{}`: {}",
                    input.display(),
                    e.column.max(1),
                    e.field,
                    e.message
                );
                stdout.write_all(br#"{"skipped":"malformed_input"}"#)
            }
        };
        if written.and_then(|()| stdout.write_all(b"\n")).is_err() {
            return ExitCode::SUCCESS; // the reader went away (`| head`)
        }
    }
    if stdout.flush().is_err() {
        return ExitCode::SUCCESS;
    }
    if skipped > 0 {
        eprintln!("{}: {skipped} line(s) skipped", input.display());
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Arguments of `soccer heatmap`.
#[derive(Debug, Clone)]
pub struct HeatmapArgs {
    /// Folder of `base/`, `location/NAME/` and `robot/NAME/` parameter files.
    pub params_dir: PathBuf,
    /// Location override.
    pub location: Option<String>,
    /// Robot override.
    pub robot: Option<String>,
    /// The frames (`-` = stdin).
    pub input: PathBuf,
}

/// Runs the frames of `args.input` through the search suggestor.
pub fn heatmap(args: &HeatmapArgs) -> ExitCode {
    let Some(parameters) = load_params(
        &args.params_dir,
        args.location.as_deref(),
        args.robot.as_deref(),
    ) else {
        return ExitCode::from(1);
    };
    let mut suggestor = SearchSuggestor::new(parameters.search_suggestor, parameters.field);
    let input = args.input.display().to_string();
    run_lines(
        &args.input,
        HeatmapFrame::parse,
        |f| f.t,
        |frame, number, out| match suggestor.update(&frame) {
            Ok(()) => {
                serde_json::to_writer(&mut *out, &suggestor.output(frame.t))
                    .map_err(std::io::Error::other)?;
                Ok(Answer::Written)
            }
            Err(e) => {
                eprintln!("{input}:{number}:1: error: {e}");
                Ok(Answer::Refused("invalid_parameters"))
            }
        },
    )
}

/// Runs the frames of `args.input` through the soccer behaviour.
pub fn decide(args: &DecideArgs) -> ExitCode {
    let Some(mut decider) = load_decider(
        &args.params_dir,
        args.location.as_deref(),
        args.robot.as_deref(),
        args.tree.as_deref(),
    ) else {
        return ExitCode::from(1);
    };
    decider.set_explain(args.explain);
    run_lines(
        &args.input,
        Frame::parse,
        |f| f.t,
        |frame, _, out| {
            serde_json::to_writer(&mut *out, &decider.decide(&frame))
                .map_err(std::io::Error::other)?;
            Ok(Answer::Written)
        },
    )
}

/// Arguments of `soccer sim`.
#[derive(Debug, Clone)]
pub struct SimArgs {
    /// The parameters folder (default: the sample).
    pub params_dir: Option<PathBuf>,
    /// The scenario (default: a whole match of the sample teams).
    pub scenario: Option<PathBuf>,
    /// Stop after this many simulated seconds.
    pub seconds: Option<f64>,
    /// Seed (replaces the scenario's).
    pub seed: Option<u64>,
    /// One JSON line per robot per tick.
    pub json: bool,
    /// A tree replacing the default.
    pub tree: Option<PathBuf>,
    /// Location override (default with the sample folder: `simulation`).
    pub location: Option<String>,
    /// Robot override.
    pub robot: Option<String>,
    /// The MCAP file to record to.
    pub record: Option<PathBuf>,
}

/// The recording of `soccer sim --record`: the match's facts (command, seed, files) and every
/// in-process robot's records.
fn create_recording(
    path: &Path,
    args: &SimArgs,
    location: Option<&str>,
    params: &soccer_profile::params::Parameters,
    spec: &decision_core::engine::TreeSpec,
    game: &fake_publisher::soccer::SoccerMatch,
    seed: u64,
) -> Result<MatchRecording, String> {
    let mut facts = RunFacts {
        command: "soccer sim".into(),
        seed: Some(seed),
        config_path: args.params_dir.clone().unwrap_or_else(sample_params),
        scenario: args.scenario.clone(),
        ..RunFacts::default()
    };
    for (key, value) in [("location", location), ("robot", args.robot.as_deref())] {
        if let Some(value) = value {
            facts.extra.insert(key.into(), value.to_owned());
        }
    }
    MatchRecording::create(path, &facts, params, spec, game)
}

/// One robot in one tick of `soccer sim --json`, keys in their documented order; the team
/// name and the score come already as JSON.
struct RobotLine<'a> {
    t: f64,
    /// The team name as a JSON string.
    team_json: &'a str,
    player: u8,
    role: Option<&'static str>,
    branch: &'a str,
    motion: &'a soccer_profile::motion::MotionCommand,
    ball: Option<soccer_profile::decider::OutputBall>,
    /// The score as a JSON object.
    score_json: &'a [u8],
    /// Only on the very last line: the match's play figures.
    play_figures: Option<fake_publisher::soccer::figures::MatchFigures>,
}

impl RobotLine<'_> {
    /// Writes the line (compact JSON, as serde_json writes the same object) and a newline.
    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let json = |e: serde_json::Error| std::io::Error::other(e);
        out.write_all(b"{\"t\":")?;
        serde_json::to_writer(&mut *out, &self.t).map_err(json)?;
        out.write_all(b",\"team\":")?;
        out.write_all(self.team_json.as_bytes())?;
        write!(out, ",\"player\":{},\"role\":", self.player)?;
        serde_json::to_writer(&mut *out, &self.role).map_err(json)?;
        out.write_all(b",\"branch\":")?;
        serde_json::to_writer(&mut *out, self.branch).map_err(json)?;
        out.write_all(b",\"motion\":")?;
        serde_json::to_writer(&mut *out, self.motion).map_err(json)?;
        out.write_all(b",\"ball\":")?;
        serde_json::to_writer(&mut *out, &self.ball).map_err(json)?;
        out.write_all(b",\"score\":")?;
        out.write_all(self.score_json)?;
        if let Some(figures) = &self.play_figures {
            out.write_all(b",\"play_figures\":")?;
            serde_json::to_writer(&mut *out, figures).map_err(json)?;
        }
        out.write_all(b"}\n")
    }
}

/// The score by team name, home first.
struct Score<'a> {
    home: (&'a str, u32),
    away: (&'a str, u32),
}

impl serde::Serialize for Score<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry(self.home.0, &self.home.1)?;
        map.serialize_entry(self.away.0, &self.away.1)?;
        map.end()
    }
}

/// The sample parameters folder.
fn sample_params() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample/soccer/parameters")
}

/// Simulates a soccer match in-process and prints its timeline (or JSON lines).
pub fn sim(args: &SimArgs) -> ExitCode {
    use fake_publisher::soccer::{
        Side, SoccerMatch, SoccerScenario, load_soccer_scenario, side_name,
    };
    fake_publisher::soccer::decide_on_this_thread();
    // The sample's `simulation` location unless a folder or a location is given.
    let location = match (&args.params_dir, &args.location) {
        (_, Some(l)) => Some(l.clone()),
        (None, None) => Some("simulation".to_owned()),
        (Some(_), None) => None,
    };
    let params_dir = args.params_dir.clone().unwrap_or_else(sample_params);
    let Some(mut parameters) = load_params(&params_dir, location.as_deref(), args.robot.as_deref())
    else {
        return ExitCode::from(1);
    };
    let mut scenario = match &args.scenario {
        Some(path) => match load_soccer_scenario(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(1);
            }
        },
        None => SoccerScenario::default(),
    };
    if let Some(seconds) = args.seconds {
        scenario.seconds = Some(seconds);
    }
    let Some(tree_file) = load_soccer_tree(args.tree.as_deref()) else {
        return ExitCode::from(1);
    };
    tree_file.apply_to(&mut parameters);
    let spec = tree_file.spec;
    let seed = args.seed.unwrap_or(scenario.seed);
    let parameters = Arc::new(parameters);
    let mut game = match SoccerMatch::new(scenario, Arc::clone(&parameters), &spec, args.seed) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let mut recording = match &args.record {
        Some(path) => {
            game.set_recording(true);
            match create_recording(
                path,
                args,
                location.as_deref(),
                &parameters,
                &spec,
                &game,
                seed,
            ) {
                Ok(r) => Some(r),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            }
        }
        None => None,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let names = [
        game.team_name(Side::Home).to_owned(),
        game.team_name(Side::Away).to_owned(),
    ];
    // The team names as JSON strings, and the score of the current tick as a JSON object.
    let team_json = names
        .each_ref()
        .map(|name| serde_json::Value::from(name.as_str()).to_string());
    let mut score_json = Vec::new();
    while !game.is_over() {
        let happenings = game.step();
        if let Some(r) = &mut recording
            && let Err(e) = r.record_step(&game)
        {
            eprintln!("recording stopped: {e}");
            recording = None;
        }
        let written = if args.json {
            let score = Score {
                home: (&names[0], game.referee.goals(Side::Home)),
                away: (&names[1], game.referee.goals(Side::Away)),
            };
            score_json.clear();
            // Writing into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut score_json, &score);
            let mut result = Ok(());
            let last_tick = game.is_over();
            for (i, p) in game.players.iter().enumerate() {
                let line = RobotLine {
                    t: (game.now * 1000.0).round() / 1000.0,
                    team_json: &team_json[usize::from(p.side == Side::Away)],
                    player: p.number,
                    role: p.role,
                    branch: &p.branch,
                    motion: &p.motion,
                    ball: p.decision.as_ref().and_then(|d| d.ball),
                    score_json: &score_json,
                    play_figures: (last_tick && i + 1 == game.players.len())
                        .then(|| game.play_figures()),
                };
                result = result.and_then(|()| line.write(&mut out));
            }
            result
        } else {
            happenings
                .iter()
                .try_for_each(|h| writeln!(out, "{:8.2} s  {}", h.t, h.text))
        };
        if written.is_err() {
            return ExitCode::SUCCESS;
        }
    }
    if !args.json {
        let figures = game.play_figures();
        for (name, team) in [(&names[0], &figures.home), (&names[1], &figures.away)] {
            if team.playing_seconds > 0.0 {
                let _ = writeln!(out, "{:8.2} s  play {name}: {}", game.now, team.summary());
            }
        }
        let (sent, lost) = game.message_counts();
        let kicks = game.kicks();
        let _ = writeln!(
            out,
            "{:8.2} s  end: {} {} : {} {}; kicks {} / {}; messages sent {} / {}, lost {} / {}",
            game.now,
            names[0],
            game.referee.goals(Side::Home),
            game.referee.goals(Side::Away),
            names[1],
            kicks[0],
            kicks[1],
            sent[0],
            sent[1],
            lost[0],
            lost[1]
        );
        let _ = side_name;
    }
    let _ = out.flush();
    if let Some(r) = recording {
        match r.finish() {
            Ok(summary) => eprintln!(
                "recorded {} messages to {}",
                summary.messages,
                args.record.as_deref().unwrap_or(Path::new("")).display()
            ),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}

/// `soccer run`: one robot's node on Zenoh until Ctrl-C.
pub fn run(
    sources: &decision_node::soccer::sources::SoccerSources,
    player: u8,
    watch: bool,
    args: &bus_cli::BusArgs,
    record: Option<&Path>,
) -> ExitCode {
    use decision_node::runtime::record::{Recorder, RunFacts};
    use decision_node::soccer::SoccerNode;
    let (params, spec) = match sources.load() {
        Ok(loaded) => loaded,
        Err(lines) => {
            for line in &lines {
                eprintln!("{line}");
            }
            eprintln!(
                "{}: not started ({} error(s))",
                sources.params_dir.display(),
                lines.len()
            );
            return ExitCode::from(1);
        }
    };
    let node = match SoccerNode::new(sources.clone(), player, Arc::clone(&params), spec.clone()) {
        Ok(node) => node,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let recorder = match record {
        Some(path) => {
            let mut facts = RunFacts {
                command: "soccer run".into(),
                config_path: sources.params_dir.clone(),
                ..RunFacts::default()
            };
            facts
                .extra
                .insert("namespace".into(), args.namespace.clone());
            facts.extra.insert("player".into(), player.to_string());
            for (key, value) in [("location", &sources.location), ("robot", &sources.robot)] {
                if let Some(value) = value {
                    facts.extra.insert(key.into(), value.clone());
                }
            }
            let prefix = bus::soccer::robot_topic(player, "");
            match Recorder::create_soccer(path, &facts, &params, &spec, &[prefix]) {
                Ok(r) => Some(r),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            }
        }
        None => None,
    };
    crate::run_live(node, args, false, "soccer_decision", watch, recorder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fake_publisher::soccer::figures::{MatchFigures, PlayFigures};
    use soccer_profile::decider::OutputBall;
    use soccer_profile::motion::{Body, Head, MotionCommand, TurnDirection};
    use soccer_profile::world::BallSource;

    /// The line as serde derives it: what [`RobotLine::write`] must write byte for byte.
    #[derive(serde::Serialize)]
    struct DerivedLine<'a> {
        t: f64,
        team: &'a str,
        player: u8,
        role: Option<&'static str>,
        branch: &'a str,
        motion: &'a MotionCommand,
        ball: Option<OutputBall>,
        score: &'a Score<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        play_figures: Option<MatchFigures>,
    }

    #[test]
    fn a_written_line_is_the_line_serde_derives() {
        let walk = MotionCommand {
            body: Body::WalkVelocity {
                vx: 1.0 / 3.0,
                vy: -0.25,
                vyaw: 1e-9,
            },
            head: Head::Search,
        };
        let turn = MotionCommand {
            body: Body::Turn(TurnDirection::Left),
            head: Head::LookAround,
        };
        let motions = [MotionCommand::STAND, walk, turn];
        let balls = [
            None,
            Some(OutputBall {
                x: 0.1 + 0.2,
                y: -1e-7,
                source: BallSource::Team,
                age: 1.5,
            }),
        ];
        let teams = ["home", "a \"quoted\" team\\ é\n"];
        for (case, t) in [0.02, 812.92, 1e21, -0.0, f64::NAN].into_iter().enumerate() {
            for (m, motion) in motions.iter().enumerate() {
                for ball in balls {
                    let score = Score {
                        home: (teams[0], 3),
                        away: (teams[1], u32::MAX),
                    };
                    let role = [None, Some("striker"), Some("keeper")][m];
                    let branch = ["playing", "set \"play\"\t"][case % 2];
                    let figures = (case == 2).then(|| PlayFigures::new(0.02).figures());
                    let expected = serde_json::to_string(&DerivedLine {
                        t,
                        team: teams[m % 2],
                        player: 7,
                        role,
                        branch,
                        motion,
                        ball,
                        score: &score,
                        play_figures: figures.clone(),
                    })
                    .unwrap()
                        + "\n";
                    let team = serde_json::to_string(teams[m % 2]).unwrap();
                    let score_json = serde_json::to_vec(&score).unwrap();
                    let mut written = Vec::new();
                    RobotLine {
                        t,
                        team_json: &team,
                        player: 7,
                        role,
                        branch,
                        motion,
                        ball,
                        score_json: &score_json,
                        play_figures: figures,
                    }
                    .write(&mut written)
                    .unwrap();
                    assert_eq!(String::from_utf8(written).unwrap(), expected);
                }
            }
        }
    }
}

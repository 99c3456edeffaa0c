//! `robot-decision`: macro-decisions for competition robots (RoboMaster decision rules,
//! RoboCup soccer behaviour trees): run on the robot, simulate, replay, evaluate and check.

mod bt;
mod check;
mod decide;
mod evaluate;
mod export;
mod lines;
mod nodes;
mod schema;
mod soccer;

use clap::{Parser, Subcommand, ValueEnum};
use decision_core::robomaster::load;
use decision_node::node::NodeCore;
use decision_node::runtime::record::{Recorder, RunFacts};
use decision_node::runtime::{record_info, replay_cli as replay, run, sim};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Macro-decisions for competition robots (RoboMaster and RoboCup soccer).
#[derive(Debug, Parser)]
#[command(name = "robot-decision", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Output format for machine consumers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Lines for people.
    Text,
    /// One JSON document.
    Json,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check a config and the files it names, a tree file (.xml, .json5), or a soccer
    /// parameters folder (with base/); exit 0 clean or warnings only, 1 errors.
    Check {
        /// The config.json file, a tree file, or a soccer parameters folder.
        config: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Soccer parameters: the location override folder (location/NAME/).
        #[arg(long, value_name = "NAME")]
        location: Option<String>,
        /// Soccer parameters: the robot override folder (robot/NAME/).
        #[arg(long, value_name = "NAME")]
        robot: Option<String>,
    },
    /// Run a BehaviorTree.CPP tree (XML or JSON5) on JSON Lines input and print each tick's
    /// trace, or time the behaviour-tree benchmark's input schedule.
    Bt {
        /// The tree file (.xml with includes, or .json5).
        tree: PathBuf,
        /// The tree to run (default: `main_tree_to_execute`, else the only tree).
        #[arg(long)]
        main_tree: Option<String>,
        /// The action and condition leaves the tree may use.
        #[arg(long, value_enum, default_value = "bench")]
        leaves: bt::Leaves,
        /// Input lines `{"set": {...}}` (JSON Lines); `-` reads standard input.
        #[arg(long, required_unless_present = "bench")]
        input: Option<PathBuf>,
        /// Time the benchmark schedule instead (tracing off).
        #[arg(long)]
        bench: bool,
        /// Ticks to time (default: whole 49,152-tick periods for about 2 s).
        #[arg(long, requires = "bench")]
        ticks: Option<u64>,
    },
    /// Decide offline: one JSON snapshot per input line, one JSON result per output line.
    Decide {
        /// The config.json file.
        config: PathBuf,
        /// The snapshots (JSON Lines); `-` reads standard input.
        #[arg(long)]
        input: PathBuf,
    },
    /// List the node kinds a tree may use, with their ports: as text, as JSON, or as a
    /// Groot2 palette (a BT.CPP 4 `<TreeNodesModel>`).
    Nodes {
        /// Only this profile's kinds (default: every profile's; `groot2` leaves out the
        /// standard library, which Groot2 knows, unless it is asked for).
        #[arg(long, value_enum)]
        profile: Option<nodes::Profile>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: nodes::NodesFormat,
    },
    /// Write a tree (a .json5, .json or .xml tree file, or the decision tree of a RoboMaster
    /// config.json) as BehaviorTree.CPP 4 XML with the model of the kinds it uses.
    Export {
        /// The tree file or config.json.
        input: PathBuf,
        /// Write BehaviorTree.CPP 4 XML (the only export format).
        #[arg(long, required = true)]
        xml: bool,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Print the JSON Schema of a file format, for editor validation.
    Schema {
        /// Which format.
        #[arg(value_enum)]
        which: schema::Which,
    },
    /// A Zenoh router for ROS 2 nodes (what rmw_zenohd is), for a machine without ROS 2: the
    /// node, the fake publisher and the viewer with `--ros2` connect to it.
    Ros2Router {
        /// Endpoint to listen on (repeatable).
        #[arg(long, value_name = "ENDPOINT", default_value = bus::DEFAULT_ENDPOINT)]
        listen: Vec<String>,
    },
    /// Run the node on the bus (Zenoh, or ROS 2 with --ros2): decide on live inputs, reload
    /// edited files.
    Run {
        /// The config.json file.
        config: PathBuf,
        /// Do not watch the files for changes.
        #[arg(long)]
        no_reload: bool,
        /// Record every input and output to this MCAP file (Foxglove opens it).
        #[arg(long, value_name = "FILE.mcap")]
        record: Option<PathBuf>,
        #[command(flatten)]
        bus: bus_cli::BusArgs,
    },
    /// Simulate a match in-process: the node and the fake publisher, no network.
    Sim {
        /// The config.json file (default: the repository's sample).
        config: Option<PathBuf>,
        /// The scenario (JSON5; default: sample/scenarios/hp_retreat.json5 for the sample).
        #[arg(long)]
        scenario: Option<PathBuf>,
        /// Stop after this many simulated seconds (default: the whole match).
        #[arg(long)]
        seconds: Option<f64>,
        /// Fast-forward factor against the wall clock; 0 runs as fast as possible.
        #[arg(long, default_value_t = 0.0)]
        speed: f64,
        /// Seed of the simulated match.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// One JSON line per tick (the `decide` result plus `game_time`).
        #[arg(long)]
        json: bool,
        /// Record every input and output to this MCAP file (Foxglove opens it).
        #[arg(long, value_name = "FILE.mcap")]
        record: Option<PathBuf>,
    },
    /// Is my edit better? Play many seeded matches of a config (and exactly the same matches of
    /// `--against`), then print each metric's mean with its 95% interval, the paired
    /// difference B - A and whether it is significant, and the decisions never chosen.
    Evaluate(evaluate::EvaluateArgs),
    /// Replay a recording (MCAP) or snapshots (JSON Lines) through a fresh node and compare the
    /// decisions; exit 0 identical, 1 different, 2 usage error or unreadable file.
    Replay {
        /// The recording (.mcap) or snapshot file (.jsonl, the `decide` input).
        file: PathBuf,
        /// An edited config to compare with (default: the recorded one).
        #[arg(long)]
        config: Option<PathBuf>,
        /// The config of the old side: required for snapshots; for MCAP, instead of the
        /// recorded decisions.
        #[arg(long)]
        base: Option<PathBuf>,
        /// Write the replayed ticks as JSON Lines (the `decide` result plus `game_time`).
        #[arg(long, value_name = "OUT.jsonl")]
        output: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// RoboCup humanoid soccer: the role behaviour (after HULKs) offline, simulated, on the bus.
    Soccer {
        #[command(subcommand)]
        command: SoccerCommand,
    },
    /// Show what a recording holds: topics, counts, time span, decisions, attachments.
    RecordInfo {
        /// An MCAP file written with `--record` (RoboMaster or soccer).
        file: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

/// `robot-decision soccer ...`.
#[derive(Debug, Subcommand)]
enum SoccerCommand {
    /// Decide offline: one JSON frame per input line, one JSON decision per output line.
    Decide {
        #[command(flatten)]
        params: SoccerParams,
        /// A tree replacing the default (.json5 or BT.CPP .xml).
        #[arg(long)]
        tree: Option<PathBuf>,
        /// The frames (JSON Lines); `-` reads standard input.
        #[arg(long)]
        input: PathBuf,
        /// Add `explain`: why each branch before the chosen one failed.
        #[arg(long)]
        explain: bool,
    },
    /// Simulate a five-a-side match in-process (no network): our teams' deciders and search
    /// suggestors, a game controller, ball, perception and team messages; prints a timeline
    /// ending with each team's play figures (role changes per robot-minute, one / no striker
    /// shares, median striker stint, time to find a lost ball).
    Sim {
        /// The parameters folder (default: the sample's).
        params_dir: Option<PathBuf>,
        /// The scenario (JSON5; default: a whole match of two teams of five).
        #[arg(long)]
        scenario: Option<PathBuf>,
        /// Stop after this many simulated seconds.
        #[arg(long)]
        seconds: Option<f64>,
        /// Seed of the match (default: the scenario's).
        #[arg(long)]
        seed: Option<u64>,
        /// One JSON line per robot per tick; the very last line also carries `play_figures`.
        #[arg(long)]
        json: bool,
        /// A tree replacing the default (.json5 or BT.CPP .xml).
        #[arg(long)]
        tree: Option<PathBuf>,
        /// Location override folder name (default for the sample folder: `simulation`).
        #[arg(long)]
        location: Option<String>,
        /// Robot override folder name (for every robot).
        #[arg(long)]
        robot: Option<String>,
        /// Record every robot's frames, traces and motion commands to this MCAP file
        /// (`robot-decision replay` decides them again).
        #[arg(long, value_name = "FILE.mcap")]
        record: Option<PathBuf>,
    },
    /// Run one robot's soccer node on the bus: its inputs under `player_<N>/`, the team's
    /// State messages on `team/state_message`, a tick every 20 ms, the motion command, trace,
    /// blackboard and search outputs; hot reload of the parameter and tree files.
    Run {
        #[command(flatten)]
        params: SoccerParams,
        /// The robot's player number (1..=7).
        #[arg(long)]
        player: u8,
        /// A tree replacing the default (.json5 or BT.CPP .xml).
        #[arg(long)]
        tree: Option<PathBuf>,
        /// Do not watch the files for changes.
        #[arg(long)]
        no_reload: bool,
        /// Record every input and output to this MCAP file (`replay` decides it again).
        #[arg(long, value_name = "FILE.mcap")]
        record: Option<PathBuf>,
        #[command(flatten)]
        bus: bus_cli::BusArgs,
    },
    /// Is my edit better? Play many seeded matches with config A's team at home (and exactly
    /// the same matches with config B's), always against config A's team, then print each
    /// metric's mean with its 95% interval, the paired difference B - A and whether it is
    /// significant, and the tree nodes never in effect.
    Evaluate(evaluate::SoccerEvaluateArgs),
    /// Run the ball-search heatmap offline: one JSON frame per input line, the map and the
    /// search target per output line.
    Heatmap {
        #[command(flatten)]
        params: SoccerParams,
        /// The frames (JSON Lines); `-` reads standard input.
        #[arg(long)]
        input: PathBuf,
    },
}

/// A soccer parameters folder with its overrides.
#[derive(Debug, clap::Args)]
struct SoccerParams {
    /// The parameters folder (base/, location/NAME/, robot/NAME/).
    params_dir: PathBuf,
    /// Location override folder name.
    #[arg(long)]
    location: Option<String>,
    /// Robot override folder name.
    #[arg(long)]
    robot: Option<String>,
}

/// The repository's sample config, for `sim` without arguments.
fn sample_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample")
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let opens_network = matches!(
        cli.command,
        Command::Run { .. }
            | Command::Ros2Router { .. }
            | Command::Soccer {
                command: SoccerCommand::Run { .. }
            }
    );
    if !opens_network {
        stop_quietly_when_stdout_closes();
    }
    match cli.command {
        Command::Check {
            config,
            format,
            location,
            robot,
        } => check::run(&config, format, location.as_deref(), robot.as_deref()),
        Command::Bt {
            tree,
            main_tree,
            leaves,
            input,
            bench,
            ticks,
        } => {
            let mode = match (&input, bench) {
                (_, true) => bt::Mode::Bench(ticks),
                (Some(input), false) => bt::Mode::Input(input),
                (None, false) => {
                    eprintln!("bt: give --input FILE or --bench");
                    return ExitCode::from(2);
                }
            };
            bt::run(&tree, main_tree.as_deref(), leaves, mode)
        }
        Command::Decide { config, input } => decide::run(&config, &input),
        Command::Nodes { profile, format } => nodes::run(profile, format),
        Command::Export { input, output, .. } => export::run(&input, output.as_deref()),
        Command::Schema { which } => schema::run(which),
        Command::Soccer { command } => match command {
            SoccerCommand::Decide {
                params,
                tree,
                input,
                explain,
            } => soccer::decide(&soccer::DecideArgs {
                params_dir: params.params_dir,
                location: params.location,
                robot: params.robot,
                tree,
                input,
                explain,
            }),
            SoccerCommand::Sim {
                params_dir,
                scenario,
                seconds,
                seed,
                json,
                tree,
                location,
                robot,
                record,
            } => soccer::sim(&soccer::SimArgs {
                params_dir,
                scenario,
                seconds,
                seed,
                json,
                tree,
                location,
                robot,
                record,
            }),
            SoccerCommand::Run {
                params,
                player,
                tree,
                no_reload,
                record,
                bus,
            } => {
                init_logging();
                soccer::run(
                    &decision_node::soccer::sources::SoccerSources {
                        params_dir: params.params_dir,
                        location: params.location,
                        robot: params.robot,
                        tree,
                    },
                    player,
                    !no_reload,
                    &bus,
                    record.as_deref(),
                )
            }
            SoccerCommand::Heatmap { params, input } => soccer::heatmap(&soccer::HeatmapArgs {
                params_dir: params.params_dir,
                location: params.location,
                robot: params.robot,
                input,
            }),
            SoccerCommand::Evaluate(args) => {
                fake_publisher::soccer::decide_on_this_thread();
                evaluate::run_soccer(&args, &sample_dir())
            }
        },
        Command::Run {
            config,
            no_reload,
            record,
            bus,
        } => run_command(&config, !no_reload, &bus, record.as_deref()),
        Command::Ros2Router { listen } => router_command(&listen),
        Command::Replay {
            file,
            config,
            base,
            output,
            format,
        } => ExitCode::from(replay::replay_command(&replay::ReplayArgs {
            file,
            config,
            base,
            output,
            json: format == Format::Json,
        })),
        Command::RecordInfo { file, format } => ExitCode::from(record_info::record_info_command(
            &file,
            format == Format::Json,
        )),
        Command::Evaluate(args) => evaluate::run(&args, &sample_dir()),
        Command::Sim {
            config,
            scenario,
            seconds,
            speed,
            seed,
            json,
            record,
        } => {
            let config = config.unwrap_or_else(|| sample_dir().join("config.json"));
            let scenario =
                scenario.unwrap_or_else(|| sample_dir().join("scenarios/hp_retreat.json5"));
            sim_command(
                &config,
                &scenario,
                &sim::SimOptions {
                    seconds,
                    speed,
                    seed,
                    json,
                },
                record.as_deref(),
            )
        }
    }
}

/// Lets a closed stdout (`robot-decision check ... | head -n 1`) end the process quietly by
/// SIGPIPE, with the shell status 141 as for `grep`, instead of a panic in `println!`. Not for
/// the commands that open network sockets, which must see EPIPE as an error instead.
fn stop_quietly_when_stdout_closes() {
    #[cfg(unix)]
    // SAFETY: restores the default action of one signal before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Loads a config, printing the diagnostics to stderr when it has errors.
/// Opens an input file, or standard input for `-`; the error names the file.
pub(crate) fn open_input(input: &Path) -> Result<Box<dyn std::io::Read>, String> {
    if input == Path::new("-") {
        return Ok(Box::new(std::io::stdin()));
    }
    std::fs::File::open(input)
        .map(|f| Box::new(f) as Box<dyn std::io::Read>)
        .map_err(|e| format!("{}: cannot read: {e}", input.display()))
}

pub(crate) fn load_or_report(config: &Path) -> Option<decision_core::robomaster::Tables> {
    let outcome = load::load(config);
    if outcome.tables.is_none() {
        eprint!("{}", outcome.diagnostics);
        eprintln!(
            "{}: not loaded, fix the errors above (robot-decision check shows all)",
            config.display()
        );
    }
    outcome.tables
}

/// Prints engine compile errors to stderr.
pub(crate) fn report_compile_errors(errors: &[decision_core::engine::CompileError]) {
    for e in errors {
        eprintln!("{e}");
    }
}

/// Loads and compiles a config, printing the diagnostics on failure.
fn load_node(config: &Path) -> Option<NodeCore> {
    let tables = load_or_report(config)?;
    NodeCore::new(Arc::new(tables))
        .map_err(|errors| report_compile_errors(&errors))
        .ok()
}

/// Runs a node of any profile on the bus the flags ask for (Zenoh, or ROS 2 as node
/// `node_name`) until Ctrl-C, then closes its recording.
fn run_live<P: decision_node::profile::NodeProfile>(
    node: P,
    args: &bus_cli::BusArgs,
    default_listen: bool,
    node_name: &str,
    watch: bool,
    mut recorder: Option<Recorder>,
) -> ExitCode {
    let bus = match args.open(default_listen, node_name) {
        Ok(bus) => bus,
        Err(e) => {
            eprintln!("cannot open the bus: {e}");
            return ExitCode::from(1);
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed)) {
        eprintln!("cannot install the Ctrl-C handler: {e}");
    }
    let result = run::run_profile(node, &bus, &stop, watch, recorder.as_mut());
    if let Some(recorder) = recorder {
        match recorder.finish() {
            Ok(summary) => tracing::info!("recorded {} messages", summary.messages),
            Err(e) => eprintln!("{e}"),
        }
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

/// Runs a Zenoh router for the ROS 2 graph until Ctrl-C.
fn router_command(listen: &[String]) -> ExitCode {
    init_logging();
    let router = match bus::ros2::router::Router::start(listen) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the router: {e}");
            return ExitCode::from(1);
        }
    };
    eprintln!("ROS 2 router listening on {}", listen.join(", "));
    let (tx, rx) = std::sync::mpsc::channel();
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = tx.send(());
    }) {
        eprintln!("cannot install the Ctrl-C handler: {e}");
        return ExitCode::from(1);
    }
    let _ = rx.recv();
    router.close();
    ExitCode::SUCCESS
}

fn run_command(
    config: &Path,
    watch: bool,
    args: &bus_cli::BusArgs,
    record: Option<&Path>,
) -> ExitCode {
    init_logging();
    let Some(node) = load_node(config) else {
        return ExitCode::from(1);
    };
    let recorder = match record {
        Some(path) => {
            let facts = RunFacts {
                command: "run".into(),
                config_path: config.to_path_buf(),
                ..RunFacts::default()
            };
            match Recorder::create(path, &facts, node.decider().tables()) {
                Ok(r) => Some(r),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(1);
                }
            }
        }
        None => None,
    };
    run_live(node, args, true, "robot_decision", watch, recorder)
}

fn sim_command(
    config: &Path,
    scenario_path: &Path,
    options: &sim::SimOptions,
    record: Option<&Path>,
) -> ExitCode {
    let outcome = load::load(config);
    let Some(tables) = outcome.tables else {
        eprint!("{}", outcome.diagnostics);
        return ExitCode::from(1);
    };
    let scenario = match fake_publisher::load_scenario(scenario_path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let tables = Arc::new(tables);
    let mut recorder = match record {
        Some(path) => {
            let facts = RunFacts {
                command: "sim".into(),
                seed: Some(options.seed),
                config_path: config.to_path_buf(),
                scenario: Some(scenario_path.to_path_buf()),
                ..RunFacts::default()
            };
            match Recorder::create(path, &facts, &tables) {
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
    let result = sim::simulate_recorded(tables, &scenario, options, &mut out, recorder.as_mut());
    if let Some(recorder) = recorder
        && let Err(e) = recorder.finish()
    {
        eprintln!("{e}");
        return ExitCode::from(1);
    }
    match result {
        Ok(summary) => {
            drop(out);
            if !options.json {
                println!(
                    "{:7.1} s  end of simulation: {} ticks",
                    summary.seconds, summary.ticks
                );
                if let Some(c) = summary.combat {
                    println!(
                        "{:7.1} s  combat: own HP {:.1}, damage dealt {:.1}, damage taken {:.1}, outpost HP {:.1}, base HP {:.1}",
                        summary.seconds,
                        c.own_hp,
                        c.damage_dealt,
                        c.damage_taken,
                        c.outpost_hp,
                        c.base_hp
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

//! `decision-viewer`: the dashboard binary (see the crate docs of `gui`).

use clap::Parser;
use gui::app::ViewerApp;
use gui::settings::{SETTINGS_KEY, Settings, SourceSetting};
use std::path::PathBuf;
use std::process::ExitCode;

/// The robot decision dashboard: embedded simulation, live bus, or recording.
#[derive(Debug, Parser)]
#[command(name = "decision-viewer", version)]
struct Cli {
    /// Run the embedded simulation of this config (node + fake publisher in process).
    #[arg(long, value_name = "CONFIG", conflicts_with_all = ["connect", "open"])]
    sim: Option<PathBuf>,
    /// Scenario of the simulation (default: the sample's hp_retreat; with `--soccer-sim`, a
    /// whole match of two teams of five).
    #[arg(long, value_name = "SCENARIO")]
    scenario: Option<PathBuf>,
    /// Run the five-a-side soccer match in process, with this parameters folder (default: the
    /// sample's, as `robot-decision soccer sim`).
    #[arg(long, value_name = "PARAMS_DIR", conflicts_with_all = ["sim", "connect", "open"])]
    soccer_sim: Option<Option<PathBuf>>,
    /// Follow live soccer teams on the bus (Zenoh client at `--connect`, default
    /// tcp/127.0.0.1:7447): the teams' namespaces, first drawn as home (default: `home`).
    #[arg(long, value_name = "TEAM", num_args = 0.., conflicts_with_all = ["sim", "open", "soccer_sim", "soccer_open"])]
    soccer_connect: Option<Vec<String>>,
    /// Open a soccer MCAP recording (`robot-decision soccer sim --record` or `soccer run
    /// --record`) and play, step and seek through it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["sim", "open", "connect", "soccer_sim"])]
    soccer_open: Option<PathBuf>,
    /// Seed of the soccer match (replaces the scenario's).
    #[arg(long, value_name = "N", requires = "soccer_sim")]
    seed: Option<u64>,
    /// A soccer tree (.json5 or BT.CPP .xml) replacing the default.
    #[arg(long, value_name = "FILE", requires = "soccer_sim")]
    tree: Option<PathBuf>,
    /// Connect to the bus (Zenoh client) at this endpoint, e.g. tcp/127.0.0.1:7447.
    #[arg(long, value_name = "ENDPOINT")]
    connect: Option<String>,
    /// Robot namespace on the bus.
    #[arg(long, value_name = "NS", default_value = bus::DEFAULT_NAMESPACE)]
    namespace: String,
    /// Follow the node (`--connect`) or the soccer teams (`--soccer-connect`, each team a ROS
    /// namespace) on ROS 2 (rmw_zenoh; the endpoint is then the router's).
    #[arg(long)]
    ros2: bool,
    /// Config whose map and waypoints are drawn for a live source (default: the sample).
    #[arg(long, value_name = "CONFIG")]
    config: Option<PathBuf>,
    /// Open an MCAP recording written by `robot-decision` and scrub through it.
    #[arg(long, value_name = "FILE")]
    open: Option<PathBuf>,
    /// Start paused (space plays). By default a simulation or recording plays at once,
    /// unless `--start-at` asks to look at one moment.
    #[arg(long, conflicts_with = "play")]
    paused: bool,
    /// Play at once, also with `--start-at`.
    #[arg(long)]
    play: bool,
    /// Simulate (paused) up to this many seconds before the window opens.
    #[arg(long, value_name = "SECONDS")]
    start_at: Option<f64>,
    /// Simulation speed (simulated seconds per wall second).
    #[arg(long, default_value_t = 1.0)]
    speed: f64,
    /// Close the window after this many frames (smoke runs and screenshots).
    #[arg(long, value_name = "N")]
    screenshot_after_frames: Option<u64>,
    /// Do not read or write the saved settings.
    #[arg(long)]
    no_persistence: bool,
}

impl Cli {
    /// Whether the source plays as the window opens: yes, unless `--paused`, or `--start-at`
    /// without `--play`.
    fn starts_playing(&self) -> bool {
        self.play || !(self.paused || self.start_at.is_some())
    }
}

/// Which soccer source the command line asks for.
enum SoccerChoice {
    /// `--soccer-sim [PARAMS_DIR]`.
    Sim(Option<PathBuf>),
    /// `--soccer-connect [TEAM...]`.
    Live(Vec<String>),
    /// `--soccer-open FILE`.
    Recording(PathBuf),
}

/// Runs the soccer window on the in-process match, a live team or a recording.
fn soccer(cli: &Cli, choice: SoccerChoice) -> ExitCode {
    use gui::soccer::view::SoccerApp;
    let opened = match choice {
        SoccerChoice::Sim(params_dir) => SoccerApp::open(&gui::soccer::sim::SoccerSimOptions {
            params_dir,
            scenario: cli.scenario.clone(),
            seed: cli.seed,
            tree: cli.tree.clone(),
        }),
        SoccerChoice::Live(teams) => {
            let endpoint = cli
                .connect
                .clone()
                .unwrap_or_else(|| gui::soccer::live::DEFAULT_ENDPOINT.to_owned());
            Ok(SoccerApp::live(gui::soccer::live::SoccerLive::connect(
                &endpoint, &teams, cli.ros2,
            )))
        }
        SoccerChoice::Recording(file) => {
            gui::soccer::replay::SoccerReplay::open(&file).map(SoccerApp::recording)
        }
    };
    let mut app = match opened {
        Ok(app) => app,
        Err(e) => {
            eprintln!("decision-viewer: {e}");
            return ExitCode::FAILURE;
        }
    };
    app.close_after_frames = cli.screenshot_after_frames;
    if let Some(t) = cli.start_at {
        app.run_until(t);
    }
    app.set_speed(cli.speed);
    app.set_playing(
        cli.starts_playing() || matches!(app.source, gui::soccer::view::SoccerSource::Live(_)),
    );
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("decision-viewer: soccer")
            .with_inner_size([1280.0, 800.0]),
        persist_window: false,
        ..Default::default()
    };
    match eframe::run_native(
        "decision-viewer-soccer",
        options,
        Box::new(move |_cc| Ok(Box::new(app))),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("decision-viewer: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let cli = Cli::parse();
    if let Some(params_dir) = &cli.soccer_sim {
        return soccer(&cli, SoccerChoice::Sim(params_dir.clone()));
    }
    if let Some(teams) = &cli.soccer_connect {
        return soccer(&cli, SoccerChoice::Live(teams.clone()));
    }
    if let Some(file) = &cli.soccer_open {
        return soccer(&cli, SoccerChoice::Recording(file.clone()));
    }
    let sample = gui::sample_config().display().to_string();
    let chosen = if let Some(file) = &cli.open {
        Some(SourceSetting::Recording {
            file: file.display().to_string(),
            config: cli
                .config
                .as_ref()
                .map_or(sample.clone(), |c| c.display().to_string()),
        })
    } else if let Some(config) = &cli.sim {
        Some(SourceSetting::Sim {
            config: config.display().to_string(),
            scenario: cli
                .scenario
                .clone()
                .unwrap_or_else(gui::sample_scenario)
                .display()
                .to_string(),
        })
    } else {
        cli.connect.as_ref().map(|endpoint| SourceSetting::Live {
            endpoint: endpoint.clone(),
            namespace: cli.namespace.clone(),
            ros2: cli.ros2,
            config: cli
                .config
                .as_ref()
                .map_or(sample.clone(), |c| c.display().to_string()),
        })
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("decision-viewer")
            .with_inner_size([1280.0, 800.0]),
        persist_window: !cli.no_persistence,
        ..Default::default()
    };
    let no_persistence = cli.no_persistence;
    let result = eframe::run_native(
        "decision-viewer",
        options,
        Box::new(move |cc| {
            let mut settings: Settings = if no_persistence {
                Settings::default()
            } else {
                cc.storage
                    .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
                    .unwrap_or_default()
            };
            if let Some(source) = chosen {
                settings.source = source;
            }
            let mut app = ViewerApp::new(settings);
            app.close_after_frames = cli.screenshot_after_frames;
            if let Some(t) = cli.start_at {
                app.run_sim_until(t);
            }
            if let Some(sim) = app.sim_mut() {
                sim.speed = cli.speed;
            }
            app.set_playing(cli.starts_playing());
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("decision-viewer: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::Parser;

    fn plays(args: &[&str]) -> bool {
        let cli =
            Cli::try_parse_from(std::iter::once("decision-viewer").chain(args.iter().copied()))
                .expect("arguments parse");
        cli.starts_playing()
    }

    #[test]
    fn a_source_plays_at_once_unless_paused_or_asked_for_one_moment() {
        assert!(plays(&[]));
        assert!(plays(&["--sim", "sample/config.json"]));
        assert!(plays(&["--soccer-sim"]));
        assert!(!plays(&["--sim", "sample/config.json", "--paused"]));
        assert!(!plays(&["--start-at", "75.5"]));
        assert!(plays(&["--start-at", "75.5", "--play"]));
        assert!(Cli::try_parse_from(["decision-viewer", "--play", "--paused"]).is_err());
    }
}

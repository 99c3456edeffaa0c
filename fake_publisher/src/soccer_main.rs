//! `fake-publisher --soccer`: the soccer match for `soccer run` nodes on the bus, with its
//! timeline on stdout.

use bus::Bus;
use bus_cli::BusArgs;
use fake_publisher::soccer::remote::run_remote_match;
use fake_publisher::soccer::{Side, SoccerMatch, SoccerScenario, load_soccer_scenario};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// What `--soccer` was asked.
pub struct SoccerArgs {
    /// Soccer scenario file (JSON5); None = the default match.
    pub scenario: Option<PathBuf>,
    /// Parameters folder of the field and robots; None = the sample's, location `simulation`.
    pub params: Option<PathBuf>,
    /// Teams on the bus.
    pub remote: Vec<String>,
    /// The seed (0 = the scenario's).
    pub seed: u64,
    /// Simulated seconds per wall-clock second.
    pub speed: f64,
    /// Stop after this many simulated seconds.
    pub seconds: Option<f64>,
    /// How to reach the bus.
    pub bus: BusArgs,
}

fn unix_time() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Runs the match; `Err` is a message and the exit code.
pub fn run(args: &SoccerArgs) -> Result<(), (String, u8)> {
    if args.bus.ros2 {
        // The match is the team network's hub: robots and viewers reach it on its Zenoh keys.
        return Err((
            "error: --soccer --ros2: the soccer match runs on the Zenoh bus only; leave out \
             --ros2 here and on its `soccer run` nodes"
                .to_owned(),
            2,
        ));
    }
    if !(args.speed.is_finite() && args.speed > 0.0) {
        return Err((
            format!("error: --speed must be > 0, found {}", args.speed),
            2,
        ));
    }
    let mut scenario = match &args.scenario {
        Some(path) => load_soccer_scenario(path).map_err(|e| (e.to_string(), 2))?,
        None => SoccerScenario::default(),
    };
    if let Some(seconds) = args.seconds {
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err((format!("error: --seconds must be >= 0, found {seconds}"), 2));
        }
        scenario.seconds = Some(seconds);
    }
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample/soccer/parameters");
    let (dir, location) = match &args.params {
        Some(dir) => (dir.clone(), None),
        None => (sample, Some("simulation")),
    };
    let params = soccer_profile::params::load(&dir, location, None).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        (lines.join("\n"), 1)
    })?;
    let spec = soccer_profile::tree::default_spec().map_err(|d| {
        let lines: Vec<String> = d.iter().map(ToString::to_string).collect();
        (lines.join("\n"), 1)
    })?;
    let seed = (args.seed != 0).then_some(args.seed);
    let mut game = SoccerMatch::new(scenario, Arc::new(params), &spec, seed).map_err(|e| (e, 1))?;
    let names = [
        game.team_name(Side::Home).to_owned(),
        game.team_name(Side::Away).to_owned(),
    ];
    let wanted = if args.remote.is_empty() {
        vec![names[0].clone()]
    } else {
        args.remote.clone()
    };
    let mut remote = Vec::new();
    for team in &wanted {
        match names.iter().position(|n| n == team) {
            Some(0) => remote.push(Side::Home),
            Some(_) => remote.push(Side::Away),
            None => {
                return Err((
                    format!(
                        "error: --remote {team}: the teams are `{}` and `{}`",
                        names[0], names[1]
                    ),
                    2,
                ));
            }
        }
    }
    // The hub of the team network: robots, viewers and tools connect to it.
    let mut options = args.bus.options(true);
    options.namespace = String::new();
    let bus = Bus::zenoh(&options).map_err(|e| (format!("error: {e}"), 1))?;
    println!(
        "soccer match: {} v {}, remote {}, listening on {}",
        names[0],
        names[1],
        wanted.join(", "),
        options.listen.join(", ")
    );
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::Release)) {
        eprintln!("warning: cannot install the Ctrl-C handler: {e}");
    }
    let stats = run_remote_match(
        &mut game,
        &remote,
        &bus,
        &stop,
        args.speed,
        &unix_time,
        &mut |h| println!("{:8.2} s  {}", h.t, h.text),
    )
    .map_err(|e| (format!("error: {e}"), 1))?;
    println!(
        "{:8.2} s  end: {} {} : {} {}; ticks {}; commands {:?}; team messages {} / {}; malformed {:?}",
        game.now,
        names[0],
        game.referee.goals(Side::Home),
        game.referee.goals(Side::Away),
        names[1],
        stats.ticks,
        stats.commands,
        stats.team_messages[0],
        stats.team_messages[1],
        stats.malformed
    );
    bus.close();
    Ok(())
}

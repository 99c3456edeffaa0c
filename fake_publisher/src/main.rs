//! `fake-publisher`: runs a scenario and publishes the decision node's input topics over the
//! bus in (scaled) real time, feeding the node's goals, cancels and decisions back into the
//! simulation.

use bus::messages::{DecisionMsg, NavCancel, NavGoal};
use bus::{BusOptions, topics};
use bus_cli::BusArgs;
use clap::Parser;
use fake_publisher::{Frame, Simulation, load_scenario, scenario_schema};
use std::path::PathBuf;

mod soccer_main;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Simulates a RoboMaster match from a scenario file and publishes the decision node's inputs.
#[derive(Debug, Parser)]
#[command(name = "fake-publisher", version)]
struct Cli {
    /// The scenario file (JSON5; the manual's scenario page has every key). With `--soccer` a soccer
    /// scenario (default: a whole match of the sample teams).
    #[arg(required_unless_present_any = ["schema", "soccer"])]
    scenario: Option<PathBuf>,
    /// Simulate a soccer match instead: the game controller, world and perception for
    /// `soccer run` nodes on the bus (this side listens; the robots connect).
    #[arg(long)]
    soccer: bool,
    /// Soccer: the parameters folder of the field and of in-process robots (default: the
    /// sample's, location `simulation`).
    #[arg(long, value_name = "DIR")]
    params: Option<PathBuf>,
    /// Soccer: a team whose robots are nodes on the bus (repeatable; default: home); the
    /// other team's robots of our behaviour decide in process.
    #[arg(long, value_name = "TEAM")]
    remote: Vec<String>,
    /// Seed of every random choice (same scenario + seed = same match).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Simulated seconds per wall-clock second (2 = twice as fast).
    #[arg(long, default_value_t = 1.0)]
    speed: f64,
    /// Publish rate in Hz (overrides the scenario's `rate`).
    #[arg(long, value_name = "HZ")]
    rate: Option<f64>,
    /// Stop after this many simulated seconds (default: when the match ends).
    #[arg(long, value_name = "N")]
    seconds: Option<f64>,
    /// Stamp messages with simulated time (from 0) instead of the wall clock (UNIX time, what
    /// a live node compares message ages against).
    #[arg(long)]
    sim_stamps: bool,
    /// Print the scenario file's JSON Schema and exit.
    #[arg(long)]
    schema: bool,
    /// How to reach the bus (default: client of tcp/127.0.0.1:7447).
    #[command(flatten)]
    bus: BusArgs,
}

/// Logs a kind of message at most once per second, counting what it holds back.
#[derive(Debug, Default)]
struct RateLimited {
    last: Option<Instant>,
    suppressed: u64,
}

impl RateLimited {
    fn log(&mut self, message: impl FnOnce() -> String) {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|t| now.duration_since(t) < Duration::from_secs(1))
        {
            self.suppressed += 1;
            return;
        }
        let more = if self.suppressed > 0 {
            format!(" ({} more suppressed)", self.suppressed)
        } else {
            String::new()
        };
        eprintln!("warning: {}{more}", message());
        self.last = Some(now);
        self.suppressed = 0;
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.schema {
        // Printing only: a closed stdout (`| head`) ends the process quietly by SIGPIPE.
        #[cfg(unix)]
        // SAFETY: restores the default action of one signal before any thread is started.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
        return match serde_json::to_string_pretty(&scenario_schema()) {
            Ok(text) => {
                println!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Prints one line on stdout; false when stdout's reader has gone away.
fn say(line: std::fmt::Arguments<'_>) -> bool {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
}

fn fail(message: impl std::fmt::Display, code: u8) -> ExitCode {
    eprintln!("{message}");
    ExitCode::from(code)
}

fn run(cli: &Cli) -> Result<(), ExitCode> {
    if cli.soccer {
        return soccer_main::run(&soccer_main::SoccerArgs {
            scenario: cli.scenario.clone(),
            params: cli.params.clone(),
            remote: cli.remote.clone(),
            seed: cli.seed,
            speed: cli.speed,
            seconds: cli.seconds,
            bus: cli.bus.clone(),
        })
        .map_err(|(message, code)| fail(message, code));
    }
    let Some(path) = &cli.scenario else {
        return Err(fail("error: no scenario given", 2));
    };
    if !(cli.speed.is_finite() && cli.speed > 0.0) {
        return Err(fail(
            format!("error: --speed must be > 0, found {}", cli.speed),
            2,
        ));
    }
    if let Some(rate) = cli.rate
        && !(rate.is_finite() && rate > 0.0 && rate <= fake_publisher::scenario::MAX_RATE)
    {
        return Err(fail(
            format!("error: --rate must be > 0 and <= 1000 Hz, found {rate}"),
            2,
        ));
    }
    if let Some(s) = cli.seconds
        && !(s.is_finite() && s >= 0.0)
    {
        return Err(fail(format!("error: --seconds must be >= 0, found {s}"), 2));
    }
    let mut scenario = load_scenario(path).map_err(|e| fail(e, 2))?;
    if let Some(rate) = cli.rate {
        scenario.rate = rate;
    }
    let config = scenario.config_path(path);
    let outcome = decision_core::robomaster::load(&config);
    let Some(tables) = outcome.tables else {
        for d in outcome.diagnostics.errors() {
            eprintln!("{d}");
        }
        return Err(fail(
            format!("{}: the field does not load", config.display()),
            2,
        ));
    };
    let mut sim = Simulation::new(&scenario, Arc::new(tables), cli.seed).map_err(|e| fail(e, 2))?;

    let interrupted = Arc::new(AtomicBool::new(false));
    let connected = Arc::new(AtomicBool::new(false));
    {
        let interrupted = Arc::clone(&interrupted);
        let connected = Arc::clone(&connected);
        let handler = move || {
            if !connected.load(Ordering::Acquire) {
                // Still waiting for the bus: nothing to clean up.
                eprintln!("interrupted while connecting");
                std::process::exit(130);
            }
            interrupted.store(true, Ordering::Release);
        };
        if let Err(e) = ctrlc::set_handler(handler) {
            eprintln!("warning: cannot install the Ctrl-C handler: {e}");
        }
    }

    let chosen = cli
        .bus
        .bus_options(false, "fake_publisher")
        .map_err(|e| fail(format!("error: {e}"), 2))?;
    let options = chosen.zenoh();
    eprintln!(
        "fake-publisher: {} (seed {}, {} Hz, speed x{}), connecting to {} as {} ({})",
        path.display(),
        cli.seed,
        1.0 / sim.publish_period(),
        cli.speed,
        if options.connect.is_empty() {
            options.listen.join(", ")
        } else {
            options.connect.join(", ")
        },
        options.mode.as_str(),
        match &chosen {
            BusOptions::Ros2(_) => "ROS 2".to_owned(),
            BusOptions::Zenoh(z) => format!("namespace \"{}\"", z.namespace),
        }
    );
    let bus = chosen.open().map_err(|e| fail(format!("error: {e}"), 1))?;
    connected.store(true, Ordering::Release);
    let subscription = bus
        .subscribe(&[topics::NAV_GOAL, topics::NAV_CANCEL, topics::DECISION])
        .map_err(|e| fail(format!("error: {e}"), 1))?;

    let period = sim.publish_period();
    let wall_period = Duration::try_from_secs_f64(period / cli.speed).unwrap_or(Duration::MAX);
    let limit = cli.seconds;
    let mut malformed = RateLimited::default();
    let mut rejected = RateLimited::default();
    let mut publish_errors = RateLimited::default();
    let mut last_second: Option<i64> = None;
    let start = Instant::now();
    let mut frames: u32 = 0;
    loop {
        let mut frame = sim.frame();
        if !cli.sim_stamps {
            frame.restamp(unix_time());
        }
        if let Err(e) = frame.publish(&bus) {
            if bus.is_closed() {
                return Err(fail(format!("error: {e}"), 1));
            }
            publish_errors.log(|| format!("publish failed: {e}"));
        }
        let second = (sim.time() + 1e-6).floor() as i64;
        // A status line a second; when stdout's reader has gone away (`| head`), the run
        // stops quietly (the bus session stays in charge of its sockets, so no SIGPIPE here).
        if last_second != Some(second) {
            if !say(format_args!("{}", status_line(&sim, &frame))) {
                break;
            }
            last_second = Some(second);
        }
        if sim.finished() {
            say(format_args!(
                "match over at {:.1} s: {}",
                sim.time(),
                outcome_words(&sim)
            ));
            break;
        }
        if limit.is_some_and(|l| sim.time() + 1e-9 >= l) {
            say(format_args!(
                "stopped after {:.1} simulated seconds (--seconds)",
                sim.time()
            ));
            break;
        }
        // Take in what the node sends while waiting for the next frame's wall time.
        frames = frames.saturating_add(1);
        let deadline = start
            .checked_add(wall_period.saturating_mul(frames))
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        loop {
            if interrupted.load(Ordering::Acquire) {
                break;
            }
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            let wait = (deadline - now).min(Duration::from_millis(50));
            if let Some(received) = subscription.recv_timeout(wait) {
                handle(&mut sim, &received, &mut malformed, &mut rejected);
            }
        }
        while let Some(received) = subscription.try_recv() {
            handle(&mut sim, &received, &mut malformed, &mut rejected);
        }
        if interrupted.load(Ordering::Acquire) {
            println!("interrupted at {:.1} simulated seconds", sim.time());
            break;
        }
        sim.step(period);
    }
    bus.close();
    Ok(())
}

/// Seconds since the UNIX epoch (the stamps a live node expects).
fn unix_time() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Applies one message from the node to the simulation.
fn handle(
    sim: &mut Simulation,
    received: &bus::Received,
    malformed: &mut RateLimited,
    rejected: &mut RateLimited,
) {
    match received.topic.as_str() {
        topics::NAV_GOAL => match received.decode::<NavGoal>() {
            Ok(goal) => {
                let before = sim.rejected_goals();
                sim.on_goal(&goal);
                if sim.rejected_goals() > before {
                    rejected.log(|| {
                        format!(
                            "goal {} ignored: it needs at least one pose, all values finite",
                            goal.goal_id
                        )
                    });
                }
            }
            Err(e) => malformed.log(|| format!("malformed message ignored: {e}")),
        },
        topics::NAV_CANCEL => match received.decode::<NavCancel>() {
            Ok(cancel) => sim.on_cancel(&cancel),
            Err(e) => malformed.log(|| format!("malformed message ignored: {e}")),
        },
        topics::DECISION => match received.decode::<DecisionMsg>() {
            Ok(decision) => sim.on_decision(&decision),
            Err(e) => malformed.log(|| format!("malformed message ignored: {e}")),
        },
        _ => {}
    }
}

/// One line of progress: time, stage, our robot, Nav2, structures, mode, auto-aim.
fn status_line(sim: &Simulation, frame: &Frame) -> String {
    let hp = sim.hp();
    let ours = sim.own_index();
    let me = sim.robots().get(ours);
    let (x, y, own_hp) = me.map_or((0.0, 0.0, 0), |r| (r.x, r.y, r.hp));
    let hp_at = |i: usize| hp.get(i).copied().unwrap_or(0);
    let (outpost, base) = if ours < 6 { (6, 7) } else { (14, 15) };
    let nav = match sim.nav_status() {
        0 => "idle",
        1 => "accepted",
        2 => "executing",
        3 => "canceling",
        4 => "succeeded",
        5 => "canceled",
        _ => "aborted",
    };
    let aim = match &frame.autoaim {
        Some(a) if !a.is_target_lost => "target",
        Some(_) => "lost",
        None => "off",
    };
    format!(
        "t {:6.1} s  stage {}  remaining {:5.1} s | self ({x:5.2}, {y:5.2}) hp {own_hp:4} | nav {nav:9} | outpost {:4} base {:4} | mode {} | aim {aim}",
        sim.time(),
        frame.game_info.game_stage,
        frame.game_info.timestamp,
        hp_at(outpost),
        hp_at(base),
        sim.mode(),
    )
}

/// Why the match ended.
fn outcome_words(sim: &Simulation) -> &'static str {
    let hp = sim.hp();
    match (hp.get(7), hp.get(15)) {
        (Some(0), _) => "the red base is destroyed",
        (_, Some(0)) => "the blue base is destroyed",
        _ => "time is up",
    }
}

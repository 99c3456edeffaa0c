//! `robot-decision`: check, explain and run RoboMaster decision files.

mod check;
mod decide;
mod schema;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Robot macro-decisions from decisions.json / waypoints.json.
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
    /// Check a config and the files it names; exit 0 clean or warnings only, 1 errors.
    Check {
        /// The config.json file.
        config: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Decide offline: one JSON snapshot per input line, one JSON result per output line.
    Decide {
        /// The config.json file.
        config: PathBuf,
        /// The snapshots (JSON Lines); `-` reads standard input.
        #[arg(long)]
        input: PathBuf,
    },
    /// Print the JSON Schema of a file format, for editor validation.
    Schema {
        /// Which format.
        #[arg(value_enum)]
        which: schema::Which,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { config, format } => check::run(&config, format),
        Command::Decide { config, input } => decide::run(&config, &input),
        Command::Schema { which } => schema::run(which),
    }
}

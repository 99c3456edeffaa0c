//! The AFL++ harness: `FUZZ_TARGET` names one of `fuzz_targets::TARGETS`; AFL feeds it inputs
//! in persistent mode. A panic aborts the process, which AFL records as a crash.

fn main() {
    let name = std::env::var("FUZZ_TARGET").unwrap_or_default();
    let Some(target) = fuzz_targets::target(&name) else {
        let names: Vec<&str> = fuzz_targets::TARGETS.iter().map(|t| t.name).collect();
        eprintln!("FUZZ_TARGET must be one of: {}", names.join(", "));
        std::process::exit(2);
    };
    afl::fuzz!(|data: &[u8]| {
        (target.run)(data);
    });
}

//! `robot-decision bt`: runs a BehaviorTree.CPP tree (XML or JSON5) with the benchmark leaves
//! on JSON Lines input and prints each tick's trace, or times the benchmark schedule. The
//! contract (input, output, errors) is `soccer_contract.md` section A.

use decision_core::engine::blackboard::{Blackboards, EntrySlot, EntryType, ScopeId, Value};
use decision_core::engine::{
    CompileError, Registry, Tree, TreeSpec, bench_leaves, compile_with, nodes,
};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// The leaf vocabulary of a `bt` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Leaves {
    /// `CheckKey`, `Work` and `Noop` of the shared benchmark.
    Bench,
}

/// What `bt` should do with the tree.
pub enum Mode<'a> {
    /// Tick once per input line and print the traces.
    Input(&'a Path),
    /// Time the benchmark schedule for `ticks` ticks (None: whole periods for about 2 s).
    Bench(Option<u64>),
}

/// The registry of a `bt` run: the standard library and the chosen leaves.
pub fn registry(leaves: Leaves) -> Registry<()> {
    let mut registry = Registry::new();
    nodes::register_standard(&mut registry);
    match leaves {
        Leaves::Bench => bench_leaves::register(&mut registry),
    }
    registry
}

/// Prints load and compile errors as `file:line:col: error: message` (the position names
/// the node or port; a node without a position is named by its path from the root).
pub fn print_compile_errors(errors: &[CompileError], file: &Path) {
    for e in errors {
        match &e.span {
            Some(s) => eprintln!("{}:{}:{}: error: {}", s.file, s.line, s.column, e.message),
            None => eprintln!(
                "{}:1:1: error: {}: {}",
                file.display(),
                e.node_path,
                e.message
            ),
        }
    }
}

/// Loads a tree file, printing its diagnostics on failure.
pub fn load_spec(tree: &Path, main_tree: Option<&str>) -> Option<TreeSpec> {
    match bt_xml::load_any(tree, main_tree) {
        Ok(spec) => Some(spec),
        Err(diagnostics) => {
            for d in diagnostics {
                eprintln!("{d}");
            }
            None
        }
    }
}

/// Runs `bt`.
pub fn run(tree: &Path, main_tree: Option<&str>, leaves: Leaves, mode: Mode<'_>) -> ExitCode {
    let Some(spec) = load_spec(tree, main_tree) else {
        return ExitCode::from(1);
    };
    let registry = registry(leaves);
    match mode {
        Mode::Input(input) => run_input(&spec, &registry, tree, input),
        Mode::Bench(ticks) => run_bench(&spec, &registry, tree, ticks),
    }
}

/// One input line's writes, in file order.
type Writes = Vec<(String, Value)>;

/// Parses `{"set": {...}}`; the error names the column and field.
fn parse_line(line: &str) -> Result<Writes, (usize, String, String)> {
    let doc: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| (e.column(), ".".to_owned(), strip_position(&e.to_string())))?;
    let serde_json::Value::Object(top) = doc else {
        return Err((1, ".".into(), "expected an object".into()));
    };
    let mut writes = Vec::new();
    for (key, value) in top {
        if key != "set" {
            return Err((0, key, "unknown key (only `set` is allowed)".into()));
        }
        let serde_json::Value::Object(entries) = value else {
            return Err((0, "set".into(), "expected an object".into()));
        };
        for (name, v) in entries {
            let value = match v {
                serde_json::Value::Bool(b) => Value::Bool(b),
                serde_json::Value::String(s) => Value::Str(s),
                serde_json::Value::Number(n) => match n.as_i64() {
                    Some(i) => Value::Int(i),
                    None => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
                },
                other => {
                    return Err((
                        0,
                        format!("set.{name}"),
                        format!("expected an int, a number, a bool or a string, got {other}"),
                    ));
                }
            };
            writes.push((name, value));
        }
    }
    Ok(writes)
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// One output line in the contract's exact form:
/// `{"tick": I, "status": S, "trace": [["name", "S"], ...]}` and a newline.
pub fn trace_line<C>(
    tree: &Tree<C>,
    tick: u64,
    status: decision_core::engine::Status,
    out: &mut String,
) {
    use std::fmt::Write as _;
    let _ = write!(
        out,
        "{{\"tick\": {tick}, \"status\": \"{}\", \"trace\": [",
        status.as_upper()
    );
    for (i, e) in tree.trace().entries().iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let name = tree.name(e.node).unwrap_or("");
        let _ = write!(out, "[{}, \"{}\"]", json_string(name), e.status.as_upper());
    }
    out.push_str("]}\n");
}

fn strip_position(message: &str) -> String {
    message
        .split(" at line ")
        .next()
        .unwrap_or(message)
        .to_owned()
}

/// Writes input values as BT.CPP's `Blackboard::set` does: a value of another type than the
/// entry's is refused (a string is parsed into the entry's type instead).
fn write_all(bbs: &mut Blackboards, scope: ScopeId, writes: Writes) -> Result<(), String> {
    for (key, value) in writes {
        if let Some(slot) = bbs.reserve(scope, &key)
            && let Some(ty) = bbs.slot_type(slot)
            && !matches!(ty, EntryType::Any | EntryType::Str)
            && !matches!(value, Value::Str(_))
            && value.entry_type() != ty
        {
            return Err(format!(
                "cannot write `{key}`: the entry has type {ty}, and the type of an entry cannot \
                 change (got {})",
                value.type_name()
            ));
        }
        bbs.set(scope, &key, value)
            .map_err(|e| format!("cannot write `{key}`: {e}"))?;
    }
    Ok(())
}

fn run_input(spec: &TreeSpec, registry: &Registry<()>, tree_path: &Path, input: &Path) -> ExitCode {
    let reader: Box<dyn Read> = if input == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(input) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("{}: cannot read: {e}", input.display());
                return ExitCode::from(1);
            }
        }
    };
    let mut lines = BufReader::new(reader).lines().enumerate();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut malformed = 0usize;
    let report = |index: usize, (column, field, message): (usize, String, String)| {
        eprintln!(
            "{}:{}:{}: `{}`: {}",
            input.display(),
            index + 1,
            column,
            field,
            message
        );
    };

    // The first good line's keys exist before the tree is built (they keep their types).
    let mut blackboards = Blackboards::new();
    let root = blackboards.new_root();
    let mut pending: Option<Writes> = None;
    let mut early_output: Vec<String> = Vec::new();
    for (index, line) in lines.by_ref() {
        let Ok(line) = line else {
            eprintln!("{}:{}: cannot read", input.display(), index + 1);
            return ExitCode::from(1);
        };
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(&line) {
            Ok(writes) => {
                pending = Some(writes);
                break;
            }
            Err(e) => {
                report(index, e);
                malformed += 1;
                early_output.push(r#"{"skipped": "malformed_input"}"#.to_owned());
            }
        }
    }
    if let Some(writes) = &pending
        && let Err(message) = write_all(&mut blackboards, root, writes.clone())
    {
        eprintln!("{}: {message}", input.display());
        return ExitCode::from(1);
    }
    let mut tree: Tree<()> = match compile_with(spec, registry, blackboards, root) {
        Ok(t) => t,
        Err(errors) => {
            print_compile_errors(&errors, tree_path);
            return ExitCode::from(1);
        }
    };
    for text in &early_output {
        let _ = writeln!(out, "{text}");
    }
    let mut tick = 0u64;
    let mut line_buf = String::new();
    let mut first = pending.map(|_| Vec::new());
    loop {
        let writes = match first.take() {
            Some(w) => w, // already written before the tree was built
            None => {
                let Some((index, line)) = lines.next() else {
                    break;
                };
                let Ok(line) = line else {
                    eprintln!("{}:{}: cannot read", input.display(), index + 1);
                    return ExitCode::from(1);
                };
                if line.trim().is_empty() {
                    continue;
                }
                match parse_line(&line) {
                    Ok(w) => w,
                    Err(e) => {
                        report(index, e);
                        malformed += 1;
                        let _ = writeln!(out, r#"{{"skipped": "malformed_input"}}"#);
                        continue;
                    }
                }
            }
        };
        let scope = tree.root_scope();
        let result = write_all(tree.blackboard_mut(), scope, writes).and_then(|()| {
            tree.try_tick(&mut (), tick as f64)
                .map_err(|e| e.to_string())
        });
        match result {
            Ok(status) => {
                line_buf.clear();
                trace_line(&tree, tick, status, &mut line_buf);
                if out.write_all(line_buf.as_bytes()).is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            Err(message) => {
                let _ = writeln!(
                    out,
                    "{{\"tick\": {tick}, \"error\": {}}}",
                    json_string(&message)
                );
                let _ = out.flush();
                return ExitCode::from(1);
            }
        }
        tick += 1;
    }
    let _ = out.flush();
    if malformed > 0 {
        eprintln!("{}: {malformed} malformed line(s) skipped", input.display());
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The root slots of the schedule's entries, resolved once (resolving allocates).
pub fn schedule_slots(tree: &mut Tree<()>) -> Vec<Option<EntrySlot>> {
    let scope = tree.root_scope();
    bench_leaves::schedule(0)
        .iter()
        .map(|(key, _)| tree.blackboard_mut().reserve(scope, key))
        .collect()
}

/// Writes the schedule's changed entries before tick `i`; an entry that a string port
/// created (e.g. a `Switch` variable) gets the number's text, as BT.CPP needs.
pub fn write_schedule(
    tree: &mut Tree<()>,
    i: u64,
    slots: &[Option<EntrySlot>],
    last: &mut [Option<i64>; 7],
) {
    let bbs = tree.blackboard_mut();
    for (k, ((_, value), slot)) in bench_leaves::schedule(i).into_iter().zip(slots).enumerate() {
        if last[k] == Some(value) {
            continue;
        }
        last[k] = Some(value);
        let Some(slot) = *slot else {
            continue;
        };
        let written = if bbs.slot_type(slot) == Some(EntryType::Str) {
            bbs.set_slot_str(slot, itoa::Buffer::new().format(value))
        } else {
            bbs.set_slot(slot, Value::Int(value))
        };
        debug_assert!(written.is_ok(), "schedule write refused: {written:?}");
    }
}

/// Times `ticks` ticks of the schedule with tracing off: (ns per tick, visits per tick).
pub fn time_schedule(tree: &mut Tree<()>, start: u64, ticks: u64) -> (f64, f64) {
    let slots = schedule_slots(tree);
    let mut last = [None; 7];
    let visits = tree.visits();
    let begin = Instant::now();
    for i in start..start + ticks {
        write_schedule(tree, i, &slots, &mut last);
        let _ = tree.try_tick(&mut (), i as f64);
    }
    let elapsed = begin.elapsed().as_nanos() as f64;
    let ticks = ticks.max(1) as f64;
    (elapsed / ticks, (tree.visits() - visits) as f64 / ticks)
}

fn run_bench(
    spec: &TreeSpec,
    registry: &Registry<()>,
    tree_path: &Path,
    ticks: Option<u64>,
) -> ExitCode {
    let mut blackboards = Blackboards::new();
    let root = blackboards.new_root();
    let mut tree = match compile_with(spec, registry, blackboards, root) {
        Ok(t) => t,
        Err(errors) => {
            print_compile_errors(&errors, tree_path);
            return ExitCode::from(1);
        }
    };
    tree.set_tracing(false);
    let period = bench_leaves::SCHEDULE_PERIOD;
    let ticks = ticks.unwrap_or_else(|| {
        // Whole periods for about 2 s, from one timed period.
        let (ns, _) = time_schedule(&mut tree, 0, period);
        let per_period = ns * period as f64;
        let periods = (2e9 / per_period.max(1.0)).floor().max(1.0) as u64;
        periods * period
    });
    let mut runs: Vec<(f64, f64)> = (0..5).map(|_| time_schedule(&mut tree, 0, ticks)).collect();
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (ns, visits) = runs[2];
    println!("{{\"ticks\": {ticks}, \"ns_per_tick\": {ns:.1}, \"visits_per_tick\": {visits:.3}}}");
    ExitCode::SUCCESS
}

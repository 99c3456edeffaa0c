//! `robot-decision bt`: runs a BehaviorTree.CPP tree (XML or JSON5) with the benchmark leaves
//! on JSON Lines input and prints each tick's trace, or times the benchmark schedule. Input,
//! output and errors: `docs/src/commands/bt.md`.

use crate::lines::{NumberedLines, line_text};
use decision_core::engine::blackboard::{Blackboards, EntryType, ScopeId, Value};
use decision_core::engine::{
    CompileError, Registry, Tree, TreeSpec, bench_leaves, compile_with, nodes,
};
use std::io::{BufReader, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// The leaf vocabulary of a `bt` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Leaves {
    /// `CheckKey`, `Work` and `Noop` of the behaviour-tree benchmark (`bt_xml/benches/trees/`).
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
    let doc: serde_json::Value = serde_json::from_str(line).map_err(|e| {
        let message = decision_core::strict_serde::without_position(&e.to_string());
        (e.column(), ".".to_owned(), message)
    })?;
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

/// One output line in its documented form:
/// `{"tick": I, "status": S, "trace": [["name", "S"], ...]}` and a newline.
pub fn trace_line<C>(
    tree: &Tree<C>,
    tick: u64,
    status: decision_core::engine::Status,
    out: &mut Vec<u8>,
) {
    // Writing into a Vec cannot fail.
    let _ = write!(
        out,
        "{{\"tick\": {tick}, \"status\": \"{}\", \"trace\": [",
        status.as_upper()
    );
    for (i, e) in tree.trace().entries().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        out.push(b'[');
        let _ = serde_json::to_writer(&mut *out, tree.name(e.node).unwrap_or(""));
        let _ = write!(out, ", \"{}\"]", e.status.as_upper());
    }
    out.extend_from_slice(b"]}\n");
}

/// Whether BT.CPP's `Blackboard::set` takes a number or bool of another type than the typed
/// entry's (`isCastingSafe`): into an int or double entry when the value converts exactly
/// (an input int is a C++ `int`), never into a bool or string entry.
fn is_casting_safe(ty: EntryType, value: &Value) -> bool {
    match (ty, value) {
        (EntryType::Int, Value::Bool(_)) | (EntryType::Double, Value::Bool(_)) => true,
        (EntryType::Int, Value::Double(d)) => {
            d.fract() == 0.0 && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(d)
        }
        (EntryType::Double, Value::Int(i)) => (*i as f64) as i64 == *i,
        _ => false,
    }
}

/// Writes input values as BT.CPP's `Blackboard::set` does: a value of another type than the
/// entry's is refused unless the cast is safe (a string is parsed into the entry's type).
fn write_all(bbs: &mut Blackboards, scope: ScopeId, writes: Writes) -> Result<(), String> {
    for (key, value) in writes {
        let slot = bbs
            .reserve(scope, &key)
            .ok_or_else(|| format!("cannot write `{key}`: not a valid blackboard key"))?;
        if let Some(ty) = bbs.slot_type(slot)
            && !matches!(ty, EntryType::Any)
            && !matches!(value, Value::Str(_))
            && value.entry_type() != ty
            && !is_casting_safe(ty, &value)
        {
            return Err(format!(
                "cannot write `{key}`: the entry has type {ty}, and the type of an entry cannot \
                 change (got {})",
                value.type_name()
            ));
        }
        bbs.set_slot(slot, value)
            .map_err(|e| format!("cannot write `{key}`: {e}"))?;
    }
    Ok(())
}

fn run_input(spec: &TreeSpec, registry: &Registry<()>, tree_path: &Path, input: &Path) -> ExitCode {
    let reader = match crate::open_input(input) {
        Ok(r) => r,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(1);
        }
    };
    // Every line, parsed (an empty or non-UTF-8 line is malformed); a read error ends the run.
    let mut lines = NumberedLines::new(BufReader::new(reader)).map(|(number, line)| {
        let index = number - 1;
        match line {
            Err(e) => Err(format!("{}:{number}: cannot read: {e}", input.display())),
            Ok(bytes) => Ok((
                index,
                line_text(&bytes)
                    .map_err(|fault| (fault.column, ".".to_owned(), fault.message))
                    .and_then(parse_line),
            )),
        }
    });
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut malformed = 0usize;
    let mut answer_malformed =
        |(index, (column, field, message)): (usize, (usize, String, String))| {
            eprintln!(
                "{}:{}:{column}: `{field}`: {message}",
                input.display(),
                index + 1
            );
            malformed += 1;
        };

    // The first good line's keys exist before the tree is built, untyped (BT.CPP's
    // `createEntry` with an any-type port info): no port clashes with them at load time, and
    // the line's writes, made before its tick, fix their types. The malformed lines before it
    // are answered once the tree is known to load.
    let mut blackboards = Blackboards::new();
    let root = blackboards.new_root();
    let mut malformed_before = 0usize;
    let mut first_writes = None;
    for item in lines.by_ref() {
        let (index, parsed) = match item {
            Ok(line) => line,
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::from(1);
            }
        };
        match parsed {
            Ok(writes) => {
                for (key, _) in &writes {
                    if let Err(e) = blackboards.create(root, key, EntryType::Any) {
                        eprintln!(
                            "{}:{}: cannot create `{key}`: {e}",
                            input.display(),
                            index + 1
                        );
                        return ExitCode::from(1);
                    }
                }
                first_writes = Some(writes);
                break;
            }
            Err(e) => {
                answer_malformed((index, e));
                malformed_before += 1;
            }
        }
    }
    let mut tree: Tree<()> = match compile_with(spec, registry, blackboards, root) {
        Ok(t) => t,
        Err(errors) => {
            print_compile_errors(&errors, tree_path);
            return ExitCode::from(1);
        }
    };
    for _ in 0..malformed_before {
        let _ = writeln!(out, "{MALFORMED_ANSWER}");
    }
    let mut tick = 0u64;
    let mut line_buf = Vec::new();
    // The first good line's tick comes first.
    let mut pending = first_writes;
    loop {
        let writes = match pending.take() {
            Some(writes) => writes,
            None => match lines.next() {
                None => break,
                Some(Err(message)) => {
                    eprintln!("{message}");
                    return ExitCode::from(1);
                }
                Some(Ok((index, Err(e)))) => {
                    answer_malformed((index, e));
                    let _ = writeln!(out, "{MALFORMED_ANSWER}");
                    continue;
                }
                Some(Ok((_, Ok(writes)))) => writes,
            },
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
                if out.write_all(&line_buf).is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            Err(message) => {
                let _ = write!(out, "{{\"tick\": {tick}, \"error\": ");
                let _ = serde_json::to_writer(&mut out, &message);
                let _ = writeln!(out, "}}");
                let _ = out.flush();
                return ExitCode::from(1);
            }
        }
        tick += 1;
    }
    let _ = out.flush();
    // The end of the run destroys the tree, which halts every node as BT.CPP does; an
    // `_onHalted` script that fails there is reported (BT.CPP aborts).
    if let Err(e) = tree.halt_as_destroyed(&mut ()) {
        eprintln!(
            "{}: error: when the tree is destroyed: {e}",
            tree_path.display()
        );
        return ExitCode::from(1);
    }
    if malformed > 0 {
        eprintln!("{}: {malformed} malformed line(s) skipped", input.display());
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The answer to a malformed input line.
const MALFORMED_ANSWER: &str = r#"{"skipped": "malformed_input"}"#;

/// Runs ticks `start..start + ticks` of the schedule (tracing off).
fn run_schedule(tree: &mut Tree<()>, start: u64, ticks: u64) {
    let mut writer = bench_leaves::ScheduleWriter::new(tree);
    for i in start..start + ticks {
        let written = writer.write(tree, i);
        debug_assert!(written.is_ok(), "schedule write refused: {written:?}");
        let _ = tree.try_tick(&mut (), i as f64);
    }
}

/// Times `ticks` ticks of the schedule with tracing off and visits not counted: ns per tick.
pub fn time_schedule(tree: &mut Tree<()>, start: u64, ticks: u64) -> f64 {
    tree.set_counting_visits(false);
    let begin = Instant::now();
    run_schedule(tree, start, ticks);
    begin.elapsed().as_nanos() as f64 / ticks.max(1) as f64
}

/// The node visits per tick of `ticks` ticks of the schedule, in an untimed run (counting
/// costs time of its own: see [`Tree::set_counting_visits`]).
pub fn visits_per_tick(tree: &mut Tree<()>, start: u64, ticks: u64) -> f64 {
    tree.set_counting_visits(true);
    let before = tree.visits();
    run_schedule(tree, start, ticks);
    tree.set_counting_visits(false);
    (tree.visits() - before) as f64 / ticks.max(1) as f64
}

fn run_bench(
    spec: &TreeSpec,
    registry: &Registry<()>,
    tree_path: &Path,
    ticks: Option<u64>,
) -> ExitCode {
    let mut tree = match bench_leaves::compile_for_schedule(spec.clone(), registry) {
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
        let ns = time_schedule(&mut tree, 0, period);
        let per_period = ns * period as f64;
        let periods = (2e9 / per_period.max(1.0)).floor().max(1.0) as u64;
        periods * period
    });
    let mut runs: Vec<f64> = (0..5).map(|_| time_schedule(&mut tree, 0, ticks)).collect();
    runs.sort_by(f64::total_cmp);
    let ns = runs[2];
    let visits = visits_per_tick(&mut tree, 0, ticks);
    println!("{{\"ticks\": {ticks}, \"ns_per_tick\": {ns:.1}, \"visits_per_tick\": {visits:.3}}}");
    ExitCode::SUCCESS
}

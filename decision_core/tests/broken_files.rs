//! A corpus of broken input files for the RoboMaster loader
//! (the rules of `docs/src/formats/decisions.md`, "Reading the files"). Every case writes complete file texts into a
//! fresh copy of the fixture field, loads it, and checks that loading does not panic, that
//! `tables` is `None` exactly when there is an error, and that the diagnostics are exactly
//! the expected ones: severity, file, line, column, field, (where given) subject, and a
//! message substring.
//!
//! The texts are raw strings whose first line is the line right after `r#"`, so the line
//! numbers can be read off the text; columns count characters from 1.

mod common;

use common::Field;
use decision_core::robomaster::load::{LoadOutcome, load};
use decision_core::robomaster::{Diagnostic, Severity};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

const CFG: &str = "JsonFile/config.json";
const DEC: &str = "JsonFile/decisions.json";
const WPS: &str = "JsonFile/waypoints.json";

/// Which file of the fixture field a case replaces.
#[derive(Debug, Clone, Copy)]
enum Target {
    Config,
    Decisions,
    Waypoints,
    Map,
}

impl Target {
    fn path(self, field: &Field) -> PathBuf {
        match self {
            Target::Config => field.config_path(),
            Target::Decisions => field.json_path("decisions.json"),
            Target::Waypoints => field.json_path("waypoints.json"),
            Target::Map => field.dir.path().join("resources/wall.png"),
        }
    }
}

/// One expected diagnostic.
struct Exp {
    severity: Severity,
    file: &'static str,
    line: u32,
    column: u32,
    field: Option<&'static str>,
    subject: Option<&'static str>,
    message: &'static str,
}

fn err(
    file: &'static str,
    line: u32,
    column: u32,
    field: Option<&'static str>,
    message: &'static str,
) -> Exp {
    Exp {
        severity: Severity::Error,
        file,
        line,
        column,
        field,
        subject: None,
        message,
    }
}

fn warn(
    file: &'static str,
    line: u32,
    column: u32,
    field: Option<&'static str>,
    message: &'static str,
) -> Exp {
    Exp {
        severity: Severity::Warning,
        file,
        line,
        column,
        field,
        subject: None,
        message,
    }
}

impl Exp {
    /// Also requires this subject.
    fn on(mut self, subject: &'static str) -> Self {
        self.subject = Some(subject);
        self
    }

    fn matches(&self, d: &Diagnostic) -> bool {
        d.severity == self.severity
            && d.file.ends_with(self.file)
            && d.line == self.line
            && d.column == self.column
            && d.field.as_deref() == self.field
            && self.subject.is_none_or(|s| d.subject.as_deref() == Some(s))
            && d.message.contains(self.message)
    }
}

impl fmt::Display for Exp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} {}:{}:{} field {:?}",
            self.severity, self.file, self.line, self.column, self.field
        )?;
        if let Some(s) = self.subject {
            write!(f, " subject {s:?}")?;
        }
        write!(f, " message ~ {:?}", self.message)
    }
}

/// One broken configuration: the files it replaces and every diagnostic it must produce.
struct Case {
    name: &'static str,
    files: Vec<(Target, Vec<u8>)>,
    expect: Vec<Exp>,
}

fn case(name: &'static str, target: Target, content: impl AsRef<[u8]>, expect: Vec<Exp>) -> Case {
    Case {
        name,
        files: vec![(target, content.as_ref().to_vec())],
        expect,
    }
}

/// Writes the case into a fresh field and loads it; a panic is a failure, not an abort.
fn load_case(c: &Case) -> Result<LoadOutcome, String> {
    let field = Field::new();
    for (target, content) in &c.files {
        match (target, std::str::from_utf8(content)) {
            (Target::Decisions, Ok(text)) => field.write("decisions.json", text),
            (Target::Waypoints, Ok(text)) => field.write("waypoints.json", text),
            (Target::Config, Ok(text)) => field.write("config.json", text),
            _ => std::fs::write(target.path(&field), content).expect("write"),
        }
    }
    let path = field.config_path();
    let outcome =
        catch_unwind(AssertUnwindSafe(|| load(&path))).map_err(|_| "load panicked".to_string())?;
    // Display must not panic either, and keeps `field` alive until here.
    let _ = outcome.diagnostics.to_string();
    drop(field);
    Ok(outcome)
}

fn run_case(c: &Case) -> Result<LoadOutcome, String> {
    let outcome = load_case(c)?;
    let items = outcome.diagnostics.items();
    let mut problems = Vec::new();
    for e in &c.expect {
        if !items.iter().any(|d| e.matches(d)) {
            problems.push(format!("  missing: {e}"));
        }
    }
    for severity in [Severity::Error, Severity::Warning] {
        let want = c.expect.iter().filter(|e| e.severity == severity).count();
        let got = items.iter().filter(|d| d.severity == severity).count();
        if want != got {
            problems.push(format!("  expected {want} {severity:?}(s), got {got}"));
        }
    }
    let has_errors = c.expect.iter().any(|e| e.severity == Severity::Error);
    match (has_errors, outcome.tables.is_some()) {
        (true, true) => problems.push("  tables is Some although there are errors".into()),
        (false, false) => problems.push("  tables is None for a case without errors".into()),
        _ => {}
    }
    if problems.is_empty() {
        Ok(outcome)
    } else {
        Err(format!(
            "{}\n  got:\n{}",
            problems.join("\n"),
            indent(&outcome.diagnostics.to_string())
        ))
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

fn check_all(cases: Vec<Case>) {
    let total = cases.len();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            run_case(c)
                .err()
                .map(|why| format!("case `{}`:\n{why}", c.name))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ----------------------------------------------------------------------------------------
// Syntax
// ----------------------------------------------------------------------------------------

#[test]
fn syntax_errors() {
    let deep = format!("{{\n    \"data\": {}\n}}\n", "[".repeat(200));
    let non_utf8 = r#"{
    "data": [
        {"id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "le@ft", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#
    .replace('@', "\u{1}")
    .into_bytes()
    .into_iter()
    .map(|b| if b == 1 { 0xFF } else { b })
    .collect::<Vec<u8>>();
    check_all(vec![
        case(
            "missing comma between members",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 8, 13, None, "missing comma")],
        ),
        case(
            "missing comma between array items",
            Target::Waypoints,
            r#"{
    "data": [
        {"id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"connect": [0 3], "id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![err(WPS, 4, 24, None, "expected `,` or `]` in array")],
        ),
        case(
            "missing colon",
            Target::Config,
            r#"{
    "config": {
        "Debug" false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }
}
"#,
            vec![err(CFG, 3, 17, None, "expected `:` after key \"Debug\"")],
        ),
        case(
            "unterminated string",
            Target::Waypoints,
            r#"{
    "data": [
        {"id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3],
         "name": "left},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![err(WPS, 5, 18, None, "unterminated string")],
        ),
        case(
            "unterminated block comment",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        /* seconds
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }
}
"#,
            vec![err(CFG, 10, 9, None, "unterminated /* comment")],
        ),
        case(
            "stray single slash",
            Target::Config,
            r#"{
    / the test field
    "config": {
        "Debug": false
    }
}
"#,
            vec![err(CFG, 2, 5, None, "unexpected `/`")],
        ),
        case(
            "trailing garbage",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
}
"#,
            vec![err(DEC, 15, 1, None, "after the document's value")],
        ),
        case(
            "bare word",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": go_left, "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 4, 30, None, "unknown word `go_left`")],
        ),
        case(
            "single-quoted key",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        'WayPointsPATH': "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png"
    }
}
"#,
            vec![err(CFG, 4, 9, None, "double quotes")],
        ),
        case(
            "single-quoted value",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": 'wall.png'
    }
}
"#,
            vec![err(CFG, 6, 21, None, "double quotes")],
        ),
        case(
            "NaN literal",
            Target::Waypoints,
            r#"{
    "data": [
        {"x": NaN, "id": 0, "name": "top", "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![err(WPS, 3, 15, None, "`NaN`")],
        ),
        case(
            "Infinity literal",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": Infinity,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 4, 51, None, "`Infinity`")],
        ),
        case(
            "-Infinity literal",
            Target::Waypoints,
            r#"{
    "data": [
        {"angle": -Infinity, "id": 0, "name": "top", "x": 6.0, "y": 1.5, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![err(WPS, 3, 19, None, "`-Infinity`")],
        ),
        case(
            "leading zeros",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 0100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 4, 51, None, "malformed number `0100`")],
        ),
        case(
            "lone minus",
            Target::Waypoints,
            r#"{
    "data": [
        {"y": -, "id": 0, "name": "top", "x": 6.0, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![err(WPS, 3, 15, None, "malformed number `-`")],
        ),
        case(
            "bad escape in a string",
            Target::Waypoints,
            r#"{
    "data": [
        {"name": "to\p", "id": 0, "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![err(WPS, 3, 21, None, "bad escape")],
        ),
        case(
            "empty file",
            Target::Decisions,
            "",
            vec![err(DEC, 1, 1, None, "end of file")],
        ),
        case(
            "only a comment",
            Target::Config,
            r#"// the config went missing
"#,
            vec![err(CFG, 2, 1, None, "end of file")],
        ),
        case(
            "unclosed root object",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
"#,
            vec![err(
                DEC,
                14,
                1,
                None,
                "end of file inside an object opened at 1:1",
            )],
        ),
        case(
            "BOM before an array root",
            Target::Decisions,
            "\u{feff}[\n    {\"id\": 0}\n]\n",
            vec![err(DEC, 1, 1, None, "root must be an object")],
        ),
        case(
            "UTF-16 file",
            Target::Config,
            b"\xFF\xFE{\x00\n\x00}\x00",
            vec![err(CFG, 1, 1, None, "byte 0xFF")],
        ),
        // 200 `[` from column 13 of line 2: the 128th (column 140) is one level too deep.
        case(
            "deep nesting",
            Target::Decisions,
            deep,
            vec![err(DEC, 2, 140, None, "nesting deeper than 128")],
        ),
        // The 0xFF byte stands where the `@` is drawn: line 4, column 30.
        case(
            "non-UTF-8 byte",
            Target::Waypoints,
            non_utf8,
            vec![err(WPS, 4, 30, None, "not UTF-8")],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Wrong roots
// ----------------------------------------------------------------------------------------

#[test]
fn wrong_roots() {
    check_all(vec![
        case(
            "array root",
            Target::Decisions,
            r#"[
    {"id": 0, "name": "go_left"}
]
"#,
            vec![err(DEC, 1, 1, None, "root must be an object")],
        ),
        case(
            "`data` missing",
            Target::Waypoints,
            r#"{
    "waypoints": [
        {"id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0, "connect": []}
    ]
}
"#,
            vec![err(WPS, 1, 1, Some("data"), "missing")],
        ),
        case(
            "`data` not an array",
            Target::Decisions,
            r#"{
    "data": {"id": 0, "name": "go_left"}
}
"#,
            vec![err(
                DEC,
                2,
                13,
                Some("data"),
                "expected a list of decisions, found an object",
            )],
        ),
        case(
            "empty `data`",
            Target::Waypoints,
            r#"{
    "data": []
}
"#,
            vec![err(WPS, 2, 13, Some("data"), "the list is empty")],
        ),
        case(
            "`config` missing",
            Target::Config,
            r#"{
    "Debug": false,
    "WayPointsPATH": "waypoints.json"
}
"#,
            vec![err(CFG, 1, 1, Some("config"), "missing")],
        ),
        case(
            "`config` not an object",
            Target::Config,
            r#"{
    "config": ["Debug", false]
}
"#,
            vec![err(
                CFG,
                2,
                15,
                Some("config"),
                "expected an object, found an array",
            )],
        ),
        case(
            "decision entry not an object",
            Target::Decisions,
            r#"{
    "data": [
        7
    ]
}
"#,
            vec![
                err(
                    DEC,
                    3,
                    9,
                    None,
                    "expected a decision object, found a number",
                )
                .on("decision #0"),
            ],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Types
// ----------------------------------------------------------------------------------------

#[test]
fn type_errors() {
    let go_left = "decision 0 \"go_left\"";
    check_all(vec![
        case(
            "string where a number belongs",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "decide_wayPoint": 1,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "weight": "100"
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    11,
                    23,
                    Some("weight"),
                    "expected an integer, found a string",
                )
                .on(go_left),
            ],
        ),
        // Waypoint 0 is left out; 1 and 2 still connect to it: that is no "unknown id".
        case(
            "array where a number belongs",
            Target::Waypoints,
            r#"{
    "data": [
        {"x": [6.0], "id": 0, "name": "top", "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![
                err(WPS, 3, 15, Some("x"), "expected a number, found an array")
                    .on("waypoint 0 \"top\""),
            ],
        ),
        case(
            "object where a bool belongs",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": {}, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    7,
                    30,
                    Some("if_succession"),
                    "expected a boolean, found an object",
                )
                .on(go_left),
            ],
        ),
        case(
            "string in an id list",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [1, "2"],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    10,
                    31,
                    Some("wayPointID[1]"),
                    "expected an integer, found a string",
                )
                .on(go_left),
            ],
        ),
        case(
            "nested list where ints belong",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[[1]], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    9,
                    33,
                    Some("friendPosition[0][0]"),
                    "expected an integer, found an array",
                )
                .on(go_left),
            ],
        ),
        case(
            "`wayPointID` not a list",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": 1,
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    10,
                    27,
                    Some("wayPointID"),
                    "expected a list of integers, found a number",
                )
                .on(go_left),
            ],
        ),
        case(
            "`enemyPosition` a flat list, not a list of lists",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [-1, -1, -1, -1, -1, -1],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    8,
                    31,
                    Some("enemyPosition[0]"),
                    "expected a list of integers, found a number",
                )
                .on(go_left),
                err(
                    DEC,
                    8,
                    35,
                    Some("enemyPosition[1]"),
                    "expected a list of integers, found a number",
                ),
                err(
                    DEC,
                    8,
                    39,
                    Some("enemyPosition[2]"),
                    "expected a list of integers, found a number",
                ),
                err(
                    DEC,
                    8,
                    43,
                    Some("enemyPosition[3]"),
                    "expected a list of integers, found a number",
                ),
                err(
                    DEC,
                    8,
                    47,
                    Some("enemyPosition[4]"),
                    "expected a list of integers, found a number",
                ),
                err(
                    DEC,
                    8,
                    51,
                    Some("enemyPosition[5]"),
                    "expected a list of integers, found a number",
                ),
            ],
        ),
        case(
            "`enemyPosition` a string",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": "anywhere",
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    8,
                    30,
                    Some("enemyPosition"),
                    "expected 6 lists of waypoint ids",
                )
                .on(go_left),
            ],
        ),
        case(
            "`connect` not a list",
            Target::Waypoints,
            r#"{
    "data": [
        {"connect": 1, "id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![
                err(
                    WPS,
                    3,
                    21,
                    Some("connect"),
                    "expected a list of waypoint ids, found a number",
                )
                .on("waypoint 0 \"top\""),
            ],
        ),
        case(
            "array where a string belongs",
            Target::Waypoints,
            r#"{
    "data": [
        {"name": ["top"], "id": 0, "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![
                err(
                    WPS,
                    3,
                    18,
                    Some("name"),
                    "expected a string, found an array",
                )
                .on("waypoint 0"),
            ],
        ),
        // One error only: the unusable width is not reported again as "must be > 0".
        case(
            "string where a real belongs in the config",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": "12",
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }
}
"#,
            vec![err(
                CFG,
                7,
                23,
                Some("REAL_WIDTH"),
                "expected a number, found a string",
            )],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Empty lists
// ----------------------------------------------------------------------------------------

#[test]
fn empty_lists() {
    let go_left = "decision 0 \"go_left\"";
    check_all(vec![
        case(
            "empty `wayPointID`",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 10, 27, Some("wayPointID"), "empty list").on(go_left)],
        ),
        case(
            "empty inner position list",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 8, 37, Some("enemyPosition[1]"), "empty list").on(go_left)],
        ),
        case(
            "`wayPointID` missing",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 3, 9, Some("wayPointID"), "missing").on(go_left)],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Dangling waypoint ids
// ----------------------------------------------------------------------------------------

#[test]
fn dangling_ids() {
    let go_left = "decision 0 \"go_left\"";
    check_all(vec![
        case(
            "dangling `decide_wayPoint`",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 9
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    11,
                    32,
                    Some("decide_wayPoint"),
                    "unknown waypoint id 9",
                )
                .on(go_left),
            ],
        ),
        case(
            "dangling `wayPointID` entry",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [1, 9],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 10, 31, Some("wayPointID"), "unknown waypoint id 9").on(go_left)],
        ),
        case(
            "dangling `friendPosition` entry",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [7], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    9,
                    39,
                    Some("friendPosition[1]"),
                    "unknown waypoint id 7",
                )
                .on(go_left),
            ],
        ),
        // The slot is on a line of its own: the error points there, not at the outer `[`.
        case(
            "dangling `enemyPosition` entry",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [
                [-1], [-1],
                [2, 8],
                [-1], [-1], [-1]
            ],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    10,
                    21,
                    Some("enemyPosition[2]"),
                    "unknown waypoint id 8",
                )
                .on(go_left),
            ],
        ),
        case(
            "dangling `connect` entry",
            Target::Waypoints,
            r#"{
    "data": [
        {"id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"connect": [1, 9], "id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![
                err(WPS, 6, 25, Some("connect"), "unknown waypoint id 9")
                    .on("waypoint 3 \"left_low\""),
            ],
        ),
        // -3 is reported once, as an invalid value, not again as an unknown id.
        case(
            "`decide_wayPoint` below -1",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": -3
        }
    ]
}
"#,
            vec![err(DEC, 11, 32, Some("decide_wayPoint"), "neither -1").on(go_left)],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Duplicates
// ----------------------------------------------------------------------------------------

#[test]
fn duplicate_ids() {
    check_all(vec![
        case(
            "duplicate decision id",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1], "decide_wayPoint": 1
        },
        {
            "name": "go_right", "weight": 50,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1], "decide_wayPoint": 2,
            "id": 0
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    20,
                    19,
                    Some("id"),
                    "duplicate id 0 (first used at line 4)",
                )
                .on("decision 0 \"go_right\""),
            ],
        ),
        case(
            "duplicate waypoint id",
            Target::Waypoints,
            r#"{
    "data": [
        {"id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 4, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [2]}
    ]
}
"#,
            vec![
                err(
                    WPS,
                    8,
                    16,
                    Some("id"),
                    "duplicate id 4 (first used at line 7)",
                )
                .on("waypoint 4 \"island\""),
            ],
        ),
        // The first "go_left" has an error of its own; its id still counts.
        case(
            "duplicate of a broken decision's id",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": "heavy",
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1], "decide_wayPoint": 1
        },
        {
            "name": "go_right", "weight": 50,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1], "decide_wayPoint": 2,
            "id": 0
        }
    ]
}
"#,
            vec![
                err(
                    DEC,
                    4,
                    51,
                    Some("weight"),
                    "expected an integer, found a string",
                ),
                err(
                    DEC,
                    20,
                    19,
                    Some("id"),
                    "duplicate id 0 (first used at line 4)",
                )
                .on("decision 0 \"go_right\""),
            ],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Non-finite and huge numbers
// ----------------------------------------------------------------------------------------

#[test]
fn non_finite_and_huge_numbers() {
    let go_left = "decision 0 \"go_left\"";
    check_all(vec![
        case(
            "1e999 in x",
            Target::Waypoints,
            r#"{
    "data": [
        {"x": 1e999, "id": 0, "name": "top", "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![err(WPS, 3, 15, Some("x"), "not finite").on("waypoint 0 \"top\"")],
        ),
        case(
            "1e39 in angle (beyond f32)",
            Target::Waypoints,
            r#"{
    "data": [
        {"angle": 1e39, "id": 0, "name": "top", "x": 6.0, "y": 1.5, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![err(WPS, 3, 19, Some("angle"), "too large").on("waypoint 0 \"top\"")],
        ),
        case(
            "1e999 in weight",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "decide_wayPoint": 1,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "weight": 1e999
        }
    ]
}
"#,
            vec![err(DEC, 11, 23, Some("weight"), "not finite").on(go_left)],
        ),
        case(
            "1e999 in a boolean field",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": 1e999,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 7, 51, Some("if_reverse"), "not finite").on(go_left)],
        ),
        case(
            "weight 1e20",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "decide_wayPoint": 1,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "weight": 1e20
        }
    ]
}
"#,
            vec![err(DEC, 11, 23, Some("weight"), "out of the integer range").on(go_left)],
        ),
        case(
            "negative id -3",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": -3, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 4, 19, Some("id"), "negative").on("decision -3 \"go_left\"")],
        ),
        case(
            "negative decide_mode -5",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": -5, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![err(DEC, 6, 28, Some("decide_mode"), "neither -1").on(go_left)],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Paths and the map
// ----------------------------------------------------------------------------------------

/// The config with one path replaced (line 4, 5 or 6).
fn config_with_paths(waypoints: &str, decisions: &str, map: &str) -> String {
    format!(
        r#"{{
    "config": {{
        "Debug": false,
        "WayPointsPATH": "{waypoints}",
        "DecisionsPATH": "{decisions}",
        "MAP_PATH": "{map}",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }}
}}
"#
    )
}

#[test]
fn bad_paths_and_maps() {
    let png = std::fs::read(common::fixture_dir().join("resources/wall.png")).expect("fixture map");
    // The fixture config names the map on line 7: `        "MAP_PATH" : "wall.png",`.
    check_all(vec![
        case(
            "WayPointsPATH to a missing file",
            Target::Config,
            config_with_paths("nowhere.json", "decisions.json", "wall.png"),
            vec![err(
                CFG,
                4,
                26,
                Some("WayPointsPATH"),
                "file \"nowhere.json\" not found",
            )],
        ),
        case(
            "DecisionsPATH to a missing file",
            Target::Config,
            config_with_paths("waypoints.json", "rules/none.json", "wall.png"),
            vec![err(
                CFG,
                5,
                26,
                Some("DecisionsPATH"),
                "file \"rules/none.json\" not found",
            )],
        ),
        case(
            "MAP_PATH to a missing file",
            Target::Config,
            config_with_paths("waypoints.json", "decisions.json", "nowhere.png"),
            vec![err(
                CFG,
                6,
                21,
                Some("MAP_PATH"),
                "file \"nowhere.png\" not found",
            )],
        ),
        case(
            "empty DecisionsPATH",
            Target::Config,
            config_with_paths("waypoints.json", "", "wall.png"),
            vec![err(CFG, 5, 26, Some("DecisionsPATH"), "empty path")],
        ),
        case(
            "map is not a PNG",
            Target::Map,
            "this is not an image\n",
            vec![err(CFG, 7, 22, Some("MAP_PATH"), "cannot decode PNG")],
        ),
        case(
            "map PNG truncated",
            Target::Map,
            &png[..png.len() / 2],
            vec![err(CFG, 7, 22, Some("MAP_PATH"), "cannot decode PNG")],
        ),
        case(
            "map PNG empty",
            Target::Map,
            b"",
            vec![err(CFG, 7, 22, Some("MAP_PATH"), "cannot decode PNG")],
        ),
        // The map cannot be scaled without a height, but it is still decoded and reported.
        Case {
            name: "REAL_HEIGHT 0 and a map that is not a PNG",
            files: vec![
                (
                    Target::Config,
                    config_with_paths("waypoints.json", "decisions.json", "wall.png")
                        .replace("\"REAL_HEIGHT\": 8.0", "\"REAL_HEIGHT\": 0")
                        .into_bytes(),
                ),
                (Target::Map, b"\x89PNG but not really".to_vec()),
            ],
            expect: vec![
                err(CFG, 8, 24, Some("REAL_HEIGHT"), "must be > 0"),
                err(CFG, 6, 21, Some("MAP_PATH"), "cannot decode PNG"),
            ],
        },
    ]);
}

// ----------------------------------------------------------------------------------------
// Config values
// ----------------------------------------------------------------------------------------

#[test]
fn config_values() {
    let crlf = r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 9,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }
}
"#
    .replace('\n', "\r\n");
    check_all(vec![
        case(
            "REAL_HEIGHT 0",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }
}
"#,
            vec![err(CFG, 8, 24, Some("REAL_HEIGHT"), "must be > 0")],
        ),
        // int(0.005 * 1080 / 8) = int(0.675) = 0 pixels.
        case(
            "STEP_DISTANCE below one pixel",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.005,
        "GAME_TIME": 420
    }
}
"#,
            vec![err(CFG, 19, 26, Some("STEP_DISTANCE"), "= 0)")],
        ),
        case(
            "INIT_SELFINDEX 9",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 9,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }
}
"#,
            vec![err(CFG, 16, 27, Some("INIT_SELFINDEX"), "must be 0..5")],
        ),
        case(
            "INIT_SELFINDEX 9 with CRLF line ends",
            Target::Config,
            crlf,
            vec![err(CFG, 16, 27, Some("INIT_SELFINDEX"), "must be 0..5")],
        ),
        case(
            "bad PATH_PLANNING string",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "PATH_PLANNING": "astar",
        "GAME_TIME": 420
    }
}
"#,
            vec![err(
                CFG,
                20,
                26,
                Some("PATH_PLANNING"),
                "expected one of \"dfs\", \"shortest\", found \"astar\"",
            )],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Warnings only: the tables load
// ----------------------------------------------------------------------------------------

#[test]
fn warnings_only() {
    let go_left = "decision 0 \"go_left\"";
    let config = r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }
}
"#;
    check_all(vec![
        case(
            "a UTF-8 BOM is not an error",
            Target::Config,
            format!("\u{feff}{config}"),
            vec![],
        ),
        case(
            "comments, trailing commas and duplicate keys (the last wins)",
            Target::Decisions,
            r#"{
    // one rule
    "data": [
        {
            "id": 0, "name": "go_left", "weight": "heavy", /* replaced below */ "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1],],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1,
        },
    ]
}
"#,
            vec![],
        ),
        case(
            "real in an int field",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "decide_wayPoint": 1,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "weight": 100.7
        }
    ]
}
"#,
            vec![
                warn(
                    DEC,
                    11,
                    23,
                    Some("weight"),
                    "real 100.7 truncated to integer 100",
                )
                .on(go_left),
            ],
        ),
        case(
            "missing field reads as 0",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![warn(DEC, 3, 9, Some("robot_mode"), "missing, reads as 0").on(go_left)],
        ),
        case(
            "null value reads as 0",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100, "decide_wayPoint": 1,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "minHP": null
        }
    ]
}
"#,
            vec![warn(DEC, 11, 22, Some("minHP"), "null reads as 0").on(go_left)],
        ),
        case(
            "boolean in an int field",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100, "decide_wayPoint": 1,
            "start_time": -1, "end_time": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "robot_mode": true
        }
    ]
}
"#,
            vec![warn(DEC, 11, 27, Some("robot_mode"), "boolean true coerced to 1").on(go_left)],
        ),
        // jsoncpp's asString turns a number into its text.
        case(
            "number where a string belongs",
            Target::Waypoints,
            r#"{
    "data": [
        {"name": 7, "id": 0, "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#,
            vec![warn(WPS, 3, 18, Some("name"), "number 7 coerced to \"7\"").on("waypoint 0")],
        ),
        case(
            "unknown key in a decision",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1], "decide_wayPoint": 1,
            "comment": "go left first"
        }
    ]
}
"#,
            vec![warn(DEC, 11, 13, Some("comment"), "unknown key").on(go_left)],
        ),
        case(
            "unknown key in the config",
            Target::Config,
            r#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "INIT_SPEED": 3,
        "GAME_TIME": 420
    }
}
"#,
            vec![warn(CFG, 20, 9, Some("INIT_SPEED"), "unknown key")],
        ),
        case(
            "missing `connect`",
            Target::Waypoints,
            r#"{
    "data": [
        {"id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5, "connect": [1]},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0}
    ]
}
"#,
            vec![
                warn(
                    WPS,
                    8,
                    9,
                    Some("connect"),
                    "missing, reads as no connections",
                )
                .on("waypoint 5 \"island\""),
            ],
        ),
        case(
            "5 instead of 6 position slots",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![warn(DEC, 8, 30, Some("enemyPosition"), "5 of 6 unit slots").on(go_left)],
        ),
        case(
            "null position list",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": null,
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                warn(
                    DEC,
                    8,
                    30,
                    Some("enemyPosition"),
                    "null reads as no condition",
                )
                .on(go_left),
            ],
        ),
        case(
            "-1 not first in `wayPointID`",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [1, -1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![warn(DEC, 10, 31, Some("wayPointID"), "only as the first element").on(go_left)],
        ),
        case(
            "-1 not first in a position slot on its own line",
            Target::Decisions,
            r#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [
                [-1],
                [3, -1],
                [-1], [-1], [-1], [-1]
            ],
            "wayPointID": [-1],
            "decide_wayPoint": 1
        }
    ]
}
"#,
            vec![
                warn(
                    DEC,
                    11,
                    21,
                    Some("friendPosition[1]"),
                    "only as the first element",
                )
                .on(go_left),
            ],
        ),
    ]);
}

// ----------------------------------------------------------------------------------------
// Several errors at once
// ----------------------------------------------------------------------------------------

#[test]
fn several_errors_in_one_file_are_all_reported() {
    let c = case(
        "five broken decisions",
        Target::Decisions,
        r#"{
    "data": [
        {
            "id": 0, "name": "a", "weight": 100, "wayPointID": [-1],
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "decide_wayPoint": "left"
        },
        {
            "id": 1, "name": "b", "weight": 90, "decide_wayPoint": 2,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": []
        },
        {
            "id": 2, "name": "c", "weight": 80, "wayPointID": [-1],
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "decide_wayPoint": 42
        },
        {
            "id": 3, "name": "d", "weight": 70, "wayPointID": [-1], "decide_wayPoint": 3,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": 1e999,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]]
        },
        {
            "name": "e", "weight": 60, "wayPointID": [-1], "decide_wayPoint": 4,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "id": 2
        }
    ]
}
"#,
        vec![
            err(
                DEC,
                10,
                32,
                Some("decide_wayPoint"),
                "expected an integer, found a string",
            )
            .on("decision 0 \"a\""),
            err(DEC, 19, 27, Some("wayPointID"), "empty list").on("decision 1 \"b\""),
            err(
                DEC,
                28,
                32,
                Some("decide_wayPoint"),
                "unknown waypoint id 42",
            )
            .on("decision 2 \"c\""),
            err(DEC, 34, 51, Some("if_reverse"), "not finite").on("decision 3 \"d\""),
            err(
                DEC,
                45,
                19,
                Some("id"),
                "duplicate id 2 (first used at line 22)",
            )
            .on("decision 2 \"e\""),
        ],
    );
    let outcome = run_case(&c).unwrap_or_else(|why| panic!("{why}"));
    let lines: Vec<u32> = outcome.diagnostics.errors().map(|d| d.line).collect();
    assert!(lines.len() >= 3, "{lines:?}");
    for line in [10, 19, 28, 34, 45] {
        assert!(lines.contains(&line), "no error on line {line}: {lines:?}");
    }
}

#[test]
fn errors_of_every_file_are_reported_together() {
    let c = Case {
        name: "one error in each of the four files",
        files: vec![
            (
                Target::Config,
                br#"{
    "config": {
        "Debug": false,
        "WayPointsPATH": "waypoints.json",
        "DecisionsPATH": "decisions.json",
        "MAP_PATH": "wall.png",
        "REAL_WIDTH": 12.0,
        "REAL_HEIGHT": 8.0,
        "GOAL_TIME_THR_SEC": 2,
        "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0,
        "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false,
        "INIT_IFSHOWUI": false,
        "INIT_SELFINDEX": 9,
        "INIT_FRIENDOUTPOSTINDEX": 6,
        "INIT_FRIENDBASEINDEX": 7,
        "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420
    }
}
"#
                .to_vec(),
            ),
            (
                Target::Waypoints,
                br#"{
    "data": [
        {"id": 0, "name": "top", "x": 6.0, "y": 1.5, "angle": 0.0, "connect": [1, 2]},
        {"id": 1, "name": "left", "x": 3.0, "y": 2.0, "angle": 1.5, "connect": [0, 3]},
        {"id": 2, "name": "right", "x": 9.0, "y": 2.0, "angle": 3.0, "connect": [0, 4]},
        {"connect": [1, 9], "id": 3, "name": "left_low", "x": 3.0, "y": 6.0, "angle": -1.5},
        {"id": 4, "name": "right_low", "x": 9.0, "y": 6.0, "angle": 0.5, "connect": [2]},
        {"id": 5, "name": "island", "x": 11.0, "y": 7.0, "angle": 0.0, "connect": [4]}
    ]
}
"#
                .to_vec(),
            ),
            (
                Target::Decisions,
                br#"{
    "data": [
        {
            "id": 0, "name": "go_left", "weight": 100,
            "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
            "decide_mode": 6, "out_post_HP_min": -1, "base_HP_min": -1,
            "if_succession": false, "if_reverse": false,
            "enemyPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]],
            "wayPointID": [-1],
            "decide_wayPoint": 9
        }
    ]
}
"#
                .to_vec(),
            ),
            (Target::Map, b"GIF89a".to_vec()),
        ],
        expect: vec![
            err(CFG, 16, 27, Some("INIT_SELFINDEX"), "must be 0..5"),
            err(WPS, 6, 25, Some("connect"), "unknown waypoint id 9"),
            err(
                DEC,
                11,
                32,
                Some("decide_wayPoint"),
                "unknown waypoint id 9",
            ),
            err(CFG, 6, 21, Some("MAP_PATH"), "cannot decode PNG"),
        ],
    };
    run_case(&c).unwrap_or_else(|why| panic!("{why}"));
}

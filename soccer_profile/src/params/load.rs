//! Loading a parameters folder: `base/NAME.json5`, then `location/LOC/NAME.json5`, then
//! `robot/ROBOT/NAME.json5` (JSON5, objects merged key by key, arrays and scalars replaced),
//! typed with serde and range-checked. Every problem names the file, line and column of the key
//! or value that last set it, and all problems of all files are reported at once.

use super::{BehaviorParameters, FieldDimensions, Parameters, SearchSuggestorParameters};
use decision_core::jsonc::{self, Json, JsonValue, Member, PathSeg as Seg, Pos};
use serde::de::DeserializeOwned;
use std::path::{Component, Path, PathBuf};

/// The three parameter files of a folder, by stem, in load and report order.
pub const FILE_STEMS: [&str; 3] = ["behavior_node", "search_suggestor", "field"];

/// A parameter file problem: `file:line:col: error: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: error: {message}")]
pub struct LoadError {
    /// The file (or, for a missing `--location` / `--robot` folder, the folder).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What is wrong; starts with the `` `key.path`: `` concerned when there is one.
    pub message: String,
    /// The dotted key path concerned (`ball.last_ball_timeout`), for machine consumers.
    pub key: Option<String>,
}

impl LoadError {
    /// An error at `pos` of `file`, about `key` when given (prefixed to the message).
    fn at(file: &Path, pos: Pos, key: Option<&str>, message: &str) -> Self {
        let message = match key {
            Some(key) => format!("`{key}`: {message}"),
            None => message.to_owned(),
        };
        Self {
            file: file.to_path_buf(),
            line: pos.line.max(1),
            column: pos.column.max(1),
            message,
            key: key.map(str::to_owned),
        }
    }
}

/// The start of a file: where problems without a better position point.
const FILE_START: Pos = Pos { line: 1, column: 1 };

/// Loads `dir` with the optional location and robot overrides; every problem at once on error.
pub fn load(
    dir: &Path,
    location: Option<&str>,
    robot: Option<&str>,
) -> Result<Parameters, Vec<LoadError>> {
    let mut errors = Vec::new();
    let mut layers = vec![dir.join("base")];
    for (kind, name) in [("location", location), ("robot", robot)] {
        let Some(name) = name else { continue };
        match override_folder(dir, kind, name) {
            Ok(folder) => layers.push(folder),
            Err(e) => errors.push(*e),
        }
    }
    let mut behavior = load_stem::<BehaviorParameters>(&layers, FILE_STEMS[0]);
    let mut search = load_stem::<SearchSuggestorParameters>(&layers, FILE_STEMS[1]);
    let mut field = load_stem::<FieldDimensions>(&layers, FILE_STEMS[2]);
    let parameters = Parameters {
        behavior_node: behavior.value().cloned().unwrap_or_default(),
        search_suggestor: search.value().cloned().unwrap_or_default(),
        field: field.value().cloned().unwrap_or_default(),
    };
    for (stem, problem) in parameters.problems() {
        let (stem_errors, merged) = match stem {
            "behavior_node" => behavior.parts(),
            "search_suggestor" => search.parts(),
            _ => field.parts(),
        };
        // A stem that failed to load is all defaults: its range problems would mislead.
        let Some(merged) = merged else { continue };
        if merged.already_reported(&problem.path) {
            continue;
        }
        let keys: Vec<Seg> = problem
            .path
            .split('.')
            .map(|k| Seg::Key(k.to_owned()))
            .collect();
        let error = match merged.root.find(&keys) {
            Some(node) => (
                node.file,
                LoadError::at(
                    &merged.files[node.file],
                    node.key_pos,
                    Some(&problem.path),
                    &problem.message,
                ),
            ),
            None => (
                0,
                LoadError::at(
                    &merged.files[0],
                    FILE_START,
                    Some(&problem.path),
                    &format!("{} (the default value)", problem.message),
                ),
            ),
        };
        stem_errors.push(error);
    }
    // Per file stem, in layer order, then by position.
    for mut stem_errors in [behavior.errors, search.errors, field.errors] {
        stem_errors.sort_by_key(|(file, e)| (*file, e.line, e.column));
        errors.extend(stem_errors.into_iter().map(|(_, e)| e));
    }
    if errors.is_empty() {
        Ok(parameters)
    } else {
        Err(errors)
    }
}

/// `dir/KIND/NAME`, which must be an existing folder named by a plain name.
fn override_folder(dir: &Path, kind: &str, name: &str) -> Result<PathBuf, Box<LoadError>> {
    let parent = dir.join(kind);
    let folder = parent.join(name);
    let plain = matches!(
        Path::new(name).components().collect::<Vec<_>>().as_slice(),
        [Component::Normal(_)]
    );
    if plain && folder.is_dir() {
        return Ok(folder);
    }
    let known: Vec<String> = std::fs::read_dir(&parent)
        .map(|entries| {
            let mut names: Vec<String> = entries
                .filter_map(Result::ok)
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .collect();
            names.sort();
            names
        })
        .unwrap_or_default();
    let mut message = if plain {
        format!("the --{kind} folder `{name}` does not exist")
    } else {
        format!("the --{kind} `{name}` must be a plain folder name")
    };
    if let Some(close) = suggestion(name, known.iter().map(String::as_str)) {
        message.push_str(&format!("; did you mean `{close}`?"));
    } else if known.is_empty() {
        message.push_str(&format!(" (no {kind} folders in {})", parent.display()));
    } else {
        message.push_str(&format!(" (known: {})", known.join(", ")));
    }
    Err(Box::new(LoadError::at(&folder, FILE_START, None, &message)))
}

/// What loading one file stem gave: the typed value if any, and its errors by file index.
struct StemResult<T> {
    /// The typed value and its merged tree; `None` when nothing could be typed.
    loaded: Option<Loaded<T>>,
    /// Errors with the index of their file in [`Merged::files`] (for ordering).
    errors: Vec<(usize, LoadError)>,
}

impl<T> StemResult<T> {
    fn value(&self) -> Option<&T> {
        self.loaded.as_ref().map(|l| &l.value)
    }

    /// The error list to add to and the merged tree to locate problems in.
    fn parts(&mut self) -> (&mut Vec<(usize, LoadError)>, Option<&Merged>) {
        (&mut self.errors, self.loaded.as_ref().map(|l| &l.merged))
    }
}

/// One file stem loaded: the typed value and the merged tree it came from.
struct Loaded<T> {
    /// The typed parameters (defaults where a key was absent or removed after an error).
    value: T,
    /// The merged files, for positions of later problems.
    merged: Merged,
}

/// The merged files of one stem.
struct Merged {
    /// The files read, base first (index 0 is the base file even when it is missing).
    files: Vec<PathBuf>,
    /// All `files` overlaid in order (objects merge, other values replace); nodes know their file.
    root: Node,
    /// Key paths already reported (and removed), whose range problems would repeat them.
    reported: Vec<String>,
}

impl Merged {
    /// Whether a problem at `path` repeats one already reported for it, a part or a parent.
    fn already_reported(&self, path: &str) -> bool {
        self.reported.iter().any(|r| {
            r == path
                || r.strip_prefix(path)
                    .is_some_and(|rest| rest.starts_with(['.', '[']))
                || path
                    .strip_prefix(r.as_str())
                    .is_some_and(|rest| rest.starts_with(['.', '[']))
        })
    }
}

/// A merged value: the file and key position that last set it, and its value.
#[derive(Debug)]
struct Node {
    /// Index into [`Merged::files`].
    file: usize,
    /// Where its key stands in that file (the file start for the root).
    key_pos: Pos,
    /// Where its value starts.
    pos: Pos,
    /// An object (merged member by member) or anything else (replaced as a whole).
    value: NodeValue,
}

#[derive(Debug)]
enum NodeValue {
    Object(Vec<(String, Node)>),
    Leaf(Json),
}

/// Renders a key path as `a.b[2].c`.
fn render(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

impl Node {
    fn from_json(json: Json, file: usize, key_pos: Pos) -> Self {
        let pos = json.pos;
        let value = match json.value {
            JsonValue::Object(members) => NodeValue::Object(
                members
                    .into_iter()
                    .map(|m| (m.key, Node::from_json(m.value, file, m.key_pos)))
                    .collect(),
            ),
            value => NodeValue::Leaf(Json { pos, value }),
        };
        Self {
            file,
            key_pos,
            pos,
            value,
        }
    }

    /// Lays the members of an override file's object over this object.
    fn overlay(&mut self, members: Vec<Member>, file: usize) {
        let NodeValue::Object(mine) = &mut self.value else {
            return;
        };
        for member in members {
            let existing = mine.iter_mut().find(|(k, _)| *k == member.key);
            match (existing, member.value.value) {
                (Some((_, node)), JsonValue::Object(inner))
                    if matches!(node.value, NodeValue::Object(_)) =>
                {
                    node.overlay(inner, file);
                }
                (existing, value) => {
                    let json = Json {
                        pos: member.value.pos,
                        value,
                    };
                    let node = Node::from_json(json, file, member.key_pos);
                    match existing {
                        Some((_, old)) => *old = node,
                        None => mine.push((member.key, node)),
                    }
                }
            }
        }
    }

    /// The node at `path` (object keys only: array elements are inside leaves).
    fn find(&self, path: &[Seg]) -> Option<&Node> {
        let Some((first, rest)) = path.split_first() else {
            return Some(self);
        };
        match (&self.value, first) {
            (NodeValue::Object(members), Seg::Key(key)) => members
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, n)| n.find(rest)),
            _ => None,
        }
    }

    /// The deepest node on `path` and the rest of the path below it.
    fn deepest<'a, 'p>(&'a self, path: &'p [Seg]) -> (&'a Node, &'p [Seg]) {
        if let (NodeValue::Object(members), Some((Seg::Key(key), rest))) =
            (&self.value, path.split_first())
            && let Some((_, child)) = members.iter().find(|(k, _)| k == key)
        {
            return child.deepest(rest);
        }
        (self, path)
    }

    /// Removes the deepest object member on `path`; whether something was removed.
    fn remove_deepest(&mut self, path: &[Seg]) -> bool {
        let NodeValue::Object(members) = &mut self.value else {
            return false;
        };
        let Some((Seg::Key(key), rest)) = path.split_first() else {
            return false;
        };
        let Some(index) = members.iter().position(|(k, _)| k == key) else {
            return false;
        };
        if members[index].1.remove_deepest(rest) {
            return true;
        }
        members.remove(index);
        true
    }

    /// The value for serde (non-finite numbers, already reported and removed, become null).
    fn to_value(&self) -> serde_json::Value {
        match &self.value {
            NodeValue::Object(members) => serde_json::Value::Object(
                members
                    .iter()
                    .map(|(k, n)| (k.clone(), n.to_value()))
                    .collect(),
            ),
            NodeValue::Leaf(json) => json.to_serde(),
        }
    }

    /// Every non-finite number under this node: its key path and position.
    fn non_finite(&self, path: &mut Vec<Seg>, out: &mut Vec<(Vec<Seg>, usize, Pos, f64)>) {
        match &self.value {
            NodeValue::Object(members) => {
                for (key, node) in members {
                    path.push(Seg::Key(key.clone()));
                    node.non_finite(path, out);
                    path.pop();
                }
            }
            NodeValue::Leaf(json) => json.for_each_non_finite(path, &mut |at, pos, value| {
                out.push((at.to_vec(), self.file, pos, value));
            }),
        }
    }
}

/// The position of the value at `path` below `node`, following array indices into leaves.
fn value_pos(node: &Node, path: &[Seg]) -> (usize, Pos) {
    let (node, rest) = node.deepest(path);
    let NodeValue::Leaf(leaf) = &node.value else {
        return (node.file, node.pos);
    };
    (node.file, leaf.deepest(rest).0.pos)
}

/// Reads, merges, types and checks one stem; `None` when it cannot be typed at all.
fn load_stem<T: DeserializeOwned>(layers: &[PathBuf], stem: &str) -> StemResult<T> {
    let mut errors = Vec::new();
    let loaded = read_stem(layers, stem, &mut errors);
    StemResult { loaded, errors }
}

/// [`load_stem`] with the errors pushed onto `errors`.
fn read_stem<T: DeserializeOwned>(
    layers: &[PathBuf],
    stem: &str,
    errors: &mut Vec<(usize, LoadError)>,
) -> Option<Loaded<T>> {
    let name = format!("{stem}.json5");
    let mut files = Vec::new();
    let mut root: Option<Node> = None;
    for (i, layer) in layers.iter().enumerate() {
        let path = layer.join(&name);
        if i > 0 && !path.exists() {
            continue;
        }
        let file = files.len();
        files.push(path.clone());
        let text = match jsonc::read_text(&path) {
            Ok(text) => text,
            Err(e @ jsonc::ReadTextError::NotUtf8 { pos, .. }) => {
                let message = e.to_string();
                errors.push((file, LoadError::at(&path, pos, None, &message)));
                continue;
            }
            Err(jsonc::ReadTextError::Io(e)) => {
                let message = if i == 0 && !path.exists() {
                    format!("missing parameter file (every folder needs base/{name})")
                } else {
                    format!("cannot read the file: {e}")
                };
                errors.push((file, LoadError::at(&path, FILE_START, None, &message)));
                continue;
            }
        };
        let json = match jsonc::parse_json5(&text) {
            Ok(json) => json,
            Err(e) => {
                errors.push((file, LoadError::at(&path, e.pos, None, &e.message)));
                continue;
            }
        };
        let JsonValue::Object(members) = json.value else {
            let message = format!("the file must hold an object, found {}", json.type_name());
            errors.push((file, LoadError::at(&path, json.pos, None, &message)));
            continue;
        };
        let root = root.get_or_insert_with(|| Node {
            file: 0,
            key_pos: FILE_START,
            pos: FILE_START,
            value: NodeValue::Object(Vec::new()),
        });
        root.overlay(members, file);
    }
    if files.is_empty() {
        return None;
    }
    let mut merged = Merged {
        files,
        root: root.unwrap_or(Node {
            file: 0,
            key_pos: FILE_START,
            pos: FILE_START,
            value: NodeValue::Object(Vec::new()),
        }),
        reported: Vec::new(),
    };
    // Non-finite numbers: serde_json cannot hold them, and no parameter may be one.
    let mut found = Vec::new();
    merged.root.non_finite(&mut Vec::new(), &mut found);
    for (path, file, pos, value) in found {
        let key = render(&path);
        let message = format!("must be finite, found {}", non_finite_name(value));
        errors.push((
            file,
            LoadError::at(&merged.files[file], pos, Some(&key), &message),
        ));
        merged.root.remove_deepest(&path);
        merged.reported.push(key);
    }
    // Type errors and unknown keys, one per pass: report it, drop the key, try again.
    let mut typed = None;
    for _ in 0..10_000 {
        match decision_core::strict_serde::deserialize::<_, T>(merged.root.to_value()) {
            Ok(value) => {
                typed = Some(value);
                break;
            }
            Err(e) => {
                let path: Vec<Seg> = decision_core::strict_serde::error_path(e.path());
                let message = e.into_inner().to_string();
                if !report_serde_error(&mut merged, path, &message, errors) {
                    break;
                }
            }
        }
    }
    // A file that could not be read or parsed is reported; the others are still checked.
    let value = typed?;
    Some(Loaded { value, merged })
}

/// Reports one serde error at its key or value and removes that key; whether it was removed
/// (false: nothing to remove, stop trying).
fn report_serde_error(
    merged: &mut Merged,
    mut path: Vec<Seg>,
    message: &str,
    errors: &mut Vec<(usize, LoadError)>,
) -> bool {
    if let Some((field, expected)) = unknown_field(message) {
        // serde_path_to_error names the unknown key in the path; be safe if it does not.
        if path.last() != Some(&Seg::Key(field.clone())) {
            path.push(Seg::Key(field.clone()));
        }
        let key = render(&path);
        let mut text = "unknown key".to_owned();
        if let Some(close) = suggestion(&field, expected.iter().map(String::as_str)) {
            text.push_str(&format!(", did you mean `{close}`?"));
        } else if expected.is_empty() {
            text.push_str(" (no keys are allowed here)");
        } else {
            text.push_str(&format!(" (allowed: {})", expected.join(", ")));
        }
        let (file, pos) = match merged.root.find(&path) {
            Some(node) => (node.file, node.key_pos),
            None => value_pos(&merged.root, &path),
        };
        errors.push((
            file,
            LoadError::at(&merged.files[file], pos, Some(&key), &text),
        ));
        merged.reported.push(key);
        return merged.root.remove_deepest(&path);
    }
    let key = render(&path);
    let (file, pos) = value_pos(&merged.root, &path);
    let shown = if key.is_empty() {
        None
    } else {
        Some(key.as_str())
    };
    errors.push((
        file,
        LoadError::at(&merged.files[file], pos, shown, message),
    ));
    merged.reported.push(key);
    merged.root.remove_deepest(&path)
}

/// `Infinity`, `-Infinity` or `NaN`, as written in JSON5.
fn non_finite_name(value: f64) -> &'static str {
    if value.is_nan() {
        "NaN"
    } else if value > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

/// The field and the allowed names of serde's ``unknown field `x`, expected ...`` message.
fn unknown_field(message: &str) -> Option<(String, Vec<String>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, rest) = rest.split_once('`')?;
    let expected = rest
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    Some((field.to_owned(), expected))
}

/// The allowed name nearest to `wrong` (the workspace's one suggestion rule).
fn suggestion<'a>(wrong: &str, allowed: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    decision_core::suggest::nearest(wrong, allowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempfile::TempDir;

    /// A parameters folder with `files` (relative path, text); missing base files are `{}`.
    fn folder(files: &[(&str, &str)]) -> TempDir {
        let dir = tempfile::tempdir().unwrap();
        for stem in FILE_STEMS {
            let rel = format!("base/{stem}.json5");
            if !files.iter().any(|(p, _)| *p == rel) {
                write(&dir, &rel, "{}");
            }
        }
        for (rel, text) in files {
            write(&dir, rel, text);
        }
        dir
    }

    fn write(dir: &TempDir, rel: &str, text: &str) {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn errors(dir: &TempDir, location: Option<&str>, robot: Option<&str>) -> Vec<String> {
        match load(dir.path(), location, robot) {
            Ok(_) => panic!("expected errors"),
            Err(errors) => errors
                .iter()
                .map(|e| {
                    let shown = e.to_string();
                    let prefix = format!("{}/", dir.path().display());
                    shown.strip_prefix(&prefix).unwrap_or(&shown).to_owned()
                })
                .collect(),
        }
    }

    fn ok(dir: &TempDir, location: Option<&str>, robot: Option<&str>) -> Parameters {
        match load(dir.path(), location, robot) {
            Ok(p) => p,
            Err(errors) => panic!("{errors:#?}"),
        }
    }

    #[test]
    fn the_sample_folder_loads_with_and_without_overrides() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample/soccer/parameters");
        let base = load(&dir, None, None).unwrap();
        assert_eq!(base.field.length, 9.0);
        assert_eq!(base.behavior_node.goalkeeper.player_number, 1);
        let both = load(&dir, Some("competition_hall"), Some("tor_3")).unwrap();
        assert_eq!(both.field.length, 8.95);
        assert_eq!(
            both.field.penalty_area_length,
            base.field.penalty_area_length
        );
        assert_eq!(both.behavior_node.goalkeeper.player_number, 3);
        assert_eq!(both.behavior_node.walking.speed.kicking, 0.8);
        assert_eq!(
            both.behavior_node.walking.speed.search,
            base.behavior_node.walking.speed.search
        );
    }

    #[test]
    fn the_competition_hall_plays_as_the_competition_location() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample/soccer/parameters");
        let competition = load(&dir, Some("competition"), None).unwrap();
        let hall = load(&dir, Some("competition_hall"), None).unwrap();
        assert_eq!(hall.behavior_node, competition.behavior_node);
        assert_ne!(hall.field, competition.field, "the hall's own field");
        let base = load(&dir, None, None).unwrap();
        assert_eq!(competition.field, base.field);
    }

    #[test]
    fn base_then_location_then_robot_objects_merged_arrays_replaced() {
        let dir = folder(&[
            (
                "base/behavior_node.json5",
                "{ ball: { last_ball_timeout: 1, team_ball_timeout: 0.5 },
                   kickoff: { aggressive_positions: [[0, 0], [0.1, 0.1], [0.2, 0.2]] } }",
            ),
            (
                "location/hall/behavior_node.json5",
                "{ ball: { last_ball_timeout: 2 }, kickoff: { aggressive_positions: [[0.5, 0.5]] } }",
            ),
            (
                "robot/r1/behavior_node.json5",
                "{ ball: { last_ball_timeout: 3, closest_to_ball: { exit_duration: 0.25 } } }",
            ),
            ("robot/r1/field.json5", "{ width: 5.5 }"),
        ]);
        let b = ok(&dir, None, None).behavior_node;
        assert_eq!(b.ball.last_ball_timeout, 1.0);
        assert_eq!(b.kickoff.aggressive_positions.len(), 3);
        let b = ok(&dir, Some("hall"), None).behavior_node;
        assert_eq!(b.ball.last_ball_timeout, 2.0);
        assert_eq!(b.ball.team_ball_timeout, 0.5);
        assert_eq!(b.kickoff.aggressive_positions, vec![[0.5, 0.5]]);
        let p = ok(&dir, Some("hall"), Some("r1"));
        let b = p.behavior_node;
        assert_eq!(b.ball.last_ball_timeout, 3.0);
        assert_eq!(b.ball.team_ball_timeout, 0.5);
        assert_eq!(b.ball.closest_to_ball.exit_duration, 0.25);
        assert_eq!(b.ball.closest_to_ball.enter_duration, 0.3);
        assert_eq!(b.kickoff.aggressive_positions, vec![[0.5, 0.5]]);
        assert_eq!(p.field.width, 5.5);
        assert_eq!(p.field.length, 9.0);
    }

    #[test]
    fn an_unknown_key_points_at_itself_with_a_suggestion() {
        let dir = folder(&[
            (
                "base/behavior_node.json5",
                "{\n  ball: {\n    last_bal_timeout: 1.0,\n    zzz: 1,\n  },\n}",
            ),
            ("base/field.json5", "{ lenght: 9 }"),
        ]);
        let e = errors(&dir, None, None);
        assert_eq!(
            e[0],
            "base/behavior_node.json5:3:5: error: `ball.last_bal_timeout`: unknown key, \
             did you mean `last_ball_timeout`?"
        );
        assert!(
            e[1].starts_with("base/behavior_node.json5:4:5: error: `ball.zzz`: unknown key (allowed: last_ball_timeout, "),
            "{e:?}"
        );
        assert_eq!(
            e[2],
            "base/field.json5:1:3: error: `lenght`: unknown key, did you mean `length`?"
        );
        assert_eq!(e.len(), 3, "{e:?}");
    }

    #[test]
    fn a_type_error_points_at_the_value() {
        let text = "{\n  goalkeeper: { player_number: 'One' },\n  kickoff: { striker_position: [0, true] },\n}";
        let dir = folder(&[("robot/r/behavior_node.json5", text)]);
        let e = errors(&dir, None, Some("r"));
        assert_eq!(
            e,
            [
                "robot/r/behavior_node.json5:2:32: error: `goalkeeper.player_number`: \
                 invalid type: string \"One\", expected u8",
                "robot/r/behavior_node.json5:3:36: error: `kickoff.striker_position[1]`: \
                 invalid type: boolean `true`, expected f64",
            ]
        );
    }

    #[test]
    fn a_range_error_points_at_the_key_of_the_overriding_file() {
        let dir = folder(&[
            (
                "base/behavior_node.json5",
                "{ ball: { last_ball_timeout: 2 } }",
            ),
            (
                "location/l/behavior_node.json5",
                "{ ball: { last_ball_timeout: 1 } }",
            ),
            (
                "robot/r/behavior_node.json5",
                "// robot\n{\n  ball: {\n      last_ball_timeout: -1 } }",
            ),
        ]);
        assert_eq!(
            errors(&dir, Some("l"), Some("r")),
            [
                "robot/r/behavior_node.json5:4:7: error: `ball.last_ball_timeout`: \
              must be finite and >= 0"
            ]
        );
        assert!(load(dir.path(), Some("l"), None).is_ok());
    }

    #[test]
    fn bad_striker_choice_options_point_at_their_values() {
        let text = "{\n  ball: { closest_to_ball: {\n    own_pose: 'latest',\n  } },\n}";
        let dir = folder(&[("location/l/behavior_node.json5", text)]);
        assert_eq!(
            errors(&dir, Some("l"), None),
            [
                "location/l/behavior_node.json5:3:15: error: `ball.closest_to_ball.own_pose`: \
              unknown variant `latest`, expected `current` or `last_sent`"
            ]
        );
        let text = "{ ball: { closest_to_ball: { striker_margin: -1, ball_source: 'shared' } } }";
        let dir = folder(&[("location/l/behavior_node.json5", text)]);
        assert_eq!(
            errors(&dir, Some("l"), None),
            [
                "location/l/behavior_node.json5:1:30: error: `ball.closest_to_ball.striker_margin`: \
              must be finite and >= 0"
            ]
        );
        let b = ok(&folder(&[]), None, None)
            .behavior_node
            .ball
            .closest_to_ball;
        assert_eq!(
            b.own_pose,
            crate::params::OwnPose::Current,
            "the default rule"
        );
        assert_eq!(b.ball_source, crate::params::StrikerBallSource::Retained);
        assert_eq!(b.striker_margin, 0.0);
    }

    #[test]
    fn bad_team_play_switches_point_at_their_values() {
        let text = "{\n  ball: { closest_to_ball: { striker_claim: 'yes' } },\n}";
        let dir = folder(&[("location/l/behavior_node.json5", text)]);
        assert_eq!(
            errors(&dir, Some("l"), None),
            [
                "location/l/behavior_node.json5:2:45: error: `ball.closest_to_ball.striker_claim`: \
              invalid type: string \"yes\", expected a boolean"
            ]
        );
        let text = "{ team: { formation_at_kickoff: 1 } }";
        let dir = folder(&[("location/l/behavior_node.json5", text)]);
        assert_eq!(
            errors(&dir, Some("l"), None),
            [
                "location/l/behavior_node.json5:1:33: error: `team.formation_at_kickoff`: \
              invalid type: integer `1`, expected a boolean"
            ]
        );
        let b = ok(&folder(&[]), None, None).behavior_node;
        assert!(
            !b.ball.closest_to_ball.striker_claim,
            "the contract's message"
        );
        assert!(!b.team.formation_at_kickoff, "the contract's rule");
    }

    #[test]
    fn a_range_problem_of_a_default_value_points_at_the_base_file_start() {
        // The default fallback (0.05) is above a minimum written in the robot file.
        let dir = folder(&[(
            "robot/r/search_suggestor.json5",
            "{ minimum_search_priority: 0.01 }",
        )]);
        assert_eq!(
            errors(&dir, None, Some("r")),
            [
                "base/search_suggestor.json5:1:1: error: `fallback_minimum_search_priority`: \
              must be finite and in [0, minimum_search_priority] (the default value)"
            ]
        );
    }

    #[test]
    fn the_contract_rules_of_the_search_priorities() {
        let dir = folder(&[(
            "base/search_suggestor.json5",
            "{\n  minimum_search_priority: 1.5,\n}",
        )]);
        assert_eq!(
            errors(&dir, None, None),
            [
                "base/search_suggestor.json5:2:3: error: `minimum_search_priority`: \
              must be finite and in [0, 1]"
            ]
        );
        let dir = folder(&[(
            "base/search_suggestor.json5",
            "{ minimum_search_priority: 0.2,\n  fallback_minimum_search_priority: 0.3 }",
        )]);
        assert_eq!(
            errors(&dir, None, None),
            [
                "base/search_suggestor.json5:2:3: error: `fallback_minimum_search_priority`: \
              must be finite and in [0, minimum_search_priority]"
            ]
        );
    }

    #[test]
    fn a_missing_base_file_is_named_and_the_others_are_still_checked() {
        let dir = folder(&[("base/field.json5", "{ width: 'wide' }")]);
        std::fs::remove_file(dir.path().join("base/search_suggestor.json5")).unwrap();
        let e = errors(&dir, None, None);
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(
            e[0].starts_with("base/search_suggestor.json5:1:1: error: missing parameter file"),
            "{e:?}"
        );
        assert!(e[1].starts_with("base/field.json5:1:10: error: `width`: invalid type"));
    }

    #[test]
    fn a_missing_override_folder_is_an_error_naming_it() {
        let dir = folder(&[("location/competition_hall/field.json5", "{}")]);
        std::fs::create_dir_all(dir.path().join("robot/tor_3")).unwrap();
        let e = errors(&dir, Some("competition_hal"), Some("nobody"));
        assert_eq!(
            e,
            [
                "location/competition_hal:1:1: error: the --location folder `competition_hal` \
                 does not exist; did you mean `competition_hall`?",
                "robot/nobody:1:1: error: the --robot folder `nobody` does not exist \
                 (known: tor_3)",
            ]
        );
        // A robot folder without any file is fine: every file is optional there.
        assert!(load(dir.path(), Some("competition_hall"), Some("tor_3")).is_ok());
        let e = errors(&dir, Some("../base"), None);
        assert!(e[0].contains("must be a plain folder name"), "{e:?}");
    }

    #[test]
    fn a_json5_syntax_error_stops_that_file_only() {
        let dir = folder(&[
            ("base/field.json5", "{\n  length: 9,\n  width 6,\n}"),
            ("base/behavior_node.json5", "{ head: { maximum_yaw: -1 } }"),
        ]);
        let e = errors(&dir, None, None);
        assert_eq!(
            e,
            [
                "base/behavior_node.json5:1:11: error: `head.maximum_yaw`: must be finite and >= 0",
                "base/field.json5:3:9: error: expected `:` after key \"width\", found `6`",
            ]
        );
    }

    #[test]
    fn an_orientation_bias_beyond_what_the_partition_takes_is_refused() {
        let dir = folder(&[(
            "base/behavior_node.json5",
            "{ voronoi: {\n  orientation_bias: 250 } }",
        )]);
        assert_eq!(
            errors(&dir, None, None),
            [
                "base/behavior_node.json5:2:3: error: `voronoi.orientation_bias`: must be at most \
              100 (cell lengths of extra cost for a step against the heading)"
            ]
        );
    }

    #[test]
    fn the_support_section_refuses_a_negative_press_and_a_zero_width() {
        let dir = folder(&[(
            "base/behavior_node.json5",
            "{ support: {\n  press_weight: -1,\n  press_sigma: 0,\n  kick_ball_in_reach: 'yes' } }",
        )]);
        assert_eq!(
            errors(&dir, None, None),
            [
                "base/behavior_node.json5:2:3: error: `support.press_weight`: must be finite and >= 0",
                "base/behavior_node.json5:3:3: error: `support.press_sigma`: must be finite and > 0",
                "base/behavior_node.json5:4:23: error: `support.kick_ball_in_reach`: \
                 invalid type: string \"yes\", expected a boolean",
            ]
        );
    }

    #[test]
    fn non_finite_values_are_refused_at_the_value() {
        let dir = folder(&[
            (
                "base/search_suggestor.json5",
                "{ unseen_priority_rise_time: Infinity,\n  observation_distance_range: [0.3, -Infinity] }",
            ),
            ("base/field.json5", "{ width: NaN }"),
        ]);
        assert_eq!(
            errors(&dir, None, None),
            [
                "base/search_suggestor.json5:1:30: error: `unseen_priority_rise_time`: \
                 must be finite, found Infinity",
                "base/search_suggestor.json5:2:37: error: `observation_distance_range[1]`: \
                 must be finite, found -Infinity",
                "base/field.json5:1:10: error: `width`: must be finite, found NaN",
            ]
        );
    }

    #[test]
    fn the_key_field_and_the_display_agree() {
        let dir = folder(&[("base/field.json5", "{ width: -2 }")]);
        let e = load(dir.path(), None, None).unwrap_err();
        assert_eq!(e[0].key.as_deref(), Some("width"));
        assert_eq!((e[0].line, e[0].column), (1, 3));
        assert!(
            e[0].to_string()
                .ends_with("error: `width`: must be finite and > 0")
        );
        assert!(e[0].file.ends_with("base/field.json5"));
    }

    #[test]
    fn unknown_fields_are_read_from_serdes_message() {
        // (The suggestion rule itself is `decision_core::suggest`'s, tested there.)
        assert_eq!(
            unknown_field("unknown field `x`, expected `a` or `b`"),
            Some(("x".into(), vec!["a".into(), "b".into()]))
        );
        assert_eq!(
            unknown_field("unknown field `x`, there are no fields"),
            Some(("x".into(), vec![]))
        );
    }
}

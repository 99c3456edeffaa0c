//! `config.json`: the original package's configuration keys, plus two of ours with defaults
//! that keep the original behaviour.

use super::diagnostics::{Diagnostics, Place};
use super::fields::FieldReader;
use super::jsonc::{Json, JsonValue, Pos};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a succession path is planned over `connect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PathPlanning {
    /// The original's depth-first order (not a shortest path).
    #[default]
    Dfs,
    /// Dijkstra on Euclidean edge lengths.
    Shortest,
}

/// How occlusion between us and an enemy is tested on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OcclusionTest {
    /// The original's samples every `STEP_DISTANCE` along the segment.
    #[default]
    Sampled,
    /// Every pixel the segment crosses.
    Exact,
}

/// The `config` object of `config.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RmConfig {
    /// Tick outside the battle stage too (game_stage != 4).
    #[serde(rename = "Debug")]
    pub debug: bool,
    /// Waypoint file, relative to the config's folder or its `JsonFile/` sibling.
    #[serde(rename = "WayPointsPATH")]
    pub waypoints_path: String,
    /// Decision file, relative to the config's folder or its `JsonFile/` sibling.
    #[serde(rename = "DecisionsPATH")]
    pub decisions_path: String,
    /// Obstacle map PNG, relative to the config's folder or its `resources/` sibling.
    #[serde(rename = "MAP_PATH")]
    pub map_path: String,
    /// Field width in metres (map x).
    #[serde(rename = "REAL_WIDTH")]
    pub real_width: f32,
    /// Field height in metres (map y).
    #[serde(rename = "REAL_HEIGHT")]
    pub real_height: f32,
    /// Unused by the original; kept for compatibility.
    #[serde(rename = "GOAL_TIME_THR_SEC")]
    pub goal_time_thr_sec: f64,
    /// A message older than this many seconds is not used.
    #[serde(rename = "TIME_THR")]
    pub time_thr: f64,
    /// Field of view in degrees, for drawing only.
    #[serde(rename = "CAR_SEEK_FOV")]
    pub car_seek_fov: f64,
    /// A robot is at its nearest waypoint when within this distance (metres).
    #[serde(rename = "INIT_DISTANCE_THR")]
    pub distance_thr: f32,
    /// Radius of the seek circle for aiming (metres).
    #[serde(rename = "INIT_SEEK_THR")]
    pub seek_thr: f32,
    /// We play blue (HP indices +8, position index +6).
    #[serde(rename = "INIT_ISBLUE")]
    pub is_blue: bool,
    /// Show the original's GUI (ignored; use decision-viewer).
    #[serde(rename = "INIT_IFSHOWUI")]
    pub show_ui: bool,
    /// Our unit index 0..5: hero, engineer, infantry 3, 4, 5, sentry.
    #[serde(rename = "INIT_SELFINDEX")]
    pub self_index: i32,
    /// Our outpost's HP index 0..7 (6 in the original).
    #[serde(rename = "INIT_FRIENDOUTPOSTINDEX")]
    pub outpost_index: i32,
    /// Our base's HP index 0..7 (7 in the original).
    #[serde(rename = "INIT_FRIENDBASEINDEX")]
    pub base_index: i32,
    /// Occlusion sampling step (metres).
    #[serde(rename = "STEP_DISTANCE")]
    pub step_distance: f32,
    /// Match length in seconds; elapsed time = GAME_TIME - remaining.
    #[serde(rename = "GAME_TIME")]
    pub game_time: i32,
    /// Ours: `dfs` (original, default) or `shortest` paths for `if_succession`.
    #[serde(rename = "PATH_PLANNING", default)]
    pub path_planning: PathPlanning,
    /// Ours: `sampled` (original, default) or `exact` occlusion test.
    #[serde(rename = "OCCLUSION_TEST", default)]
    pub occlusion_test: OcclusionTest,
}

/// The whole `config.json` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ConfigFile {
    /// The file's `config` object, where every setting lives.
    pub config: RmConfig,
}

/// Keys the later original versions added that we accept and ignore.
const IGNORED_KEYS: &[&str] = &["INIT_IFUSEMANUAL"];

/// Reads the `config` object of a parsed `config.json`; `None` when unusable (errors reported).
pub fn read_config(doc: &Json, file: &str, diags: &mut Diagnostics) -> Option<RmConfig> {
    let before = diags.errors().count();
    let config = read_config_lenient(doc, file, diags)?;
    (diags.errors().count() == before).then_some(config)
}

/// Like [`read_config`], but returns the configuration even when some values have errors
/// (reported; such a value reads as its default), so that the files it names can still be
/// checked in the same run. `None` only when there is no `config` object at all.
pub(crate) fn read_config_lenient(
    doc: &Json,
    file: &str,
    diags: &mut Diagnostics,
) -> Option<RmConfig> {
    let place = Place {
        file,
        subject: None,
    };
    let Some(member) = doc.get("config") else {
        diags.error(
            &place,
            doc.pos,
            Some("config"),
            "missing: the file's root must be {\"config\": {...}}",
        );
        return None;
    };
    let object = &member.value;
    if !matches!(object.value, JsonValue::Object(_)) {
        diags.error(
            &place,
            object.pos,
            Some("config"),
            format!("expected an object, found {}", object.type_name()),
        );
        return None;
    }
    let before = diags.errors().count();
    let mut r = FieldReader::new(object, place.clone());
    let mut config = RmConfig {
        debug: r.bool(diags, "Debug"),
        waypoints_path: r.string(diags, "WayPointsPATH"),
        decisions_path: r.string(diags, "DecisionsPATH"),
        map_path: r.string(diags, "MAP_PATH"),
        real_width: r.real(diags, "REAL_WIDTH") as f32,
        real_height: r.real(diags, "REAL_HEIGHT") as f32,
        goal_time_thr_sec: r.real(diags, "GOAL_TIME_THR_SEC"),
        time_thr: r.real(diags, "TIME_THR"),
        car_seek_fov: r.real(diags, "CAR_SEEK_FOV"),
        distance_thr: r.real(diags, "INIT_DISTANCE_THR") as f32,
        seek_thr: r.real(diags, "INIT_SEEK_THR") as f32,
        is_blue: r.bool(diags, "INIT_ISBLUE"),
        show_ui: r.bool(diags, "INIT_IFSHOWUI"),
        self_index: r.int(diags, "INIT_SELFINDEX"),
        outpost_index: r.int(diags, "INIT_FRIENDOUTPOSTINDEX"),
        base_index: r.int(diags, "INIT_FRIENDBASEINDEX"),
        step_distance: r.real(diags, "STEP_DISTANCE") as f32,
        game_time: r.int(diags, "GAME_TIME"),
        path_planning: PathPlanning::Dfs,
        occlusion_test: OcclusionTest::Sampled,
    };
    config.path_planning = read_choice(
        &mut r,
        diags,
        "PATH_PLANNING",
        &[
            ("dfs", PathPlanning::Dfs),
            ("shortest", PathPlanning::Shortest),
        ],
    )
    .unwrap_or_default();
    config.occlusion_test = read_choice(
        &mut r,
        diags,
        "OCCLUSION_TEST",
        &[
            ("sampled", OcclusionTest::Sampled),
            ("exact", OcclusionTest::Exact),
        ],
    )
    .unwrap_or_default();
    for key in IGNORED_KEYS {
        r.member(key);
    }
    r.warn_unknown_keys(diags);
    // A value that already has an error is not reported again as out of range.
    let broken: Vec<String> = diags
        .errors()
        .skip(before)
        .filter_map(|d| d.field.clone())
        .collect();
    validate(&config, &r, &broken, diags);
    Some(config)
}

fn read_choice<T: Copy>(
    r: &mut FieldReader,
    diags: &mut Diagnostics,
    key: &'static str,
    choices: &[(&str, T)],
) -> Option<T> {
    let member = r.member(key)?;
    let found = match &member.value.value {
        JsonValue::String(s) => choices.iter().find(|(name, _)| name == s).map(|(_, v)| *v),
        _ => None,
    };
    if found.is_none() {
        let names: Vec<_> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        let found = match &member.value.value {
            JsonValue::String(s) => format!("\"{s}\""),
            _ => member.value.type_name().to_string(),
        };
        diags.error(
            r.place(),
            member.value.pos,
            Some(key),
            format!("expected one of {}, found {found}", names.join(", ")),
        );
    }
    found
}

fn validate(c: &RmConfig, r: &FieldReader, broken: &[String], diags: &mut Diagnostics) {
    let place = r.place().clone();
    let mut check = |ok: bool, key: &str, message: String| {
        if !ok && !broken.iter().any(|b| b == key) {
            diags.error(&place, r.pos_of(key), Some(key), message);
        }
    };
    check(
        c.real_width > 0.0,
        "REAL_WIDTH",
        format!("must be > 0, found {}", c.real_width),
    );
    check(
        c.real_height > 0.0,
        "REAL_HEIGHT",
        format!("must be > 0, found {}", c.real_height),
    );
    check(
        c.time_thr > 0.0,
        "TIME_THR",
        format!("must be > 0 seconds, found {}", c.time_thr),
    );
    check(
        c.distance_thr >= 0.0,
        "INIT_DISTANCE_THR",
        format!("must be >= 0, found {}", c.distance_thr),
    );
    check(
        c.seek_thr >= 0.0,
        "INIT_SEEK_THR",
        format!("must be >= 0, found {}", c.seek_thr),
    );
    check(
        (0..=5).contains(&c.self_index),
        "INIT_SELFINDEX",
        format!("must be 0..5 (hero .. sentry), found {}", c.self_index),
    );
    check(
        (0..=7).contains(&c.outpost_index),
        "INIT_FRIENDOUTPOSTINDEX",
        format!("must be 0..7, found {}", c.outpost_index),
    );
    check(
        (0..=7).contains(&c.base_index),
        "INIT_FRIENDBASEINDEX",
        format!("must be 0..7, found {}", c.base_index),
    );
    check(
        c.game_time > 0,
        "GAME_TIME",
        format!("must be > 0 seconds, found {}", c.game_time),
    );
    if c.real_height > 0.0 {
        let step_px = sample_step_px(c.step_distance, c.real_height);
        check(
            step_px >= 1,
            "STEP_DISTANCE",
            format!(
                "{} m is less than one map pixel (step = int(STEP_DISTANCE * 1080 / REAL_HEIGHT) = {step_px}); the occlusion test needs a step of at least one pixel",
                c.step_distance
            ),
        );
    }
    for (key, path) in [
        ("WayPointsPATH", &c.waypoints_path),
        ("DecisionsPATH", &c.decisions_path),
        ("MAP_PATH", &c.map_path),
    ] {
        check(!path.is_empty(), key, "empty path".into());
    }
}

/// The occlusion sampling step in map pixels, as the original computes it.
pub fn sample_step_px(step_distance: f32, real_height: f32) -> i64 {
    (step_distance * waypoint_graph::map::MAP_ROWS as f32 / real_height) as i64
}

/// Position of the config object's key, for diagnostics raised after loading.
pub fn key_pos(doc: &Json, key: &str) -> Pos {
    doc.get("config")
        .and_then(|c| c.value.get(key))
        .map_or(doc.pos, |m| m.value.pos)
}

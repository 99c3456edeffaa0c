//! `waypoints.json`: the list of waypoints with their adjacency (`connect`) lists.

use super::diagnostics::{Diagnostics, Place};
use super::fields::{FieldReader, coerce_int};
use super::jsonc::{Json, JsonValue, Pos};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use waypoint_graph::Waypoint;

/// One waypoint as written in the file (the schema's source of truth).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WaypointSpec {
    /// Unique id, referenced by decisions and `connect`.
    pub id: i32,
    /// Name shown in diagnostics and the viewer.
    pub name: String,
    /// Waypoint type (unused by the original).
    #[serde(rename = "type", default)]
    pub kind: i32,
    /// Field x in metres.
    pub x: f32,
    /// Field y in metres.
    pub y: f32,
    /// Heading at this waypoint in radians, from +x toward +y.
    pub angle: f32,
    /// Waypoint ids reachable from here (directed), in search order.
    pub connect: Vec<i32>,
    /// Unused by the original.
    #[serde(rename = "enemyWeights", default)]
    pub enemy_weights: Vec<i32>,
}

/// The whole `waypoints.json` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WaypointsFile {
    /// The waypoints in file order (order breaks nearest-waypoint ties).
    pub data: Vec<WaypointSpec>,
}

/// A loaded waypoint with the source positions diagnostics need.
#[derive(Debug, Clone)]
pub struct LoadedWaypoint {
    /// The waypoint.
    pub waypoint: Waypoint,
    /// Where its object starts.
    pub pos: Pos,
    /// Where each `connect` entry stands.
    pub connect_pos: Vec<Pos>,
}

impl LoadedWaypoint {
    /// `waypoint 3 "supply"`, for diagnostics.
    pub fn subject(&self) -> String {
        format!("waypoint {} \"{}\"", self.waypoint.id, self.waypoint.name)
    }
}

/// Reads the `data` list of a parsed waypoint file; entries with errors are left out.
pub fn read_waypoints(doc: &Json, file: &str, diags: &mut Diagnostics) -> Vec<LoadedWaypoint> {
    let Some(items) = data_list(doc, file, diags, "waypoints") else {
        return Vec::new();
    };
    let mut out: Vec<LoadedWaypoint> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        if let Some(w) = read_one(item, index, file, diags) {
            out.push(w);
        }
    }
    check_ids(&out, file, diags);
    out
}

/// The `data` array of a decision or waypoint file, with errors for every other shape.
pub fn data_list<'a>(doc: &'a Json, file: &str, diags: &mut Diagnostics, what: &str) -> Option<&'a [Json]> {
    let place = Place { file, subject: None };
    if !matches!(doc.value, JsonValue::Object(_)) {
        diags.error(&place, doc.pos, None, format!("the root must be an object {{\"data\": [...]}}, found {}", doc.type_name()));
        return None;
    }
    let Some(member) = doc.get("data") else {
        diags.error(&place, doc.pos, Some("data"), format!("missing: the list of {what} lives under \"data\""));
        return None;
    };
    match &member.value.value {
        JsonValue::Array(items) if items.is_empty() => {
            diags.error(&place, member.value.pos, Some("data"), format!("no {what}: the list is empty"));
            None
        }
        JsonValue::Array(items) => Some(items),
        _ => {
            diags.error(&place, member.value.pos, Some("data"), format!("expected a list of {what}, found {}", member.value.type_name()));
            None
        }
    }
}

/// The subject of an entry before its own id and name are known.
pub fn provisional_subject(item: &Json, kind: &str, index: usize) -> String {
    let id = match item.get("id").map(|m| &m.value.value) {
        Some(JsonValue::Number { value, .. }) if value.is_finite() => format!("{}", value.trunc()),
        _ => format!("#{index}"),
    };
    match item.get("name").map(|m| &m.value.value) {
        Some(JsonValue::String(name)) => format!("{kind} {id} \"{name}\""),
        _ => format!("{kind} {id}"),
    }
}

fn read_one(item: &Json, index: usize, file: &str, diags: &mut Diagnostics) -> Option<LoadedWaypoint> {
    let subject = provisional_subject(item, "waypoint", index);
    let place = Place { file, subject: Some(&subject) };
    if !matches!(item.value, JsonValue::Object(_)) {
        diags.error(&place, item.pos, None, format!("expected a waypoint object, found {}", item.type_name()));
        return None;
    }
    let before = diags.errors().count();
    let mut r = FieldReader::new(item, place.clone());
    let id = r.int(diags, "id");
    let name = r.string(diags, "name");
    r.member("type");
    r.member("enemyWeights");
    let x = r.real(diags, "x") as f32;
    let y = r.real(diags, "y") as f32;
    let angle = r.real(diags, "angle") as f32;
    let mut connect = Vec::new();
    let mut connect_pos = Vec::new();
    match r.member("connect") {
        None => diags.warning(&place, item.pos, Some("connect"), "missing, reads as no connections"),
        Some(m) => match &m.value.value {
            JsonValue::Array(items) => {
                for (i, c) in items.iter().enumerate() {
                    if let Some(v) = coerce_int(c, &place, &format!("connect[{i}]"), diags) {
                        connect.push(v);
                        connect_pos.push(c.pos);
                    }
                }
            }
            JsonValue::Null => diags.warning(&place, m.value.pos, Some("connect"), "null reads as no connections"),
            _ => diags.error(&place, m.value.pos, Some("connect"), format!("expected a list of waypoint ids, found {}", m.value.type_name())),
        },
    }
    r.warn_unknown_keys(diags);
    (diags.errors().count() == before).then(|| LoadedWaypoint {
        waypoint: Waypoint { id, name, x, y, angle, connect },
        pos: item.pos,
        connect_pos,
    })
}

fn check_ids(waypoints: &[LoadedWaypoint], file: &str, diags: &mut Diagnostics) {
    for (i, w) in waypoints.iter().enumerate() {
        let subject = w.subject();
        let place = Place { file, subject: Some(&subject) };
        if let Some(first) = waypoints[..i].iter().find(|o| o.waypoint.id == w.waypoint.id) {
            diags.error(&place, w.pos, Some("id"), format!("duplicate id {} (first used at line {})", w.waypoint.id, first.pos.line));
        }
        for (target, pos) in w.waypoint.connect.iter().zip(&w.connect_pos) {
            if !waypoints.iter().any(|o| o.waypoint.id == *target) {
                diags.error(&place, *pos, Some("connect"), format!("unknown waypoint id {target}"));
            } else if *target == w.waypoint.id {
                diags.warning(&place, *pos, Some("connect"), "connects to itself");
            }
        }
    }
}

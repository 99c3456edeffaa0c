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
    /// The waypoint as the graph and the planner use it (id, position, angle, `connect`).
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
    // Every entry whose id can be read, loaded or not: a waypoint left out for an error of
    // its own still exists, so neither duplicates of it nor `connect`s to it are missed or
    // misreported as unknown.
    let mut entries: Vec<(i32, Pos, String)> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let loaded = read_one(item, index, file, diags);
        if let Some((id, pos)) = entry_id(item) {
            let subject = loaded.as_ref().map_or_else(
                || provisional_subject(item, "waypoint", index),
                LoadedWaypoint::subject,
            );
            entries.push((id, pos, subject));
        }
        out.extend(loaded);
    }
    check_ids(&out, &entries, file, diags);
    out
}

/// The ids of all waypoint entries of a parsed waypoint file, including entries that have
/// errors of their own (as long as the id itself is readable); `None` when the file has no
/// usable `data` list, so references into it cannot be judged.
pub fn declared_ids(doc: &Json) -> Option<Vec<i32>> {
    match &doc.get("data")?.value.value {
        JsonValue::Array(items) if !items.is_empty() => Some(
            items
                .iter()
                .filter_map(|i| entry_id(i).map(|(id, _)| id))
                .collect(),
        ),
        _ => None,
    }
}

/// The id an entry of a `data` list reads as (as `asInt` would coerce it), with the position
/// of its value (of the entry when the key is missing); `None` when unreadable.
pub(crate) fn entry_id(item: &Json) -> Option<(i32, Pos)> {
    if !matches!(item.value, JsonValue::Object(_)) {
        return None;
    }
    let Some(member) = item.get("id") else {
        return Some((0, item.pos));
    };
    let id = match member.value.value {
        JsonValue::Null => 0,
        JsonValue::Bool(b) => i32::from(b),
        JsonValue::Number { value, .. }
            if value.is_finite()
                && value.trunc() >= f64::from(i32::MIN)
                && value.trunc() <= f64::from(i32::MAX) =>
        {
            // In range and truncated: the cast is exact.
            value.trunc() as i32
        }
        _ => return None,
    };
    Some((id, member.value.pos))
}

/// The `data` array of a decision or waypoint file, with errors for every other shape.
pub fn data_list<'a>(
    doc: &'a Json,
    file: &str,
    diags: &mut Diagnostics,
    what: &str,
) -> Option<&'a [Json]> {
    let place = Place {
        file,
        subject: None,
    };
    if !matches!(doc.value, JsonValue::Object(_)) {
        diags.error(
            &place,
            doc.pos,
            None,
            format!(
                "the root must be an object {{\"data\": [...]}}, found {}",
                doc.type_name()
            ),
        );
        return None;
    }
    let Some(member) = doc.get("data") else {
        diags.error(
            &place,
            doc.pos,
            Some("data"),
            format!("missing: the list of {what} lives under \"data\""),
        );
        return None;
    };
    match &member.value.value {
        JsonValue::Array(items) if items.is_empty() => {
            diags.error(
                &place,
                member.value.pos,
                Some("data"),
                format!("no {what}: the list is empty"),
            );
            None
        }
        JsonValue::Array(items) => Some(items),
        _ => {
            diags.error(
                &place,
                member.value.pos,
                Some("data"),
                format!(
                    "expected a list of {what}, found {}",
                    member.value.type_name()
                ),
            );
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

fn read_one(
    item: &Json,
    index: usize,
    file: &str,
    diags: &mut Diagnostics,
) -> Option<LoadedWaypoint> {
    let subject = provisional_subject(item, "waypoint", index);
    let place = Place {
        file,
        subject: Some(&subject),
    };
    if !matches!(item.value, JsonValue::Object(_)) {
        diags.error(
            &place,
            item.pos,
            None,
            format!("expected a waypoint object, found {}", item.type_name()),
        );
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
        None => diags.warning(
            &place,
            item.pos,
            Some("connect"),
            "missing, reads as no connections",
        ),
        Some(m) => match &m.value.value {
            JsonValue::Array(items) => {
                for (i, c) in items.iter().enumerate() {
                    if let Some(v) = coerce_int(c, &place, &format!("connect[{i}]"), diags) {
                        connect.push(v);
                        connect_pos.push(c.pos);
                    }
                }
            }
            JsonValue::Null => diags.warning(
                &place,
                m.value.pos,
                Some("connect"),
                "null reads as no connections",
            ),
            _ => diags.error(
                &place,
                m.value.pos,
                Some("connect"),
                format!(
                    "expected a list of waypoint ids, found {}",
                    m.value.type_name()
                ),
            ),
        },
    }
    r.warn_unknown_keys(diags);
    (diags.errors().count() == before).then_some(LoadedWaypoint {
        waypoint: Waypoint {
            id,
            name,
            x,
            y,
            angle,
            connect,
        },
        pos: item.pos,
        connect_pos,
    })
}

/// Reports a duplicate id at each later use of it, pointing at the id's value.
pub(crate) fn report_duplicates(
    entries: &[(i32, Pos, String)],
    file: &str,
    diags: &mut Diagnostics,
) {
    for (i, (id, pos, subject)) in entries.iter().enumerate() {
        if let Some((_, first, _)) = entries[..i].iter().find(|(other, _, _)| other == id) {
            let place = Place {
                file,
                subject: Some(subject),
            };
            diags.error(
                &place,
                *pos,
                Some("id"),
                format!("duplicate id {id} (first used at line {})", first.line),
            );
        }
    }
}

fn check_ids(
    waypoints: &[LoadedWaypoint],
    entries: &[(i32, Pos, String)],
    file: &str,
    diags: &mut Diagnostics,
) {
    report_duplicates(entries, file, diags);
    for w in waypoints {
        let subject = w.subject();
        let place = Place {
            file,
            subject: Some(&subject),
        };
        for (target, pos) in w.waypoint.connect.iter().zip(&w.connect_pos) {
            if !entries.iter().any(|(id, _, _)| id == target) {
                diags.error(
                    &place,
                    *pos,
                    Some("connect"),
                    format!("unknown waypoint id {target}"),
                );
            } else if *target == w.waypoint.id {
                diags.warning(&place, *pos, Some("connect"), "connects to itself");
            }
        }
    }
}

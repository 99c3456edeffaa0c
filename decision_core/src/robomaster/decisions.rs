//! `decisions.json`: the weighted rules, read with the original's field names and coercions.

use super::diagnostics::{Diagnostics, Place};
use super::fields::{FieldReader, int_list};
use super::jsonc::{Json, JsonValue, Pos};
use super::waypoints::{data_list, entry_id, provisional_subject, report_duplicates};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Number of unit slots in `enemyPosition` / `friendPosition`: hero, engineer, infantry 3, 4,
/// 5, sentry.
pub const UNIT_SLOTS: usize = 6;

/// "Skip this check" in the original's files.
pub const SKIP: i32 = -1;

/// One decision as written in the file (the schema's source of truth).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Decision {
    /// Unique id >= 0, published as `decision_id` (uint8: ids above 255 wrap, with a warning).
    pub id: i32,
    /// Name for diagnostics and the viewer.
    pub name: String,
    /// Waypoints where this decision applies; `[-1]` for anywhere.
    #[serde(rename = "wayPointID")]
    pub waypoint_ids: Vec<i32>,
    /// Higher wins; a strictly heavier decision preempts a running one; <= 0 is never chosen.
    pub weight: i32,
    /// Elapsed game seconds must be > this (-1 skips).
    pub start_time: i32,
    /// Elapsed game seconds must be <= this (-1 skips).
    pub end_time: i32,
    /// `serial_msg.mode` must equal this (-1 skips).
    pub robot_mode: i32,
    /// Own HP must be > this (-1 skips).
    #[serde(rename = "minHP")]
    pub min_hp: i32,
    /// Own HP must be <= this (-1 skips).
    #[serde(rename = "maxHP")]
    pub max_hp: i32,
    /// Mode sent to the lower computer (6 cruise, 7 spin, 8 auto-aim; -1 keeps the current mode).
    pub decide_mode: i32,
    /// Target waypoint id (-1: the current waypoint).
    #[serde(rename = "decide_wayPoint")]
    pub decide_waypoint: i32,
    /// Friendly outpost HP must be >= this (-1 skips).
    #[serde(rename = "out_post_HP_min")]
    pub outpost_hp_min: i32,
    /// Friendly outpost HP must be <= this (-1 or missing skips; later original versions only).
    #[serde(
        rename = "out_post_HP_max",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub outpost_hp_max: Option<i32>,
    /// Friendly base HP must be >= this (-1 skips).
    #[serde(rename = "base_HP_min")]
    pub base_hp_min: i32,
    /// Plan a chain over `connect` (depth-first) instead of driving straight to the target.
    pub if_succession: bool,
    /// Drive backwards (heading + pi).
    pub if_reverse: bool,
    /// Per enemy unit slot, the waypoints it must be at (`[-1]` skips the slot).
    #[serde(rename = "enemyPosition")]
    pub enemy_position: Vec<Vec<i32>>,
    /// Per friendly unit slot, the waypoints it must be at (`[-1]` skips the slot).
    #[serde(rename = "friendPosition")]
    pub friend_position: Vec<Vec<i32>>,
}

impl Decision {
    /// `decision 3 "retreat"`, for diagnostics and explanations.
    pub fn subject(&self) -> String {
        format!("decision {} \"{}\"", self.id, self.name)
    }
}

/// The whole `decisions.json` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DecisionsFile {
    /// The decisions in file order (order breaks weight ties).
    pub data: Vec<Decision>,
}

/// Source positions of a loaded decision's fields, for diagnostics after loading.
#[derive(Debug, Clone, Default)]
pub struct DecisionPositions {
    /// Where the decision's `{` stands (diagnostics about the decision as a whole).
    pub object: Pos,
    /// Each field's value by key.
    pub fields: Vec<(&'static str, Pos)>,
    /// Each element of the id lists, e.g. `wayPointID[1]`, `enemyPosition[2]` (a slot) and
    /// `enemyPosition[2][0]` (an id in it).
    pub items: Vec<(String, Pos)>,
}

impl DecisionPositions {
    /// Position of `field`'s value, or of the object.
    pub fn of(&self, field: &str) -> Pos {
        self.fields
            .iter()
            .find(|(k, _)| *k == field)
            .map_or(self.object, |(_, p)| *p)
    }

    /// Position of a list element such as `wayPointID[1]` or `enemyPosition[2][0]`; falls
    /// back to the enclosing list, then to the field, then to the object.
    pub fn item(&self, path: &str) -> Pos {
        let mut path = path;
        loop {
            if let Some((_, pos)) = self.items.iter().find(|(k, _)| k == path) {
                return *pos;
            }
            match path.rfind('[') {
                Some(cut) if cut > 0 => path = &path[..cut],
                _ => return self.of(path),
            }
        }
    }
}

/// A decision with its source positions.
#[derive(Debug, Clone)]
pub struct LoadedDecision {
    /// The decision with its fields coerced and defaulted as the original reads them.
    pub decision: Decision,
    /// Where its parts stand.
    pub positions: DecisionPositions,
}

const FIELDS: &[&str] = &[
    "id",
    "name",
    "wayPointID",
    "weight",
    "start_time",
    "end_time",
    "robot_mode",
    "minHP",
    "maxHP",
    "decide_mode",
    "decide_wayPoint",
    "out_post_HP_min",
    "out_post_HP_max",
    "base_HP_min",
    "if_succession",
    "if_reverse",
    "enemyPosition",
    "friendPosition",
];

/// The keys a decision object may have, for the schema consistency test.
pub fn field_names() -> &'static [&'static str] {
    FIELDS
}

/// Reads the `data` list of a parsed decision file; entries with errors are left out.
pub fn read_decisions(doc: &Json, file: &str, diags: &mut Diagnostics) -> Vec<LoadedDecision> {
    let Some(items) = data_list(doc, file, diags, "decisions") else {
        return Vec::new();
    };
    let mut out: Vec<LoadedDecision> = Vec::with_capacity(items.len());
    // Ids of every entry, loaded or left out for an error of its own, for the duplicate check.
    let mut entries: Vec<(i32, Pos, String)> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let loaded = read_one(item, index, file, diags);
        if let Some((id, pos)) = entry_id(item) {
            let subject = loaded.as_ref().map_or_else(
                || provisional_subject(item, "decision", index),
                |d| d.decision.subject(),
            );
            entries.push((id, pos, subject));
        }
        out.extend(loaded);
    }
    report_duplicates(&entries, file, diags);
    out
}

/// Positions of the elements of the id lists of a decision object.
fn element_positions(item: &Json) -> Vec<(String, Pos)> {
    fn array(value: &Json) -> Option<&[Json]> {
        match &value.value {
            JsonValue::Array(items) => Some(items),
            _ => None,
        }
    }
    let mut out = Vec::new();
    let list = |key: &str| item.get(key).and_then(|m| array(&m.value));
    for (i, id) in list("wayPointID").unwrap_or_default().iter().enumerate() {
        out.push((format!("wayPointID[{i}]"), id.pos));
    }
    for key in ["enemyPosition", "friendPosition"] {
        for (s, slot) in list(key).unwrap_or_default().iter().enumerate() {
            out.push((format!("{key}[{s}]"), slot.pos));
            for (i, id) in array(slot).unwrap_or_default().iter().enumerate() {
                out.push((format!("{key}[{s}][{i}]"), id.pos));
            }
        }
    }
    out
}

fn read_one(
    item: &Json,
    index: usize,
    file: &str,
    diags: &mut Diagnostics,
) -> Option<LoadedDecision> {
    let subject = provisional_subject(item, "decision", index);
    let place = Place {
        file,
        subject: Some(&subject),
    };
    if !matches!(item.value, JsonValue::Object(_)) {
        diags.error(
            &place,
            item.pos,
            None,
            format!("expected a decision object, found {}", item.type_name()),
        );
        return None;
    }
    let before = diags.errors().count();
    let mut r = FieldReader::new(item, place.clone());
    let decision = Decision {
        id: r.int(diags, "id"),
        name: r.string(diags, "name"),
        waypoint_ids: r.int_list(diags, "wayPointID").unwrap_or_default(),
        weight: r.int(diags, "weight"),
        start_time: r.int(diags, "start_time"),
        end_time: r.int(diags, "end_time"),
        robot_mode: r.int(diags, "robot_mode"),
        min_hp: r.int(diags, "minHP"),
        max_hp: r.int(diags, "maxHP"),
        decide_mode: r.int(diags, "decide_mode"),
        decide_waypoint: r.int(diags, "decide_wayPoint"),
        outpost_hp_min: r.int(diags, "out_post_HP_min"),
        outpost_hp_max: r.opt_int(diags, "out_post_HP_max").filter(|v| *v != SKIP),
        base_hp_min: r.int(diags, "base_HP_min"),
        if_succession: r.bool(diags, "if_succession"),
        if_reverse: r.bool(diags, "if_reverse"),
        enemy_position: read_slots(&mut r, diags, "enemyPosition"),
        friend_position: read_slots(&mut r, diags, "friendPosition"),
    };
    r.warn_unknown_keys(diags);
    let positions = DecisionPositions {
        object: item.pos,
        fields: FIELDS.iter().map(|k| (*k, r.pos_of(k))).collect(),
        items: element_positions(item),
    };
    check_values(&decision, &positions, &place, diags);
    (diags.errors().count() == before).then_some(LoadedDecision {
        decision,
        positions,
    })
}

/// Reads `enemyPosition` / `friendPosition`: one waypoint list per unit slot; a missing slot
/// reads as `[-1]` with a warning (the original only checks the slots present).
fn read_slots(r: &mut FieldReader, diags: &mut Diagnostics, key: &'static str) -> Vec<Vec<i32>> {
    let skip_all = vec![vec![SKIP]; UNIT_SLOTS];
    let place = r.place().clone();
    let Some(m) = r.member(key) else {
        diags.warning(
            &place,
            r.pos(),
            Some(key),
            "missing, reads as no condition on any unit",
        );
        return skip_all;
    };
    let JsonValue::Array(slots) = &m.value.value else {
        if m.value.value == JsonValue::Null {
            diags.warning(
                &place,
                m.value.pos,
                Some(key),
                "null reads as no condition on any unit",
            );
        } else {
            diags.error(&place, m.value.pos, Some(key), format!("expected {UNIT_SLOTS} lists of waypoint ids (hero, engineer, infantry 3, 4, 5, sentry), found {}", m.value.type_name()));
        }
        return skip_all;
    };
    if slots.len() < UNIT_SLOTS {
        diags.warning(
            &place,
            m.value.pos,
            Some(key),
            format!(
                "{} of {UNIT_SLOTS} unit slots given; the missing ones read as [-1] (no condition)",
                slots.len()
            ),
        );
    } else if slots.len() > UNIT_SLOTS {
        diags.warning(
            &place,
            m.value.pos,
            Some(key),
            format!(
                "{} unit slots given; only the first {UNIT_SLOTS} are used",
                slots.len()
            ),
        );
    }
    let mut out = skip_all;
    for (i, slot) in slots.iter().take(UNIT_SLOTS).enumerate() {
        if let Some(list) = int_list(slot, &place, &format!("{key}[{i}]"), diags) {
            out[i] = list;
        }
    }
    out
}

/// The Decision message's uint8 `decision_id` for a decision id (ids above 255 wrap).
pub fn decision_id_on_wire(id: i32) -> u8 {
    id.rem_euclid(256) as u8
}

fn check_values(d: &Decision, pos: &DecisionPositions, place: &Place, diags: &mut Diagnostics) {
    if d.id < 0 {
        diags.error(
            place,
            pos.of("id"),
            Some("id"),
            format!("{} is negative; decision ids are 0 or more", d.id),
        );
    } else if d.id > 255 {
        diags.warning(
            place,
            pos.of("id"),
            Some("id"),
            format!(
                "{} does not fit the Decision message's uint8 decision_id: it is published as {}",
                d.id,
                decision_id_on_wire(d.id)
            ),
        );
    }
    if !(d.decide_mode == SKIP || (0..=255).contains(&d.decide_mode)) {
        diags.error(
            place,
            pos.of("decide_mode"),
            Some("decide_mode"),
            format!(
                "{} is neither -1 (keep the current mode) nor a mode 0..255",
                d.decide_mode
            ),
        );
    }
    if d.decide_waypoint < SKIP {
        diags.error(
            place,
            pos.of("decide_wayPoint"),
            Some("decide_wayPoint"),
            format!(
                "{} is neither -1 (the current waypoint) nor a waypoint id",
                d.decide_waypoint
            ),
        );
    }
    let lists = std::iter::once(("wayPointID".to_string(), &d.waypoint_ids))
        .chain(
            d.enemy_position
                .iter()
                .enumerate()
                .map(|(i, l)| (format!("enemyPosition[{i}]"), l)),
        )
        .chain(
            d.friend_position
                .iter()
                .enumerate()
                .map(|(i, l)| (format!("friendPosition[{i}]"), l)),
        );
    for (field, list) in lists {
        if list.first() == Some(&SKIP) {
            continue;
        }
        if let Some(at) = list.iter().position(|v| *v == SKIP) {
            diags.warning(
                place,
                pos.item(&format!("{field}[{at}]")),
                Some(&field),
                "-1 skips the check only as the first element; here it matches nothing",
            );
        }
    }
}

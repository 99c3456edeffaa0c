//! Scenario errors name the file, line, column and field.

mod common;

use common::{scenario_file, tables, wall_config};
use fake_publisher::{Problem, Scenario, Side, Simulation, load_scenario};

/// Loads `text` (with `FIELD` replaced by the wall field's config) and returns its problems.
fn problems(text: &str) -> Vec<Problem> {
    let text = text.replace(
        "FIELD",
        &format!("{:?}", wall_config().display().to_string()),
    );
    let (_dir, path) = scenario_file("bad.json5", &text);
    match load_scenario(&path) {
        Ok(s) => panic!("expected an error, loaded {s:?}"),
        Err(e) => {
            assert!(
                e.problems
                    .iter()
                    .all(|p| p.file == path || p.file.to_string_lossy().contains("fixtures"))
            );
            e.problems
        }
    }
}

fn at(p: &Problem) -> (usize, usize, &str) {
    (p.line, p.column, p.field.as_str())
}

#[test]
fn bad_json5_names_line_and_column() {
    let p = problems("{\n  field: FIELD,\n  side: 'red'\n  rate: 5,\n}");
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].line, p[0].column), (4, 3), "{}", p[0]);
    assert!(p[0].message.contains("expected"), "{}", p[0]);
    assert!(
        !p[0].to_string().contains(" at line"),
        "position not repeated: {}",
        p[0]
    );
}

#[test]
fn unknown_and_mistyped_fields() {
    let p = problems("{field: FIELD, side: 'red',\n  nav: {sped: 2}}");
    assert_eq!(at(&p[0]), (2, 9, "nav.sped"), "{}", p[0]);
    assert!(p[0].message.contains("unknown field `sped`"), "{}", p[0]);

    let p = problems("{field: FIELD, side: 'red',\n  hp: {R7: -5}}");
    assert_eq!(at(&p[0]), (2, 12, "hp.R7"), "{}", p[0]);

    let p = problems("{field: FIELD, side: 'red',\n  robots: {B3: {patrol: [1], sped: 1}}}");
    // Found by a hand-written visitor, which reports the path of the object: shown at the key.
    assert_eq!(at(&p[0]), (2, 30, "robots.B3.sped"), "{}", p[0]);
    assert!(p[0].message.contains("unknown field `sped`"), "{}", p[0]);

    // Duplicate keys are refused (JSON5 dialect), at the second one.
    let p = problems("{field: FIELD, side: 'red',\n  side: 'blue'}");
    assert_eq!((p[0].line, p[0].column), (2, 3), "{}", p[0]);
    assert!(p[0].message.contains("duplicate key \"side\""), "{}", p[0]);

    let p = problems("{field: FIELD, side: 'red', robots: {B9: 'stationary'}}");
    assert!(p[0].message.contains("B9"), "{}", p[0]);

    let p = problems("{field: FIELD,\n side: 'green'}");
    assert_eq!(at(&p[0]), (2, 8, "side"), "{}", p[0]);
}

#[test]
fn unknown_waypoint_ids_point_at_the_id() {
    let p = problems(
        "{\n  field: FIELD,\n  side: 'red',\n  robots: {\n    B1: {patrol: [1, 2,\n      42]},\n  },\n}",
    );
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(at(&p[0]), (6, 7, "robots.B1.patrol[2]"), "{}", p[0]);
    assert!(p[0].message.contains("unknown waypoint id 42"), "{}", p[0]);
    let shown = p[0].to_string();
    assert!(
        shown.contains("bad.json5:6:7: `robots.B1.patrol[2]`: unknown waypoint id 42"),
        "{shown}"
    );
}

#[test]
fn side_mismatch() {
    let p = problems("{field: FIELD,\n side: 'blue'}");
    assert_eq!(at(&p[0]), (2, 8, "side"), "{}", p[0]);
    assert!(p[0].message.contains("INIT_ISBLUE false"), "{}", p[0]);
}

#[test]
fn bad_values_are_all_reported() {
    let p = problems(
        "{field: FIELD, side: 'red',
          rate: 0,
          nav: {speed: -1},
          start: {B2: {x: 13, y: 2}, self: 9},
          robots: {B1: {random_walk: {speed: -2}}, B2: 'stationary', R7: 'stationary', B4: 'stationary'},
          hp_events: [{at: -1, target: 16, damage: 5, set: 3}],
          structure_damage: [{target: 'base', from: 10, to: 5, hp_per_second: 1}],
          regeneration: {waypoint: 77, hp_per_second: 1},
        }",
    );
    let fields: Vec<&str> = p.iter().map(|p| p.field.as_str()).collect();
    for f in [
        "rate",
        "nav.speed",
        "start.B2.x",
        "start.self",
        "robots.B1.random_walk.speed",
        "robots.R7",
        "robots.B4",
        "hp_events[0].at",
        "hp_events[0].target",
        "hp_events[0]",
        "structure_damage[0].to",
        "regeneration.waypoint",
    ] {
        assert!(fields.contains(&f), "{f} missing in {fields:?}");
    }
    assert!(p.iter().all(|p| p.line >= 2), "{p:?}");
    let rate = p
        .iter()
        .find(|p| p.field == "rate")
        .map(|p| (p.line, p.column));
    assert_eq!(rate, Some((2, 17)));
}

#[test]
fn a_missing_field_config_is_reported_at_field() {
    let (_dir, path) = scenario_file("s.json5", "{field: 'nowhere/config.json', side: 'red'}");
    let e = load_scenario(&path)
        .err()
        .unwrap_or_else(|| panic!("must fail"));
    assert_eq!(at(&e.problems[0]), (1, 9, "field"), "{e}");
    assert!(e.problems.len() >= 2, "the field's own errors follow: {e}");
}

#[test]
fn a_missing_file_is_reported() {
    let e = load_scenario(std::path::Path::new("/nonexistent/s.json5"))
        .err()
        .unwrap_or_else(|| panic!("must fail"));
    assert!(e.to_string().contains("cannot read"), "{e}");
}

#[test]
fn simulation_new_checks_against_its_tables() {
    let scenario = Scenario::new("unused", Side::Blue);
    let e = Simulation::new(&scenario, tables(&wall_config()), 0)
        .err()
        .unwrap_or_else(|| panic!("side mismatch"));
    assert_eq!(e.problems[0].field, "side");
    assert!(
        Simulation::new(
            &Scenario::new("unused", Side::Red),
            tables(&wall_config()),
            0
        )
        .is_ok()
    );
}

#[test]
fn schema_lists_every_top_level_field() {
    let schema = serde_json::to_value(fake_publisher::scenario_schema()).unwrap_or_default();
    let props = schema["properties"]
        .as_object()
        .map(|o| o.keys().cloned().collect::<Vec<_>>())
        .unwrap_or_default();
    for key in [
        "field",
        "side",
        "game_time",
        "stages",
        "start",
        "hp",
        "hp_events",
        "regeneration",
        "structure_damage",
        "robots",
        "rate",
        "nav",
        "mode",
        "combat",
        "description",
    ] {
        assert!(props.iter().any(|p| p == key), "{key} not in {props:?}");
    }
    assert_eq!(
        schema["properties"]["robots"]["additionalProperties"],
        serde_json::Value::Bool(false)
    );
}

#[test]
fn scenarios_round_trip_through_serde() {
    let path = common::sample_dir().join("scenarios/outpost_loss.json5");
    let scenario = load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
    let json = serde_json::to_string(&scenario).unwrap_or_default();
    let back: Scenario = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(
        serde_json::to_value(&back).ok(),
        serde_json::to_value(&scenario).ok()
    );
}

/// The manual's copy (`docs/src/schemas/scenario.json`) is what `fake-publisher --schema`
/// prints now (CI writes it again and fails on a difference).
#[test]
fn the_manual_carries_the_current_schema() {
    let path = common::manifest_dir().join("../docs/src/schemas/scenario.json");
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    let current = serde_json::to_string_pretty(&fake_publisher::scenario_schema())
        .map(|t| t + "\n")
        .unwrap_or_default();
    assert!(
        stored == current,
        "{} is stale: run `fake-publisher --schema > docs/src/schemas/scenario.json`",
        path.display()
    );
}

/// The one problem of `text`, as (line, column, field) and its message.
fn one(text: &str) -> ((usize, usize, String), String) {
    let p = problems(text);
    assert_eq!(p.len(), 1, "{p:?}");
    let p = &p[0];
    ((p.line, p.column, p.field.clone()), p.message.clone())
}

#[test]
fn combat_unknown_keys_are_shown_at_the_key() {
    let (at, message) = one("{field: FIELD, side: 'red',\n  combat: {enemy_gn: {}}}");
    assert_eq!(at, (2, 12, "combat.enemy_gn".into()));
    assert!(message.contains("unknown field `enemy_gn`"), "{message}");
    let (at, message) = one("{field: FIELD, side: 'red',\n  combat: {own_gun: {rnage: 3}}}");
    assert_eq!(at, (2, 22, "combat.own_gun.rnage".into()));
    assert!(message.contains("unknown field `rnage`"), "{message}");
}

#[test]
fn combat_mistyped_values_are_shown_at_the_value() {
    let (at, message) = one("{field: FIELD, side: 'red',\n  combat: {own_gun: {range: 'far'}}}");
    assert_eq!(at, (2, 29, "combat.own_gun.range".into()));
    assert!(message.contains("expected f64"), "{message}");
    let (at, _) = one("{field: FIELD, side: 'red',\n  combat: {spin_modes: [7, 300]}}");
    assert_eq!(at, (2, 28, "combat.spin_modes[1]".into()));
    let (at, _) = one("{field: FIELD, side: 'red',\n  combat: {base_shielded_by_outpost: 1}}");
    assert_eq!(at, (2, 38, "combat.base_shielded_by_outpost".into()));
    let (at, message) = one("{field: FIELD, side: 'red',\n  combat: {siege_range: Infinity}}");
    assert_eq!(at, (2, 25, "combat.siege_range".into()));
    assert!(message.contains("finite"), "{message}");
}

#[test]
fn combat_ranges_must_be_positive() {
    let (at, message) = one("{field: FIELD, side: 'red',\n  combat: {enemy_gun: {range: 0}}}");
    assert_eq!(at, (2, 31, "combat.enemy_gun.range".into()));
    assert!(
        message.contains("must be a number > 0 m, found 0"),
        "{message}"
    );
}

#[test]
fn combat_amounts_must_not_be_negative() {
    let p = problems(
        "{field: FIELD, side: 'red',
          combat: {own_gun: {damage_per_hit: -1}, siege_range: -1,
                   siege_hp_per_second: -2, defender_radius: -0.5}}",
    );
    let found: Vec<(usize, usize, &str)> = p.iter().map(at).collect();
    assert_eq!(
        found,
        [
            (2, 46, "combat.own_gun.damage_per_hit"),
            (2, 64, "combat.siege_range"),
            (3, 41, "combat.siege_hp_per_second"),
            (3, 62, "combat.defender_radius"),
        ]
    );
    assert!(
        p[0].message.contains("must be a number >= 0 HP"),
        "{}",
        p[0]
    );
    assert!(p[2].message.contains(">= 0 HP/s"), "{}", p[2]);
}

#[test]
fn combat_chances_and_factors_are_fractions() {
    let p = problems(
        "{field: FIELD, side: 'red',
          combat: {enemy_gun: {hit_chance_near: 1.5, hit_chance_far: -0.1}, spin_hit_factor: 2}}",
    );
    let found: Vec<(usize, usize, &str)> = p.iter().map(at).collect();
    assert_eq!(
        found,
        [
            (2, 49, "combat.enemy_gun.hit_chance_near"),
            (2, 70, "combat.enemy_gun.hit_chance_far"),
            (2, 94, "combat.spin_hit_factor"),
        ]
    );
    assert!(
        p[0].message
            .contains("must be a number in 0 ..= 1, found 1.5"),
        "{}",
        p[0]
    );
}

#[test]
fn combat_fire_rates_are_bounded() {
    let (at, message) =
        one("{field: FIELD, side: 'red',\n  combat: {own_gun: {shots_per_second: 1000}}}");
    assert_eq!(at, (2, 40, "combat.own_gun.shots_per_second".into()));
    assert!(
        message.contains("0 ..= 100 shots/s, found 1000"),
        "{message}"
    );
    let (at, _) = one("{field: FIELD, side: 'red',\n  combat: {own_gun: {shots_per_second: -1}}}");
    assert_eq!(at, (2, 40, "combat.own_gun.shots_per_second".into()));
}

#[test]
fn combat_structure_places_are_checked_against_the_field() {
    let p =
        problems("{field: FIELD, side: 'red',\n  combat: {outpost: 42,\n    base: {x: 13, y: 1}}}");
    let found: Vec<(usize, usize, &str)> = p.iter().map(at).collect();
    assert_eq!(found, [(2, 21, "combat.outpost"), (3, 15, "combat.base.x")]);
    assert!(p[0].message.contains("unknown waypoint id 42"), "{}", p[0]);
    assert!(p[1].message.contains("outside the field"), "{}", p[1]);
}

#[test]
fn an_empty_combat_section_takes_every_default() {
    let text = format!(
        "{{field: {:?}, side: 'red', combat: {{}}}}",
        wall_config().display().to_string()
    );
    let (_dir, path) = scenario_file("ok.json5", &text);
    let scenario = load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scenario.combat, Some(fake_publisher::CombatSpec::default()));
    let c = fake_publisher::CombatSpec::default();
    assert_eq!(c.spin_modes, [7]);
    assert_eq!(
        (
            c.spin_hit_factor,
            c.siege_range,
            c.siege_hp_per_second,
            c.defender_radius
        ),
        (0.5, 3.0, 20.0, 2.0)
    );
    assert!(c.base_shielded_by_outpost && c.outpost.is_none() && c.base.is_none());
    let g = fake_publisher::Gun::default();
    assert_eq!(
        (
            g.range,
            g.shots_per_second,
            g.damage_per_hit,
            g.hit_chance_near,
            g.hit_chance_far
        ),
        (5.0, 4.0, 10.0, 0.8, 0.2)
    );
}

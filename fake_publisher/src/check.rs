//! Checks the values of a parsed scenario against the field: side, waypoint ids, points inside
//! the field, speeds, times and rates. Each finding is a path into the file and a message.

use crate::locate::JsonPath;
use crate::scenario::{
    Behaviour, CombatSpec, Gun, MAX_RATE, MAX_SHOTS_PER_SECOND, Place, ROBOT_NAMES, RobotName,
    Scenario, Side, Target, UnitName,
};
use decision_core::robomaster::Tables;

/// Our robot's `car_pos` index on the field of `tables`.
pub(crate) fn own_index(tables: &Tables) -> usize {
    let slot = usize::try_from(tables.config.self_index.clamp(0, 5)).unwrap_or(0);
    if tables.config.is_blue {
        slot + 6
    } else {
        slot
    }
}

struct Checker<'a> {
    tables: &'a Tables,
    out: Vec<(JsonPath, String)>,
}

impl Checker<'_> {
    fn fail(&mut self, path: JsonPath, message: impl Into<String>) {
        self.out.push((path, message.into()));
    }

    fn waypoint(&mut self, path: JsonPath, id: i32) {
        if self.tables.graph.get(id).is_none() {
            let ids: Vec<String> = self
                .tables
                .graph
                .waypoints()
                .iter()
                .map(|w| w.id.to_string())
                .collect();
            let known = if ids.len() <= 40 {
                format!(" (the field has {})", ids.join(", "))
            } else {
                String::new()
            };
            self.fail(path, format!("unknown waypoint id {id}{known}"));
        }
    }

    fn non_negative(&mut self, path: JsonPath, value: f64, unit: &str) {
        if !(value.is_finite() && value >= 0.0) {
            self.fail(path, format!("must be a number >= 0 {unit}, found {value}"));
        }
    }

    fn positive(&mut self, path: JsonPath, value: f64, unit: &str) {
        if !(value.is_finite() && value > 0.0) {
            self.fail(path, format!("must be a number > 0 {unit}, found {value}"));
        }
    }

    fn point(&mut self, path: &JsonPath, x: f64, y: f64) {
        let (w, h) = (
            f64::from(self.tables.config.real_width),
            f64::from(self.tables.config.real_height),
        );
        if !(x.is_finite() && x > 0.0 && x <= w) {
            self.fail(
                path.key("x"),
                format!("x = {x} is outside the field (0 < x <= {w} m; 0 means \"unknown\")"),
            );
        }
        if !(y.is_finite() && y > 0.0 && y <= h) {
            self.fail(
                path.key("y"),
                format!("y = {y} is outside the field (0 < y <= {h} m; 0 means \"unknown\")"),
            );
        }
    }

    fn place(&mut self, path: JsonPath, place: &Place) {
        match place {
            Place::Waypoint(id) => self.waypoint(path, *id),
            Place::Point(p) => self.point(&path, p.x, p.y),
        }
    }

    /// A chance or factor: 0 ..= 1.
    fn fraction(&mut self, path: JsonPath, value: f64) {
        if !(value.is_finite() && (0.0..=1.0).contains(&value)) {
            self.fail(path, format!("must be a number in 0 ..= 1, found {value}"));
        }
    }

    fn gun(&mut self, path: &JsonPath, gun: &Gun) {
        self.positive(path.key("range"), gun.range, "m");
        let shots = gun.shots_per_second;
        if !(shots.is_finite() && (0.0..=MAX_SHOTS_PER_SECOND).contains(&shots)) {
            self.fail(
                path.key("shots_per_second"),
                format!("must be a number in 0 ..= {MAX_SHOTS_PER_SECOND} shots/s, found {shots}"),
            );
        }
        self.non_negative(path.key("damage_per_hit"), gun.damage_per_hit, "HP");
        self.fraction(path.key("hit_chance_near"), gun.hit_chance_near);
        self.fraction(path.key("hit_chance_far"), gun.hit_chance_far);
    }

    fn combat(&mut self, path: &JsonPath, combat: &CombatSpec) {
        self.gun(&path.key("enemy_gun"), &combat.enemy_gun);
        self.gun(&path.key("own_gun"), &combat.own_gun);
        self.fraction(path.key("spin_hit_factor"), combat.spin_hit_factor);
        if let Some(place) = &combat.outpost {
            self.place(path.key("outpost"), place);
        }
        if let Some(place) = &combat.base {
            self.place(path.key("base"), place);
        }
        self.non_negative(path.key("siege_range"), combat.siege_range, "m");
        self.non_negative(
            path.key("siege_hp_per_second"),
            combat.siege_hp_per_second,
            "HP/s",
        );
        self.non_negative(path.key("defender_radius"), combat.defender_radius, "m");
    }

    /// Times are simulated seconds from the start: finite and >= 0.
    fn time(&mut self, path: JsonPath, t: f64) {
        if !(t.is_finite() && t >= 0.0) {
            self.fail(path, format!("must be a time >= 0 s, found {t}"));
        }
    }
}

/// All findings of `scenario` on the field of `tables`, in file order of the fields.
pub(crate) fn check(scenario: &Scenario, tables: &Tables) -> Vec<(JsonPath, String)> {
    let mut c = Checker {
        tables,
        out: Vec::new(),
    };
    let root = JsonPath::root();
    let config = &tables.config;
    let field_side = if config.is_blue {
        Side::Blue
    } else {
        Side::Red
    };
    if scenario.side != field_side {
        c.fail(
            root.key("side"),
            format!(
                "the scenario plays {}, but the field's config plays {} (INIT_ISBLUE {})",
                scenario.side.as_str(),
                field_side.as_str(),
                config.is_blue
            ),
        );
    }
    if let Some(g) = scenario.game_time {
        c.positive(root.key("game_time"), g, "s");
    }
    let mut last = 0.0;
    for (i, s) in scenario.stages.iter().enumerate() {
        let path = root.key("stages").index(i);
        c.time(path.key("at"), s.at);
        if s.at < last {
            c.fail(
                path.key("at"),
                format!("stages must be in time order: {} < {last}", s.at),
            );
        }
        last = s.at;
        if s.stage > 5 {
            c.fail(
                path.key("stage"),
                format!("game stages are 0..5, found {}", s.stage),
            );
        }
    }

    let ours = own_index(tables);
    let our_name = ROBOT_NAMES.get(ours).copied().unwrap_or("self");
    for (name, place) in &scenario.start {
        c.place(root.key("start").key(name.as_str()), place);
        if *name == RobotName::Ours && scenario.start.keys().any(|n| n.index() == Some(ours)) {
            c.fail(
                root.key("start").key("self"),
                format!("our robot's start is given twice (`self` and `{our_name}`)"),
            );
        }
    }
    let our_start_given = scenario.start.keys().any(|n| n.resolve(ours) == ours);
    if !our_start_given && tables.graph.is_empty() {
        c.fail(
            root.key("start"),
            "the field has no waypoints: give our robot's start as {x, y}",
        );
    }
    if scenario.hp.contains_key(&UnitName::Ours)
        && scenario
            .hp
            .keys()
            .any(|n| n.index() == Some(hp_index_of(ours)))
    {
        c.fail(
            root.key("hp").key("self"),
            format!("our robot's HP is given twice (`self` and `{our_name}`)"),
        );
    }

    for (i, e) in scenario.hp_events.iter().enumerate() {
        let path = root.key("hp_events").index(i);
        c.time(path.key("at"), e.at);
        if let Target::Index(n) = e.target
            && n > 15
        {
            c.fail(
                path.key("target"),
                format!("obj_hp has indices 0..15, found {n}"),
            );
        }
        let given = usize::from(e.set.is_some())
            + usize::from(e.damage.is_some())
            + usize::from(e.heal.is_some());
        if given != 1 {
            c.fail(path.clone(), "give exactly one of `set`, `damage`, `heal`");
        }
        if let Some(d) = e.damage {
            c.non_negative(path.key("damage"), d, "HP");
        }
        if let Some(h) = e.heal {
            c.non_negative(path.key("heal"), h, "HP");
        }
    }

    if let Some(r) = &scenario.regeneration {
        let path = root.key("regeneration");
        c.waypoint(path.key("waypoint"), r.waypoint);
        c.non_negative(path.key("hp_per_second"), r.hp_per_second, "HP/s");
        if let Some(radius) = r.radius {
            c.non_negative(path.key("radius"), radius, "m");
        }
    }

    for (i, d) in scenario.structure_damage.iter().enumerate() {
        let path = root.key("structure_damage").index(i);
        c.time(path.key("from"), d.from);
        c.time(path.key("to"), d.to);
        if d.to < d.from {
            c.fail(
                path.key("to"),
                format!("the window ends ({}) before it starts ({})", d.to, d.from),
            );
        }
        c.non_negative(path.key("hp_per_second"), d.hp_per_second, "HP/s");
    }

    for (name, behaviour) in &scenario.robots {
        let path = root.key("robots").key(name.as_str());
        if name.resolve(ours) == ours {
            c.fail(
                path.clone(),
                format!("our robot ({our_name}) is driven by the simulated Nav2; give its start in `start` instead"),
            );
            continue;
        }
        match behaviour {
            Behaviour::Patrol { waypoints, speed } => {
                if waypoints.is_empty() {
                    c.fail(path.key("patrol"), "a patrol needs at least one waypoint");
                }
                for (k, id) in waypoints.iter().enumerate() {
                    c.waypoint(path.key("patrol").index(k), *id);
                }
                c.non_negative(path.key("speed"), *speed, "m/s");
            }
            Behaviour::RandomWalk(walk) => {
                c.non_negative(path.key("random_walk").key("speed"), walk.speed, "m/s");
                if tables.graph.is_empty() {
                    c.fail(
                        path.key("random_walk"),
                        "the field has no waypoints to walk",
                    );
                }
            }
            Behaviour::Script(points) => {
                if scenario.start.contains_key(name) {
                    c.fail(
                        root.key("start").key(name.as_str()),
                        "a scripted robot starts at its first script point: remove its start",
                    );
                }
                if points.is_empty() {
                    c.fail(path.key("script"), "a script needs at least one point");
                }
                let mut last = 0.0;
                for (k, p) in points.iter().enumerate() {
                    let pp = path.key("script").index(k);
                    c.time(pp.key("at"), p.at);
                    if p.at < last {
                        c.fail(
                            pp.key("at"),
                            format!("script points must be in time order: {} < {last}", p.at),
                        );
                    }
                    last = p.at;
                    c.point(&pp, p.x, p.y);
                }
            }
            Behaviour::Stationary => {
                if !scenario.start.contains_key(name) {
                    c.fail(
                        path,
                        format!(
                            "a stationary robot needs a start (`start.{}`)",
                            name.as_str()
                        ),
                    );
                }
            }
        }
    }

    if !(scenario.rate.is_finite() && scenario.rate > 0.0 && scenario.rate <= MAX_RATE) {
        c.fail(
            root.key("rate"),
            format!("must be > 0 and <= {MAX_RATE} Hz, found {}", scenario.rate),
        );
    }
    c.positive(root.key("nav").key("speed"), scenario.nav.speed, "m/s");
    c.positive(root.key("nav").key("accel"), scenario.nav.accel, "m/s^2");
    c.non_negative(
        root.key("nav").key("accept_delay"),
        scenario.nav.accept_delay,
        "s",
    );
    if let Some(combat) = &scenario.combat {
        c.combat(&root.key("combat"), combat);
    }
    c.out
}

/// The `obj_hp` index of the robot at `car_pos` index `i`.
pub(crate) fn hp_index_of(i: usize) -> usize {
    if i < 6 { i } else { i + 2 }
}

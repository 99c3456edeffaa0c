//! The three leaves of the shared behaviour-tree benchmark (`CheckKey`, `Work`, `Noop`), so
//! the same XML trees run here and in other engines with the same semantics:
//!
//! * `CheckKey` (ports `key`: the name of an int entry, `expect`: int): `Success` if the entry
//!   equals `expect`, else `Failure` (also when it is missing, empty or not an int).
//! * `Work` (port `ticks`: int): `Running` on its first `ticks` ticks (the tick that starts it
//!   included), `Success` on the next one; `ticks = 0` succeeds at once; a halt resets it.
//!   Like BT.CPP's stateful actions, ticked again after completing (before its parent reset
//!   it) it repeats that result.
//! * `Noop`: `Success`.

use super::blackboard::{Blackboards, EntrySlot, EntryType, Value, ValueError};
use super::node::{Behavior, Cx, Fault, NodeState, Port};
use super::{
    Children, CompileError, NodeModel, PortDecl, Registry, Status, Tree, TreeSpec, compile_owned,
};

/// Registers `CheckKey`, `Work` and `Noop`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "CheckKey",
        NodeModel::new(
            Children::None,
            vec![
                PortDecl::input("key", EntryType::Str, "name of the int entry to compare"),
                PortDecl::input("expect", EntryType::Int, "the value that succeeds"),
            ],
        )
        .condition(),
        |b| {
            let entry = match b.port("key") {
                Port::Literal(v) => {
                    let name = v.to_string_value().map_err(|e| e.to_string())?;
                    let (bbs, scope) = b.blackboard();
                    Some(
                        bbs.reserve(scope, &name)
                            .ok_or_else(|| format!("`{name}` is not a valid blackboard key"))?,
                    )
                }
                _ => None,
            };
            Ok(Box::new(CheckKey {
                key: b.port("key"),
                entry,
                expect: b.port("expect"),
            }))
        },
    );
    registry.register(
        "Work",
        NodeModel::new(
            Children::None,
            vec![PortDecl::input(
                "ticks",
                EntryType::Int,
                "ticks spent running before success",
            )],
        ),
        |b| {
            Ok(Box::new(Work {
                ticks: b.port("ticks"),
                target: 0,
                count: 0,
            }))
        },
    );
    registry.register("Noop", NodeModel::new(Children::None, Vec::new()), |_| {
        Ok(Box::new(Noop))
    });
}

/// `CheckKey`: the compared entry, pre-resolved when the key is a literal.
pub struct CheckKey {
    key: Port,
    entry: Option<EntrySlot>,
    expect: Port,
}

impl<C> Behavior<C> for CheckKey {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let expect = cx.get_int(&self.expect, "expect")?;
        let slot = match self.entry {
            Some(slot) => slot,
            None => {
                let name = cx
                    .get(&self.key)
                    .ok_or("input port `key` has no value")?
                    .to_string_value()
                    .map_err(|e| e.to_string())?;
                let scope = cx.scope();
                match cx.blackboard_mut().reserve(scope, &name) {
                    Some(slot) => slot,
                    None => return Ok(Status::Failure),
                }
            }
        };
        let holds = cx
            .blackboard()
            .get_slot(slot)
            .and_then(|v| v.as_int().ok())
            .is_some_and(|v| v == expect);
        Ok(if holds {
            Status::Success
        } else {
            Status::Failure
        })
    }
}

/// `Work`: a stateful action counting its running ticks.
pub struct Work {
    ticks: Port,
    target: i64,
    count: i64,
}

impl<C> Behavior<C> for Work {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        match cx.state() {
            NodeState::Idle => {
                self.target = cx.get_int(&self.ticks, "ticks")?;
                self.count = 0;
                if self.target <= 0 {
                    return Ok(Status::Success);
                }
                self.count = 1;
                Ok(Status::Running)
            }
            NodeState::Running => {
                if self.count >= self.target {
                    self.count = 0;
                    Ok(Status::Success)
                } else {
                    self.count += 1;
                    Ok(Status::Running)
                }
            }
            NodeState::Success => Ok(Status::Success),
            NodeState::Failure => Ok(Status::Failure),
        }
    }

    fn halt(&mut self, _cx: &mut Cx<'_, C>) {
        self.count = 0;
    }
}

/// `Noop`: succeeds.
pub struct Noop;

impl<C> Behavior<C> for Noop {
    fn tick(&mut self, _cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        Ok(Status::Success)
    }
}

/// Length of the benchmark's input schedule; time whole periods.
pub const SCHEDULE_PERIOD: u64 = 49_152;

/// The keys of the benchmark schedule's int entries, in the order of [`schedule_values`].
pub const SCHEDULE_KEYS: [&str; 7] = [
    "control_state",
    "assist_request",
    "game_state",
    "role",
    "ball_visible",
    "ball_close",
    "sel",
];

/// The values of the schedule's entries ([`SCHEDULE_KEYS`]) before tick `i` (write only
/// those that changed since the previous tick).
#[inline]
pub fn schedule_values(i: u64) -> [i64; 7] {
    let c = (i >> 10) % 16;
    let control_state = match c {
        0 => 1,
        1 => 2,
        _ => 3,
    };
    const GAME_STATES: [i64; 8] = [0, 1, 2, 3, 3, 3, 3, 4];
    [
        control_state,
        ((i >> 2) & 1) as i64,
        GAME_STATES[((i >> 6) % 8) as usize],
        ((i >> 9) & 1) as i64,
        i64::from(((i >> 4) & 3) != 0),
        i64::from((i >> 3).is_multiple_of(3)),
        999,
    ]
}

/// The schedule before tick `i` as (key, value) pairs.
pub fn schedule(i: u64) -> [(&'static str, i64); 7] {
    let values = schedule_values(i);
    std::array::from_fn(|k| (SCHEDULE_KEYS[k], values[k]))
}

/// Compiles `spec` for the schedule: its keys exist in the root blackboard before the tree is
/// built, untyped, as `robot-decision bt` creates the keys of the first input line (BT.CPP's
/// `createEntry` with an any-type port info). So no port clashes with them, and the schedule's
/// first writes make them ints, also behind a `Switch`'s string `variable`.
pub fn compile_for_schedule<C: 'static>(
    spec: TreeSpec,
    registry: &Registry<C>,
) -> Result<Tree<C>, Vec<CompileError>> {
    let mut blackboards = Blackboards::new();
    let root = blackboards.new_root();
    for (key, _) in schedule(0) {
        if let Err(e) = blackboards.create(root, key, EntryType::Any) {
            return Err(vec![CompileError {
                span: None,
                node_path: String::new(),
                message: format!("cannot create `{key}`: {e}"),
            }]);
        }
    }
    compile_owned(spec, registry, blackboards, root)
}

/// Writes the schedule into the root blackboard of a tree made by [`compile_for_schedule`]
/// before each tick: the entries' slots are resolved once (resolving allocates), and only
/// changed values are written, as ints.
pub struct ScheduleWriter {
    slots: [Option<EntrySlot>; 7],
    /// The values written last (`i64::MIN` before the first write, which no value is).
    last: [i64; 7],
}

impl ScheduleWriter {
    /// Resolves the schedule's entries in `tree`'s root scope.
    pub fn new<C>(tree: &mut Tree<C>) -> Self {
        let scope = tree.root_scope();
        let slots = SCHEDULE_KEYS.map(|key| tree.blackboard_mut().reserve(scope, key));
        Self {
            slots,
            last: [i64::MIN; 7],
        }
    }

    /// Writes the entries that change before tick `i` (on most ticks none does).
    #[inline]
    pub fn write<C>(&mut self, tree: &mut Tree<C>, i: u64) -> Result<(), ValueError> {
        let now = schedule_values(i);
        if now == self.last {
            return Ok(());
        }
        let bbs = tree.blackboard_mut();
        for (k, (&value, slot)) in now.iter().zip(&self.slots).enumerate() {
            if self.last[k] == value {
                continue;
            }
            self.last[k] = value;
            if let Some(slot) = *slot {
                bbs.set_slot(slot, Value::Int(value))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::schedule;

    #[test]
    fn the_schedule_follows_the_benchmark_definition() {
        let at = |i: u64, key: &str| schedule(i).iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
        assert_eq!(at(0, "control_state"), Some(1));
        assert_eq!(at(1024, "control_state"), Some(2));
        assert_eq!(at(2048, "control_state"), Some(3));
        assert_eq!(at(16 * 1024, "control_state"), Some(1));
        assert_eq!(
            (at(3, "assist_request"), at(4, "assist_request")),
            (Some(0), Some(1))
        );
        assert_eq!(at(64 * 7, "game_state"), Some(4));
        assert_eq!(at(64 * 3, "game_state"), Some(3));
        assert_eq!((at(511, "role"), at(512, "role")), (Some(0), Some(1)));
        assert_eq!(
            (at(15, "ball_visible"), at(16, "ball_visible")),
            (Some(0), Some(1))
        );
        assert_eq!(
            (
                at(0, "ball_close"),
                at(8, "ball_close"),
                at(24, "ball_close")
            ),
            (Some(1), Some(0), Some(1))
        );
        assert_eq!(at(5, "sel"), Some(999));
    }
}

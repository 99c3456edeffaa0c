//! The test bench: a registry with BT.CPP's test leaves (`TestA`..`TestD` tick counters and
//! per-test leaves given as closures), XML loading, and a tree runner with BT.CPP's
//! `tickOnce` / `tickWhileRunning` / `haltTree`.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use decision_core::engine::blackboard::{Blackboards, EntryType, ScopeId, Value};
use decision_core::engine::{
    Behavior, Children, Cx, Fault, NodeModel, NodeState, Port, PortDecl, Registry, Tree,
    compile_with, nodes,
};

pub use Status::{Failure, Running, Skipped, Success};
pub use decision_core::engine::Status;

/// What the test leaves share (BT.CPP's gtests capture counters and vectors in closures).
#[derive(Debug, Default)]
pub struct Ctx {
    /// Ticks per registration ID (shared by every instance, like a captured counter).
    pub ticks: BTreeMap<String, u32>,
    /// Halts of a running instance, per registration ID.
    pub halts: BTreeMap<String, u32>,
    /// Values recorded by leaves, per registration ID.
    pub values: BTreeMap<String, Vec<Value>>,
    /// Results an asynchronous / sync test action returns, per ID (BT.CPP's
    /// `setExpectedResult`).
    pub expected: BTreeMap<String, Status>,
    /// Completions of the asynchronous test actions, per ID.
    pub results: BTreeMap<String, Vec<Status>>,
    /// Free-form log lines written by leaves.
    pub log: Vec<String>,
}

type LeafFn = Arc<dyn Fn(&mut Leaf<'_, '_, '_>) -> Result<Status, String> + Send + Sync>;

/// What a test leaf's closure sees.
pub struct Leaf<'a, 'c, 't> {
    cx: &'a mut Cx<'t, Ctx>,
    ports: &'c [(&'static str, Port)],
    /// This tick's number for the registration ID (1 on the first tick of any instance).
    pub n: u32,
    /// The node's label.
    pub name: &'c str,
    /// The registration ID.
    pub id: &'c str,
}

impl Leaf<'_, '_, '_> {
    fn port(&self, name: &str) -> &Port {
        match self.ports.iter().find(|(n, _)| *n == name) {
            Some((_, p)) => p,
            None => panic!("leaf `{}` has no declared port `{name}`", self.id),
        }
    }

    /// The value of input port `name` (`None` when missing or empty).
    pub fn input(&self, name: &str) -> Option<Value> {
        self.cx.get(self.port(name)).cloned()
    }

    /// Writes output port `name`.
    pub fn output(&mut self, name: &str, value: Value) -> Result<(), String> {
        let port = self.port(name).clone();
        self.cx.set(&port, value)
    }

    /// The shared test context.
    pub fn ctx(&mut self) -> &mut Ctx {
        self.cx.ctx_mut()
    }

    /// The node's status before this tick.
    pub fn state(&self) -> NodeState {
        self.cx.state()
    }

    /// Records `value` under this leaf's ID.
    pub fn record(&mut self, value: Value) {
        let id = self.id.to_owned();
        self.cx.ctx_mut().values.entry(id).or_default().push(value);
    }

    /// The blackboard and this node's scope.
    pub fn blackboard(&mut self) -> (&mut Blackboards, ScopeId) {
        let scope = self.cx.scope();
        (self.cx.blackboard_mut(), scope)
    }
}

struct TestLeaf {
    id: String,
    name: String,
    ports: Vec<(&'static str, Port)>,
    f: LeafFn,
}

impl Behavior<Ctx> for TestLeaf {
    fn tick(&mut self, cx: &mut Cx<'_, Ctx>) -> Result<Status, Fault> {
        let n = {
            let c = cx.ctx_mut().ticks.entry(self.id.clone()).or_default();
            *c += 1;
            *c
        };
        let mut leaf = Leaf {
            cx,
            ports: &self.ports,
            n,
            name: &self.name,
            id: &self.id,
        };
        (self.f)(&mut leaf).map_err(Fault::from)
    }

    fn halt(&mut self, cx: &mut Cx<'_, Ctx>) {
        *cx.ctx_mut().halts.entry(self.id.clone()).or_default() += 1;
    }
}

/// How long an asynchronous test action runs.
#[derive(Debug, Clone, Copy)]
pub enum Lasts {
    /// RUNNING on this many ticks (the first one included), then the result.
    Ticks(u32),
    /// RUNNING until this many milliseconds of injected time passed since its first tick.
    Ms(u64),
}

/// An asynchronous test action (BT.CPP's `AsyncActionTest`): RUNNING for a while, then its
/// result (`Ctx::expected` for its ID, else the registered one); a halt or a completion
/// restarts it. Completions are recorded in `Ctx::results`.
struct AsyncAction {
    id: String,
    lasts: Lasts,
    result: Status,
    done: u32,
    start: f64,
}

impl Behavior<Ctx> for AsyncAction {
    fn tick(&mut self, cx: &mut Cx<'_, Ctx>) -> Result<Status, Fault> {
        *cx.ctx_mut().ticks.entry(self.id.clone()).or_default() += 1;
        if cx.state() != NodeState::Running {
            self.done = 0;
            self.start = cx.now();
        }
        let finished = match self.lasts {
            Lasts::Ticks(n) => self.done >= n,
            Lasts::Ms(ms) => (cx.now() - self.start) * 1000.0 >= ms as f64 - 1e-9,
        };
        if !finished {
            self.done += 1;
            return Ok(Running);
        }
        self.done = 0;
        let id = self.id.clone();
        let result = cx.ctx().expected.get(&id).copied().unwrap_or(self.result);
        cx.ctx_mut().results.entry(id).or_default().push(result);
        Ok(result)
    }

    fn halt(&mut self, cx: &mut Cx<'_, Ctx>) {
        self.done = 0;
        *cx.ctx_mut().halts.entry(self.id.clone()).or_default() += 1;
    }
}

/// A registry with the standard library and the test leaves.
pub struct Bench {
    pub registry: Registry<Ctx>,
}

impl Default for Bench {
    fn default() -> Self {
        Self::new()
    }
}

impl Bench {
    /// The standard library plus `TestA` .. `TestF` (count their ticks, return SUCCESS).
    pub fn new() -> Self {
        let mut registry = Registry::new();
        nodes::register_standard(&mut registry);
        let mut bench = Self { registry };
        for id in ["TestA", "TestB", "TestC", "TestD", "TestE", "TestF"] {
            bench.leaf(id, vec![], |_| Ok(Success));
        }
        bench
    }

    /// Registers leaf `id` with declared `ports`, ticked by `f`.
    pub fn leaf(
        &mut self,
        id: &str,
        ports: Vec<PortDecl>,
        f: impl Fn(&mut Leaf<'_, '_, '_>) -> Result<Status, String> + Send + Sync + 'static,
    ) -> &mut Self {
        let f: LeafFn = Arc::new(f);
        let names: Vec<&'static str> = ports.iter().map(|p| p.name).collect();
        let owned_id = id.to_owned();
        self.registry
            .register(id, NodeModel::new(Children::None, ports), move |b| {
                Ok(Box::new(TestLeaf {
                    id: owned_id.clone(),
                    name: b.name().to_owned(),
                    ports: names.iter().map(|n| (*n, b.port(n))).collect(),
                    f: f.clone(),
                }) as Box<dyn Behavior<Ctx>>)
            });
        self
    }

    /// An asynchronous action `id` (in place of BT.CPP's threaded test actions): each
    /// instance returns RUNNING on the first `running` ticks of a run, then `result`.
    pub fn async_action(&mut self, id: &str, running: u32, result: Status) -> &mut Self {
        self.async_action_for(id, Lasts::Ticks(running), result)
    }

    /// An asynchronous action `id` that lasts `lasts`, then returns `result` (see
    /// [`Ctx::expected`]).
    pub fn async_action_for(&mut self, id: &str, lasts: Lasts, result: Status) -> &mut Self {
        let owned_id = id.to_owned();
        self.registry
            .register(id, NodeModel::new(Children::None, vec![]), move |_| {
                Ok(Box::new(AsyncAction {
                    id: owned_id.clone(),
                    lasts,
                    result,
                    done: 0,
                    start: 0.0,
                }) as Box<dyn Behavior<Ctx>>)
            });
        self
    }

    /// BT.CPP's `SyncActionTest`: returns `Ctx::expected` for its ID (SUCCESS by default).
    pub fn sync_action(&mut self, id: &str) -> &mut Self {
        self.leaf(id, vec![], |l| {
            let id = l.id.to_owned();
            Ok(l.ctx().expected.get(&id).copied().unwrap_or(Success))
        })
    }

    /// Leaf `id` whose n-th tick (over all instances) returns `script[n-1]`, then `then`.
    pub fn scripted(&mut self, id: &str, script: &[Status], then: Status) -> &mut Self {
        let script = script.to_vec();
        self.leaf(id, vec![], move |l| {
            Ok(script.get(l.n as usize - 1).copied().unwrap_or(then))
        })
    }

    /// Leaf `id` that always returns `status` (and counts its ticks).
    pub fn constant(&mut self, id: &str, status: Status) -> &mut Self {
        self.scripted(id, &[], status)
    }

    /// Leaf `id` with an input port `port` of type `ty` that records its value (if any) and
    /// returns SUCCESS.
    pub fn recorder(&mut self, id: &str, port: &'static str, ty: EntryType) -> &mut Self {
        self.leaf(id, vec![PortDecl::input(port, ty, "recorded")], move |l| {
            if let Some(v) = l.input(port) {
                l.record(v);
            }
            Ok(Success)
        })
    }

    /// Loads `xml` (main tree) and compiles it.
    pub fn try_tree(&self, xml: &str) -> Result<Run, String> {
        self.try_tree_with(xml, |_, _| {})
    }

    /// Like [`Bench::try_tree`], with the root blackboard prepared by `init` first.
    pub fn try_tree_with(
        &self,
        xml: &str,
        init: impl FnOnce(&mut Blackboards, ScopeId),
    ) -> Result<Run, String> {
        self.try_tree_main(xml, None, init)
    }

    /// Like [`Bench::try_tree_with`], building tree `main` (BT.CPP `createTree(main, bb)`).
    pub fn try_tree_main(
        &self,
        xml: &str,
        main: Option<&str>,
        init: impl FnOnce(&mut Blackboards, ScopeId),
    ) -> Result<Run, String> {
        self.try_spec(&spec_of_main(xml, main)?, init)
    }

    /// Loads file `path` (and what it includes) and compiles its main tree (BT.CPP
    /// `createTreeFromFile`).
    pub fn try_file(&self, path: &Path) -> Result<Run, String> {
        let join = |d: Vec<bt_xml::Diagnostic>| {
            d.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        };
        let spec = bt_xml::load_tree(path, None).map_err(join)?;
        self.try_spec(&spec, |_, _| {})
    }

    /// Compiles `spec` with the root blackboard prepared by `init` first.
    pub fn try_spec(
        &self,
        spec: &decision_core::engine::TreeSpec,
        init: impl FnOnce(&mut Blackboards, ScopeId),
    ) -> Result<Run, String> {
        let mut bbs = Blackboards::new();
        let root = bbs.new_root();
        init(&mut bbs, root);
        let tree = compile_with(spec, &self.registry, bbs, root).map_err(|errors| {
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        Ok(Run {
            tree,
            ctx: Ctx::default(),
            now: 0.0,
        })
    }

    /// Loads a tree that must load.
    #[track_caller]
    pub fn tree(&self, xml: &str) -> Run {
        match self.try_tree(xml) {
            Ok(run) => run,
            Err(e) => panic!("the tree should load:\n{e}"),
        }
    }

    /// Loads a tree that must load, with the root blackboard prepared by `init`.
    #[track_caller]
    pub fn tree_with(&self, xml: &str, init: impl FnOnce(&mut Blackboards, ScopeId)) -> Run {
        match self.try_tree_with(xml, init) {
            Ok(run) => run,
            Err(e) => panic!("the tree should load:\n{e}"),
        }
    }

    /// Builds tree `main` of `xml`, which must load.
    #[track_caller]
    pub fn tree_main(&self, xml: &str, main: &str) -> Run {
        match self.try_tree_main(xml, Some(main), |_, _| {}) {
            Ok(run) => run,
            Err(e) => panic!("the tree should load:\n{e}"),
        }
    }

    /// BT.CPP's `SaySomething` / `PrintToConsole`: records its string input `message`
    /// (`fail_if_missing`: FAILURE without one, else a runtime error).
    pub fn say_something(&mut self, id: &str, fail_if_missing: bool) -> &mut Self {
        self.leaf(
            id,
            vec![PortDecl::input("message", EntryType::Str, "said")],
            move |l| match l.input("message") {
                Some(v) => {
                    l.record(v);
                    Ok(Success)
                }
                None if fail_if_missing => Ok(Failure),
                None => Err("missing required input [message]".to_owned()),
            },
        )
    }

    /// The load error of a tree that must not load.
    #[track_caller]
    pub fn load_error(&self, xml: &str) -> String {
        match self.try_tree(xml) {
            Ok(_) => panic!("the tree should not load"),
            Err(e) => e,
        }
    }
}

/// The main tree of `xml` as a spec (load errors as text).
pub fn spec_of(xml: &str) -> Result<decision_core::engine::TreeSpec, String> {
    spec_of_main(xml, None)
}

/// Tree `main` of `xml` (else its main tree) as a spec (BT.CPP `createTree(main)`).
pub fn spec_of_main(
    xml: &str,
    main: Option<&str>,
) -> Result<decision_core::engine::TreeSpec, String> {
    let path = Path::new("/gtest/tree.xml");
    let join = |d: Vec<bt_xml::Diagnostic>| {
        d.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let doc = bt_xml::load_str(xml, "tree.xml", Path::new("/gtest")).map_err(join)?;
    bt_xml::main_spec(&doc, main, path).map_err(join)
}

/// A compiled tree with its context and clock.
pub struct Run {
    pub tree: Tree<Ctx>,
    pub ctx: Ctx,
    /// Injected time, in seconds.
    pub now: f64,
}

impl Run {
    /// One tick (BT.CPP `tickExactlyOnce`); an error as text.
    pub fn try_tick(&mut self) -> Result<Status, String> {
        self.tree
            .try_tick(&mut self.ctx, self.now)
            .map_err(|e| e.to_string())
    }

    /// One tick that must not fail.
    #[track_caller]
    pub fn tick_once(&mut self) -> Status {
        match self.try_tick() {
            Ok(s) => s,
            Err(e) => panic!("tick failed: {e}"),
        }
    }

    /// BT.CPP `tickWhileRunning`: ticks until the root is not RUNNING, 10 ms apart.
    pub fn try_tick_while_running(&mut self) -> Result<Status, String> {
        for _ in 0..100_000 {
            let s = self.try_tick()?;
            if s != Running {
                return Ok(s);
            }
            self.now += 0.01;
        }
        panic!("the tree kept running");
    }

    /// [`Run::try_tick_while_running`] that must not fail.
    #[track_caller]
    pub fn tick_while_running(&mut self) -> Status {
        match self.try_tick_while_running() {
            Ok(s) => s,
            Err(e) => panic!("tick failed: {e}"),
        }
    }

    /// BT.CPP `haltTree`.
    pub fn halt(&mut self) {
        self.tree.halt(&mut self.ctx);
    }

    /// Advances the clock by `ms` milliseconds.
    pub fn sleep_ms(&mut self, ms: u64) {
        self.now += ms as f64 / 1000.0;
    }

    /// Ticks of leaf ID `id`.
    pub fn ticks(&self, id: &str) -> u32 {
        self.ctx.ticks.get(id).copied().unwrap_or(0)
    }

    /// Halts of leaf ID `id`.
    pub fn halts(&self, id: &str) -> u32 {
        self.ctx.halts.get(id).copied().unwrap_or(0)
    }

    /// Makes test action `id` return `status` from now on (BT.CPP `setExpectedResult`).
    pub fn expect(&mut self, id: &str, status: Status) {
        self.ctx.expected.insert(id.to_owned(), status);
    }

    /// How often test action `id` completed with `status`.
    pub fn completions(&self, id: &str, status: Status) -> usize {
        self.ctx
            .results
            .get(id)
            .map_or(0, |r| r.iter().filter(|s| **s == status).count())
    }

    /// The status of node `n` (preorder index) between ticks.
    pub fn state(&self, n: u32) -> NodeState {
        self.tree.state(decision_core::engine::NodeId(n))
    }

    /// Forgets the ticks of `id` (a gtest resetting its counter).
    pub fn reset_ticks(&mut self, id: &str) {
        self.ctx.ticks.remove(id);
    }

    /// The values recorded by leaf ID `id`.
    pub fn values(&self, id: &str) -> Vec<Value> {
        self.ctx.values.get(id).cloned().unwrap_or_default()
    }

    /// Root blackboard entry `key`.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.tree
            .blackboard()
            .get(self.tree.root_scope(), key)
            .cloned()
    }

    /// Root blackboard entry `key` read as an int (BT.CPP `get<int>`).
    #[track_caller]
    pub fn get_int(&self, key: &str) -> i64 {
        match self.get(key).map(|v| v.as_int()) {
            Some(Ok(v)) => v,
            other => panic!("`{key}` is not an int: {other:?}"),
        }
    }

    /// Root blackboard entry `key` read as a string (BT.CPP `get<std::string>`).
    #[track_caller]
    pub fn get_str(&self, key: &str) -> String {
        match self.get(key).map(|v| v.to_string_value()) {
            Some(Ok(v)) => v,
            other => panic!("`{key}` is not a string: {other:?}"),
        }
    }

    /// Writes root blackboard entry `key`.
    #[track_caller]
    pub fn set(&mut self, key: &str, value: Value) {
        let root = self.tree.root_scope();
        if let Err(e) = self.tree.blackboard_mut().set(root, key, value) {
            panic!("cannot write `{key}`: {e}");
        }
    }
}

/// `Value::Int`.
pub fn int(v: i64) -> Value {
    Value::Int(v)
}

/// `Value::Str`.
pub fn text(v: &str) -> Value {
    Value::Str(v.to_owned())
}

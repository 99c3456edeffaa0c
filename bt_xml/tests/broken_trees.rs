//! Broken trees, each reported with its file, line, column and message: XML that does not
//! load, and trees that load but do not compile against the standard library and the
//! benchmark leaves (unknown node types and ports with suggestions, missing ports, bad
//! literals, bad scripts, wrong child counts, type conflicts on blackboard entries).

use decision_core::engine::{Registry, bench_leaves, compile, nodes};
use std::path::Path;

fn registry() -> Registry<()> {
    let mut r = Registry::new();
    nodes::register_standard(&mut r);
    bench_leaves::register(&mut r);
    r
}

/// Loads and compiles `body` (the inside of one `<BehaviorTree ID="Main">`, line 3 on) and
/// returns every diagnostic as `(line, column, message)`.
fn diagnostics(body: &str) -> Vec<(u32, u32, String)> {
    let xml = format!(
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n  <BehaviorTree ID=\"Main\">\n{body}\n  </BehaviorTree>\n  <BehaviorTree ID=\"Helper\"><Noop/></BehaviorTree>\n</root>\n"
    );
    let doc = match bt_xml::load_str(&xml, "broken.xml", Path::new(".")) {
        Ok(doc) => doc,
        Err(ds) => {
            return ds
                .into_iter()
                .map(|d| (d.position.line, d.position.column, d.message))
                .collect();
        }
    };
    let spec = match bt_xml::main_spec(&doc, None, Path::new("broken.xml")) {
        Ok(spec) => spec,
        Err(ds) => {
            return ds
                .into_iter()
                .map(|d| (d.position.line, d.position.column, d.message))
                .collect();
        }
    };
    match compile(&spec, &registry()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .into_iter()
            .map(|e| {
                let s = e.span.expect("every XML node has a span");
                assert_eq!(s.file, "broken.xml");
                (s.line, s.column, e.message)
            })
            .collect(),
    }
}

/// One broken tree: its body, and the (line, column, message fragment) of its first error.
fn case(body: &str, line: u32, column: u32, message: &str) {
    let ds = diagnostics(body);
    let Some((l, c, m)) = ds.first() else {
        panic!("expected an error for:\n{body}");
    };
    assert_eq!((*l, *c), (line, column), "position of `{m}` in:\n{body}");
    assert!(m.contains(message), "`{m}` should contain `{message}`");
}

#[test]
fn unknown_node_types_come_with_a_suggestion() {
    case(
        "    <Sequnce/>",
        3,
        5,
        "unknown node type `Sequnce` (did you mean `Sequence`?)",
    );
    case(
        "    <Sequence><Nop/></Sequence>",
        3,
        15,
        "unknown node type `Nop` (did you mean `Noop`?)",
    );
    case(
        "    <sequence><Noop/></sequence>",
        3,
        5,
        "(did you mean `Sequence`?)",
    );
    case(
        "    <Totally_Unknown/>",
        3,
        5,
        "unknown node type `Totally_Unknown`",
    );
    case(
        "    <Sequence>\n      <Noop/>\n      <CheckKy key=\"a\" expect=\"1\"/>\n    </Sequence>",
        5,
        7,
        "did you mean `CheckKey`?",
    );
}

#[test]
fn unknown_ports_come_with_a_suggestion() {
    case(
        "    <CheckKey key=\"a\" expct=\"1\"/>",
        3,
        23,
        "`CheckKey` has no port `expct` (did you mean `expect`?)",
    );
    case(
        "    <Work tick=\"2\"/>",
        3,
        11,
        "`Work` has no port `tick` (did you mean `ticks`?)",
    );
    case(
        "    <Noop color=\"red\"/>",
        3,
        11,
        "`Noop` has no port `color` (it takes no ports)",
    );
    case(
        "    <Sequence speed=\"3\"><Noop/></Sequence>",
        3,
        15,
        "`Sequence` has no port `speed`",
    );
    case(
        "    <CheckKey key=\"a\" expect=\"1\" zzz=\"0\"/>",
        3,
        34,
        "(ports: key, expect)",
    );
}

#[test]
fn missing_required_ports() {
    case(
        "    <CheckKey key=\"a\"/>",
        3,
        5,
        "missing required port `expect` of `CheckKey`",
    );
    case(
        "    <CheckKey expect=\"1\"/>",
        3,
        5,
        "missing required port `key` of `CheckKey`",
    );
    case(
        "    <Sequence>\n      <Work/>\n    </Sequence>",
        4,
        7,
        "missing required port `ticks` of `Work`",
    );
}

#[test]
fn bad_literals_for_typed_ports() {
    case("    <Work ticks=\"two\"/>", 3, 11, "port `ticks`");
    case("    <Work ticks=\"2.5\"/>", 3, 11, "port `ticks`");
    case(
        "    <CheckKey key=\"a\" expect=\"1e3\"/>",
        3,
        23,
        "port `expect`",
    );
    case(
        "    <CheckKey key=\"a\" expect=\"\"/>",
        3,
        23,
        "port `expect`",
    );
}

#[test]
fn bad_pre_and_post_condition_scripts() {
    case(
        "    <Noop _skipIf=\"a ==\"/>",
        3,
        11,
        "`_skipIf`: bad script",
    );
    case(
        "    <Noop _while=\"(a &lt; 3\"/>",
        3,
        11,
        "`_while`: bad script",
    );
    case(
        "    <Noop _post=\"b = &quot;x&quot;\"/>",
        3,
        11,
        "`_post`: bad script",
    );
    case(
        "    <Noop _failureIf=\"\"/>",
        3,
        11,
        "`_failureIf`: bad script",
    );
    case(
        "    <Noop _onSuccess=\"a +\"/>",
        3,
        11,
        "`_onSuccess`: bad script",
    );
    case(
        "    <Noop _skipif=\"a == 1\"/>",
        3,
        11,
        "unknown special attribute `_skipif` (did you mean `_skipIf`?)",
    );
    case(
        "    <Noop _autoremap=\"true\"/>",
        3,
        11,
        "`_autoremap` is only allowed on a SubTree",
    );
}

#[test]
fn wrong_numbers_of_children() {
    case(
        "    <Sequence/>",
        3,
        5,
        "`Sequence` needs at least one child",
    );
    case(
        "    <ReactiveFallback></ReactiveFallback>",
        3,
        5,
        "`ReactiveFallback` needs at least one child",
    );
    case(
        "    <Noop><Noop/></Noop>",
        3,
        5,
        "`Noop` takes no children, found 1",
    );
    case(
        "    <CheckKey key=\"a\" expect=\"1\"><Noop/><Noop/></CheckKey>",
        3,
        5,
        "takes no children, found 2",
    );
}

#[test]
fn xml_that_does_not_load() {
    case(
        "    <Sequence>\n      <Noop/>\n    </Sequenc>",
        5,
        5,
        "expected 'Sequence' tag",
    );
    case("    <Noop name=\"x\" name=\"y\"/>", 3, 20, "");
    case(
        "    <SubTree ID=\"Helpr\"/>",
        3,
        5,
        "unknown SubTree ID \"Helpr\"; did you mean \"Helper\"?",
    );
}

#[test]
fn every_error_of_a_tree_is_reported_at_once() {
    let ds = diagnostics(
        "    <Sequence>\n      <Nop/>\n      <Work tick=\"1\"/>\n      <CheckKey key=\"a\" expect=\"x\"/>\n    </Sequence>",
    );
    let positions: Vec<(u32, u32)> = ds.iter().map(|(l, c, _)| (*l, *c)).collect();
    assert_eq!(positions, [(4, 7), (5, 13), (5, 7), (6, 25)], "{ds:?}");
}

#!/usr/bin/env python3
"""First-line keys behind ports of another type: the keys of the first input line exist,
untyped, before the tree is built, so the first write fixes their type; keys written later
are created by whoever writes them first. Hand-written cases; the driver records BT.CPP's
output.

    python3 tools/btcpp_oracle/gen_first_line.py --driver /work/scratch/driver

Writes robot_decision/tests/fixtures/bt_oracle/first_line/NAME.{xml,in.jsonl,out.jsonl}, and
NAME.err with an empty NAME.out.jsonl when BT.CPP refuses to load the tree.
"""

import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "robot_decision/tests/fixtures/bt_oracle/first_line")


def doc(main, *subs):
    body = f'  <BehaviorTree ID="Main">\n    {main}\n  </BehaviorTree>\n'
    for sid, sub in subs:
        body += f'  <BehaviorTree ID="{sid}">\n    {sub}\n  </BehaviorTree>\n'
    return ('<?xml version="1.0"?>\n<root BTCPP_format="4" main_tree_to_execute="Main">\n'
            + body + "</root>\n")


SWITCH3 = ('<Switch3 variable="{game_state}" case_1="1" case_2="2" case_3="3">'
           '<Work ticks="1" name="one"/><Noop name="two"/><AlwaysFailure name="three"/>'
           '<Noop name="default"/></Switch3>')
SWITCH2_SW = ('<Switch2 variable="{sw}" case_1="1" case_2="2">'
              '<Noop name="c1"/><AlwaysFailure name="c2"/><Noop name="dflt"/></Switch2>')

CASES = {
    # An int game_state behind Switch3's string `variable`.
    "switch3_int_game_state": (
        doc(SWITCH3),
        [{"game_state": 1}, {}, {"game_state": 2}, {"game_state": 3}, {"game_state": 0},
         {"game_state": 2}, {"game_state": 1}, {}, {}],
    ),
    # The same, the int later rewritten as a string ("2" parses into the int entry).
    "switch3_int_then_string": (
        doc(SWITCH3),
        [{"game_state": 3}, {"game_state": "2"}, {"game_state": 1}, {}, {"game_state": "3"}],
    ),
    # A string first: the entry is a string; an int written later.
    "switch3_string_then_int": (
        doc(SWITCH3),
        [{"game_state": "2"}, {"game_state": "3"}, {"game_state": 1}, {}],
    ),
    # The key reaches the Switch through a SubTree with _autoremap.
    "switch2_int_autoremap": (
        doc('<Sequence><SubTree ID="Sub" _autoremap="true"/><CheckKey key="sw" expect="2"/></Sequence>',
            ("Sub", SWITCH2_SW)),
        [{"sw": 1}, {"sw": 2}, {}, {"sw": 5}, {"sw": 1}],
    ),
    # The key reaches the Switch through an explicit remapping.
    "switch3_int_explicit_remap": (
        doc('<SubTree ID="Sub" state="{game_state}"/>',
            ("Sub", SWITCH3.replace("{game_state}", "{state}"))),
        [{"game_state": 2}, {"game_state": 1}, {}, {}, {"game_state": 3}, {"game_state": 0}],
    ),
    # Explicit remapping, two levels deep, plus a key created by a script in the middle tree.
    "switch2_int_nested_remap": (
        doc('<Sequence><SubTree ID="Mid" mid="{sw}"/><CheckKey key="sw" expect="1"/></Sequence>',
            ("Mid", '<Sequence><Script code="late := 4"/><SubTree ID="Leaf" v="{mid}"/>'
                    '<ScriptCondition code="late == 4"/></Sequence>'),
            ("Leaf", SWITCH2_SW.replace("{sw}", "{v}"))),
        [{"sw": 2}, {"sw": 1}, {"sw": 3}, {}],
    ),
    # An int behind Script's string `code`.
    "script_code_int": (
        doc('<Sequence><Script code="{code}"/><Noop/></Sequence>'),
        [{"code": 1}, {}, {"code": 0}],
    ),
    # An int behind SetBlackboard's ports: an int value copied into a string entry.
    "setblackboard_int_value_into_string": (
        doc('<Sequence><SetBlackboard output_key="dst" value="{src}"/>'
            '<ScriptCondition code="dst == \'7\'"/></Sequence>'),
        [{"src": 7, "dst": "x"}, {"src": 8}, {}],
    ),
    # A literal string written through SetBlackboard into an int first-line key.
    "setblackboard_literal_into_int": (
        doc('<Sequence><SetBlackboard output_key="n" value="2"/><CheckKey key="n" expect="2"/></Sequence>'),
        [{"n": 5}, {"n": 1}, {}],
    ),
    # An int naming SetBlackboard's output key.
    "setblackboard_int_output_key": (
        doc('<Sequence><SetBlackboard output_key="{target}" value="4"/>'
            '<CheckKey key="3" expect="4"/></Sequence>'),
        [{"target": 3}, {}],
    ),
    # A string "3" behind CheckKey's int `expect`.
    "checkkey_expect_string_3": (
        doc('<CheckKey key="a" expect="{e}"/>'),
        [{"a": 3, "e": "3"}, {"a": 2}, {"e": "2"}, {"e": "x"}],
    ),
    # A bool and a double behind int ports.
    "checkkey_expect_bool_double": (
        doc('<Sequence><CheckKey key="a" expect="{e}"/><Work ticks="{t}"/></Sequence>'),
        [{"a": 1, "e": True, "t": 2.0}, {}, {}, {"t": 1}, {"a": 0}, {"t": 2.5}, {"a": 1}, {}],
    ),
    # A string "2" behind Work's int `ticks`, rewritten with ints.
    "work_ticks_string": (
        doc('<Sequence><Work ticks="{t}"/><Noop/></Sequence>'),
        [{"t": "2"}, {}, {}, {"t": 0}, {"t": "1"}, {}],
    ),
    # A string "3" into an int port inside a SubTree with _autoremap.
    "checkkey_string_autoremap": (
        doc('<SubTree ID="Sub" _autoremap="true"/>',
            ("Sub", '<Fallback><CheckKey key="a" expect="{e}"/><Script code="a = 3"/></Fallback>')),
        [{"a": 1, "e": "3"}, {}, {"e": "1"}],
    ),
    # An int naming CheckKey's string `key`.
    "checkkey_key_int": (
        doc('<CheckKey key="{k}" expect="1"/>'),
        [{"k": 5}, {}],
    ),
    # A key that is not on the first line, created by the Switch's string port at load and
    # written later as an int.
    "later_int_into_switch_port": (
        doc(SWITCH3),
        [{"other": 1}, {}, {"game_state": 2}, {}],
    ),
    # A key not on the first line, created by CheckKey's int port, written later as a string.
    "later_string_into_int_port": (
        doc('<Fallback><ScriptCondition code="a == 2" name="guard"/>'
            '<CheckKey key="a" expect="{e}"/><Noop name="no"/></Fallback>'),
        [{"a": 2}, {"a": 3, "e": "3"}, {"e": "1"}, {"e": 3}, {"e": "x"}],
    ),
    # A key not on the first line, read by a script before and after its first write.
    "later_key_in_script": (
        doc('<Fallback><ScriptCondition code="a == 1" name="guard"/>'
            '<ScriptCondition code="late == 2"/><Noop name="no"/></Fallback>'),
        [{"a": 1}, {"a": 0, "late": 2}, {"late": 3}, {"late": 2}],
    ),
    # The same key behind a Switch (string) in Main and CheckKey (int) in an autoremapped SubTree.
    "int_key_string_and_int_ports": (
        doc('<Sequence>' + SWITCH3 + '<SubTree ID="Sub" _autoremap="true"/></Sequence>',
            ("Sub", '<CheckKey key="game_state" expect="{game_state}"/>')),
        [{"game_state": 2}, {"game_state": 2}, {"game_state": 1}, {"game_state": 2}],
    ),
    # An int queue key behind LoopInt's queue port, and a string one.
    "loop_queue_first_line": (
        doc('<Sequence><LoopInt queue="{qs}" value="{v}"><CheckKey key="v" expect="{v}"/></LoopInt>'
            '<LoopInt queue="{qi}" value="{v}"><Noop/></LoopInt></Sequence>'),
        [{"qs": "1;2", "qi": 3, "v": 0}, {}, {}, {}],
    ),
    # WasEntryUpdated on first-line keys, one rewritten, one never written after the first line.
    "entry_updated_first_line": (
        doc('<Sequence><WasEntryUpdated entry="a" name="wa"/><WasEntryUpdated entry="{b}" name="wb"/></Sequence>'),
        [{"a": 1, "b": "x"}, {"a": 1}, {}, {"b": "x", "a": 2}, {"a": 2}],
    ),
    # A first-line int behind the same Switch2 as the older errors/switch_int_entry_load.
    "switch2_int_plain": (
        doc(SWITCH2_SW.replace('<Noop name="c1"/><AlwaysFailure name="c2"/><Noop name="dflt"/>',
                               "<Noop/><Noop/><Noop/>")),
        [{"sw": 1}],
    ),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, (xml, lines) in CASES.items():
        base = os.path.join(args.out, name)
        with open(base + ".xml", "w") as f:
            f.write(xml)
        with open(base + ".in.jsonl", "w") as f:
            for row in lines:
                f.write(json.dumps({"set": row}) + "\n")
        res = subprocess.run([args.driver, base + ".xml", base + ".in.jsonl"],
                             capture_output=True, text=True)
        with open(base + ".out.jsonl", "w") as f:
            f.write(res.stdout)
        if os.path.exists(base + ".err"):
            os.remove(base + ".err")
        kind = "ok"
        if res.returncode != 0 and not res.stdout:
            kind = "load error"
            with open(base + ".err", "w") as f:
                f.write(res.stderr)
        elif res.returncode != 0:
            kind = "runtime error"
        print(f"{name}: {kind}")


if __name__ == "__main__":
    main()

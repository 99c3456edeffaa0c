#!/usr/bin/env python3
"""Random trees over BT.CPP 4.10's newer default nodes (TryCatch, AsyncSequence,
AsyncFallback, LoopInt/Bool/Double/String, WasEntryUpdated, SkipUnlessUpdated,
WaitValueUpdate) mixed with the older standard nodes, pre/post conditions and the bench
leaves, with seeded input schedules; the driver records BT.CPP's output.

    python3 tools/btcpp_oracle/gen_default_lib.py --driver /work/scratch/driver [--seed 29] [--count 160]

Writes robot_decision/tests/fixtures/bt_oracle/default_lib/NNN.{xml,in.jsonl,out.jsonl}
(and NNN.err when BT.CPP refuses to load the tree).
"""

import argparse
import json
import os
import random
import subprocess
from xml.sax.saxutils import quoteattr

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "robot_decision/tests/fixtures/bt_oracle/default_lib")

INT_KEYS = ["a", "b", "c"]
CONDITIONS = [
    "a == 0", "a == 1", "a >= 2", "b < 2", "b == 3", "c != 1", "a + b > 3",
    "f", "!f", "s == 'x'", "s != 'y'", "d > 1.0", "d <= 0.5", "i >= 2", "i == 1",
]
SCRIPTS = [
    "a += 1", "a = 0", "b = a", "c -= 1", "c = 2", "f = !f", "s = 'y'", "s = 'x'",
    "d = d + 0.5", "d = 0.25", "i += 1", "i = 0", "qi = '4;5;6'", "qs = 'k;m'",
    "qd = '0.5;2.5'", "qb = 'false;true'", "w := 1", "w = a + 1", "b = 3; a = 1",
]


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.counter = 0
        self.uses_sub = False

    def name(self, kind):
        self.counter += 1
        if self.rng.random() < 0.6:
            return f' name="{kind[:3].lower()}{self.counter}"'
        return ""

    def conds(self, leaf):
        r = self.rng
        out = ""
        pre = ["_skipIf", "_while", "_successIf", "_failureIf"]
        for attr in pre:
            if r.random() < 0.09:
                out += f" {attr}={quoteattr(r.choice(CONDITIONS))}"
        post = ["_onSuccess", "_onFailure", "_post", "_onHalted"]
        for attr in post:
            if r.random() < 0.05:
                out += f" {attr}={quoteattr(r.choice(SCRIPTS))}"
        return out

    def entry(self):
        r = self.rng
        key = r.choice(["a", "b", "c", "s", "f", "d", "late", "i", "w", "li"])
        return key if r.random() < 0.5 else "{" + key + "}"

    def leaf(self, ind):
        r = self.rng
        k = r.random()
        if k < 0.18:
            body = f'<CheckKey key="{r.choice(INT_KEYS + ["i", "late", "li"])}" expect="{r.randint(0, 3)}"'
            kind = "CheckKey"
        elif k < 0.34:
            body = f'<Work ticks="{r.choice([0, 1, 1, 2, 3])}"'
            kind = "Work"
        elif k < 0.42:
            body = "<Noop"
            kind = "Noop"
        elif k < 0.48:
            kind = r.choice(["AlwaysSuccess", "AlwaysFailure"])
            body = "<" + kind
        elif k < 0.58:
            body = f"<Script code={quoteattr(r.choice(SCRIPTS))}"
            kind = "Script"
        elif k < 0.68:
            body = f"<ScriptCondition code={quoteattr(r.choice(CONDITIONS))}"
            kind = "ScriptCondition"
        elif k < 0.80:
            body = f'<WasEntryUpdated entry="{self.entry()}"'
            kind = "WasEntryUpdated"
        elif k < 0.86:
            key, val = r.choice([("a", "2"), ("s", "x"), ("b", "1"), ("i", "3"), ("qi", "7;8")])
            body = f'<SetBlackboard output_key="{key}" value="{val}"'
            kind = "SetBlackboard"
        elif k < 0.90 and not self.uses_sub:
            self.uses_sub = True
            body = '<SubTree ID="Sub0" _autoremap="true"'
            kind = "SubTree"
        else:
            body = "<Noop"
            kind = "Noop"
        return f"{ind}{body}{self.name(kind)}{self.conds(True)}/>\n"

    def loop(self):
        r = self.rng
        kind = r.choice(["LoopInt", "LoopInt", "LoopString", "LoopDouble", "LoopBool"])
        lit = {
            "LoopInt": ["1;2;3", "2", "0;3", "", "{qi}", "{qi}"],
            "LoopString": ["k;m;n", "x", "{qs}", "{qs}", ""],
            "LoopDouble": ["0.5;1.5;2.5", "1.0", "{qd}", "{qd}"],
            "LoopBool": ["true;false", "false", "{qb}", "{qb}", "1;0"],
        }[kind]
        out = {
            "LoopInt": ["{li}", "{li}", "{a}", "{i}"],
            "LoopString": ["{ls}", "{s}"],
            "LoopDouble": ["{ld}", "{d}"],
            "LoopBool": ["{lb}", "{f}"],
        }[kind]
        attrs = f' queue="{r.choice(lit)}" value="{r.choice(out)}"'
        if r.random() < 0.5:
            attrs += f' if_empty="{r.choice(["SUCCESS", "FAILURE", "SKIPPED"])}"'
        return kind, attrs

    def decorator(self):
        r = self.rng
        k = r.random()
        if k < 0.30:
            return self.loop()
        if k < 0.42:
            return "SkipUnlessUpdated", f' entry="{self.entry()}"'
        if k < 0.52:
            return "WaitValueUpdate", f' entry="{self.entry()}"'
        choices = [
            ("Inverter", ""), ("ForceSuccess", ""), ("ForceFailure", ""),
            ("Repeat", f' num_cycles="{r.choice([1, 2, 3])}"'),
            ("RetryUntilSuccessful", f' num_attempts="{r.choice([1, 2, 3])}"'),
            ("KeepRunningUntilFailure", ""), ("RunOnce", ""),
            ("Precondition", f" if={quoteattr(r.choice(CONDITIONS))} else=\"{r.choice(['FAILURE', 'SUCCESS', 'RUNNING'])}\""),
        ]
        return r.choice(choices)

    def control(self):
        r = self.rng
        k = r.random()
        if k < 0.16:
            return "TryCatch", (f' catch_on_halt="{r.choice(["true", "false"])}"' if r.random() < 0.6 else ""), 2, 4
        if k < 0.30:
            return "AsyncSequence", "", 1, 4
        if k < 0.42:
            return "AsyncFallback", "", 1, 4
        kind = r.choice([
            "Sequence", "Fallback", "ReactiveSequence", "ReactiveFallback",
            "SequenceWithMemory", "IfThenElse", "WhileDoElse", "ParallelAll",
        ])
        if kind in ("IfThenElse", "WhileDoElse"):
            return kind, "", 2, 3
        if kind == "ParallelAll":
            return kind, f' max_failures="{r.choice([1, 2])}"', 2, 3
        return kind, "", 1, 4

    def node(self, depth, ind):
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(ind)
        if r.random() < 0.4:
            kind, attrs = self.decorator()
            child = self.node(depth - 1, ind + "  ")
            return (f"{ind}<{kind}{attrs}{self.name(kind)}{self.conds(False)}>\n"
                    f"{child}{ind}</{kind}>\n")
        kind, attrs, lo, hi = self.control()
        n = r.randint(lo, hi)
        children = []
        for _ in range(n):
            if kind == "ReactiveSequence" and r.random() < 0.5:
                children.append(self.leaf(ind + "  "))
            else:
                children.append(self.node(depth - 1, ind + "  "))
        if kind == "ReactiveSequence":
            # BT.CPP refuses more than one AsyncSequence child at load; keep most trees loadable.
            seen = 0
            for idx, c in enumerate(children):
                if c.lstrip().startswith("<AsyncSequence"):
                    seen += 1
                    if seen > 1 and r.random() < 0.8:
                        children[idx] = self.leaf(ind + "  ")
        return (f"{ind}<{kind}{attrs}{self.name(kind)}{self.conds(False)}>\n"
                + "".join(children) + f"{ind}</{kind}>\n")


def tree_xml(rng):
    g = Gen(rng)
    main = g.node(rng.randint(2, 4), "    ")
    sub = ""
    if g.uses_sub:
        g2 = Gen(rng)
        g2.uses_sub = True
        sub = ('  <BehaviorTree ID="Sub0">\n' + g2.node(2, "    ") + "  </BehaviorTree>\n")
    return ('<?xml version="1.0"?>\n<root BTCPP_format="4" main_tree_to_execute="Main">\n'
            '  <BehaviorTree ID="Main">\n' + main + "  </BehaviorTree>\n" + sub + "</root>\n")


def value_for(rng, key):
    if key in ("a", "b", "c", "i", "late"):
        return rng.randint(0, 3)
    if key == "s":
        return rng.choice(["x", "y", "3"])
    if key == "f":
        return rng.choice([True, False])
    if key == "d":
        return rng.choice([0.25, 0.5, 1.25, 2.0])
    if key == "qi":
        return rng.choice(["1;2;3", "3", "2;2", "0;1;2;3"])
    if key == "qs":
        return rng.choice(["k;m", "x", "a;k;z"])
    if key == "qd":
        return rng.choice(["0.5;2.5", "1.75"])
    if key == "qb":
        return rng.choice(["true;false", "false;false;true"])
    raise KeyError(key)


def inputs(rng):
    first_keys = ["a", "b", "c", "s", "f", "d", "i", "qi", "qs", "qd", "qb"]
    lines = []
    first = {k: value_for(rng, k) for k in first_keys if rng.random() < 0.9 or k in "abcsfdi"}
    lines.append(first)
    n = rng.randint(20, 40)
    bad = rng.random() < 0.08
    bad_at = rng.randint(3, n - 1)
    for t in range(1, n):
        row = {}
        if rng.random() < 0.7:
            for k in rng.sample(first_keys + ["late"], rng.randint(1, 3)):
                if k == "late" and t < 5:
                    continue
                row[k] = value_for(rng, k)
        if bad and t == bad_at:
            row[rng.choice(["a", "b"])] = rng.choice(["zz", 1.5])
        lines.append(row)
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--count", type=int, default=160)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    stats = {"ok": 0, "runtime_error": 0, "load_error": 0}
    for n in range(args.count):
        base = os.path.join(args.out, f"{n:03d}")
        with open(base + ".xml", "w") as f:
            f.write(tree_xml(rng))
        with open(base + ".in.jsonl", "w") as f:
            for row in inputs(rng):
                f.write(json.dumps({"set": row}) + "\n")
        res = subprocess.run([args.driver, base + ".xml", base + ".in.jsonl"],
                             capture_output=True, text=True)
        with open(base + ".out.jsonl", "w") as f:
            f.write(res.stdout)
        if os.path.exists(base + ".err"):
            os.remove(base + ".err")
        if res.returncode != 0 and not res.stdout:
            stats["load_error"] += 1
            with open(base + ".err", "w") as f:
                f.write(res.stderr)
        elif res.returncode != 0:
            stats["runtime_error"] += 1
        else:
            stats["ok"] += 1
    print(stats)


if __name__ == "__main__":
    main()

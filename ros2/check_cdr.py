#!/usr/bin/env python3
"""Checks our CDR payloads with rosbags, an implementation that shares none of our code.

Usage: check_cdr.py DIR. For every DIR/<type>.cdr written by the Rust test
`write_samples_for_rosbags` (with DIR/<type>.json holding the type name and the expected
values): decode it with rosbags and the .msg files of ros2/global_interface, compare the
values, re-encode them with rosbags and require the same bytes (up to trailing alignment
padding), and write rosbags' payload as DIR/<type>.rosbags.cdr for `read_what_rosbags_wrote`.
"""

import json
import math
import sys
from pathlib import Path

from rosbags.typesys import Stores, get_types_from_msg, get_typestore

MSG_DIR = Path(__file__).resolve().parent / "global_interface" / "msg"
SOCCER_MSG_DIR = Path(__file__).resolve().parent / "soccer_decision_msgs" / "msg"

# nav2_msgs (not in rosbags' store): NavigateThroughPoses of Humble, written from its .action.
NAV2_TYPES = {
    "nav2_msgs/action/NavigateThroughPoses_Goal": (
        "geometry_msgs/PoseStamped[] poses\n"
        "string behavior_tree\n"
    ),
    "nav2_msgs/action/NavigateThroughPoses_Feedback": (
        "geometry_msgs/PoseStamped current_pose\n"
        "builtin_interfaces/Duration navigation_time\n"
        "builtin_interfaces/Duration estimated_time_remaining\n"
        "int16 number_of_recoveries\n"
        "float32 distance_remaining\n"
        "int16 number_of_poses_remaining\n"
    ),
    "nav2_msgs/action/NavigateThroughPoses_FeedbackMessage": (
        "unique_identifier_msgs/UUID goal_id\n"
        "nav2_msgs/action/NavigateThroughPoses_Feedback feedback\n"
    ),
}


def plain(value):
    """A rosbags message as JSON-like data (dataclasses to dicts, arrays to lists)."""
    if hasattr(value, "__dataclass_fields__"):
        # Constants (GoalStatus.STATUS_SUCCEEDED, ...) are class fields too; they are not on the wire.
        return {
            k: plain(getattr(value, k))
            for k in value.__dataclass_fields__
            if k != "__msgtype__" and not k.isupper()
        }
    if hasattr(value, "tolist"):
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def same(got, want, path):
    """Raises when got differs from want (floats to float32 precision)."""
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            raise AssertionError(f"{path}: fields {sorted(got) if isinstance(got, dict) else got} != {sorted(want)}")
        for key in want:
            same(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            raise AssertionError(f"{path}: {got!r} != {want!r}")
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{path}[{i}]")
    elif isinstance(want, bool) or isinstance(got, bool):
        if got is not want and got != want:
            raise AssertionError(f"{path}: {got!r} != {want!r}")
    elif isinstance(want, float) or isinstance(got, float):
        if not math.isclose(float(got), float(want), rel_tol=1e-6, abs_tol=1e-6):
            raise AssertionError(f"{path}: {got!r} != {want!r}")
    elif got != want:
        raise AssertionError(f"{path}: {got!r} != {want!r}")


def main():
    folder = Path(sys.argv[1])
    store = get_typestore(Stores.ROS2_HUMBLE)
    ours = {}
    for msg in sorted(MSG_DIR.glob("*.msg")):
        ours.update(get_types_from_msg(msg.read_text(), f"global_interface/msg/{msg.stem}"))
    for msg in sorted(SOCCER_MSG_DIR.glob("*.msg")):
        ours.update(get_types_from_msg(msg.read_text(), f"soccer_decision_msgs/msg/{msg.stem}"))
    for name, text in NAV2_TYPES.items():
        ours.update(get_types_from_msg(text, name))
    store.register(ours)
    checked = 0
    for expected_file in sorted(folder.glob("*.json")):
        expected = json.loads(expected_file.read_text())
        name = expected["type"]
        raw = (folder / f"{expected_file.stem}.cdr").read_bytes()
        message = store.deserialize_cdr(raw, name)
        same(plain(message), expected["value"], name)
        again = bytes(store.serialize_cdr(message, name))
        body = len(again)
        if raw[:body] != again or len(raw) - body > 3 or any(raw[body:]):
            raise AssertionError(f"{name}: rosbags encodes {again.hex()}, we wrote {raw.hex()}")
        (folder / f"{expected_file.stem}.rosbags.cdr").write_bytes(again)
        checked += 1
    if checked < 23:
        raise SystemExit(f"only {checked} payloads found in {folder}")
    print(f"rosbags: {checked} CDR payloads decode to the expected values and re-encode to the same bytes")


if __name__ == "__main__":
    main()

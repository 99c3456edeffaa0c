#!/usr/bin/env python3
"""Checks our CDR payloads with rosbags, an implementation that shares none of our code.

Usage: check_cdr.py DIR. For every DIR/<type>.cdr written by the Rust test
`write_samples_for_rosbags` (with DIR/<type>.json holding the type name and the expected
values): decode it with rosbags and the .msg files of ros2/global_interface and
ros2/soccer_decision_msgs (the soccer inputs and outputs), compare the
values, re-encode them with rosbags and require the same bytes (up to trailing alignment
padding), and write rosbags' payload as DIR/<type>.rosbags.cdr for `read_what_rosbags_wrote`.

Then the RIHS01 type hashes (Jazzy's rmw_zenoh keys carry them) in DIR/type_hashes.json are
compared with rosbags' own for every message type: the standard ones of its Jazzy store, ours,
and the message types rosidl derives from Nav2's Jazzy NavigateThroughPoses.
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


TYPE_HASHES = "type_hashes.json"

# Jazzy's NavigateThroughPoses (nav2 1.3.x) and the message types rosidl derives from an action.
NAV2_JAZZY_TYPES = {
    **NAV2_TYPES,
    "nav2_msgs/action/NavigateThroughPoses_Result": "uint16 NONE=0\nuint16 error_code\nstring error_msg\n",
    "nav2_msgs/action/NavigateThroughPoses_SendGoal_Request": (
        "unique_identifier_msgs/UUID goal_id\n"
        "nav2_msgs/action/NavigateThroughPoses_Goal goal\n"
    ),
    "nav2_msgs/action/NavigateThroughPoses_SendGoal_Response": (
        "bool accepted\nbuiltin_interfaces/Time stamp\n"
    ),
    "nav2_msgs/action/NavigateThroughPoses_GetResult_Request": "unique_identifier_msgs/UUID goal_id\n",
    "nav2_msgs/action/NavigateThroughPoses_GetResult_Response": (
        "int8 status\nnav2_msgs/action/NavigateThroughPoses_Result result\n"
    ),
}

# Service and action types, and a service's event (its ServiceEventInfo has a `char` field,
# which rosbags hashes as CHAR where rosidl maps it to uint8), are not message types rosbags
# hashes; the Rust unit tests check them against known Jazzy hashes.
def is_message(name):
    """Whether rosbags can hash `name` like rosidl: a message, a request or a response."""
    return not (
        name.endswith(("_Event", "_SendGoal", "_GetResult", "/ServiceEventInfo"))
        or name in ("action_msgs/srv/CancelGoal", "nav2_msgs/action/NavigateThroughPoses")
    )


# CancelGoal's request and response, in case the store lacks them.
CANCEL_GOAL_TYPES = {
    "action_msgs/srv/CancelGoal_Request": "action_msgs/GoalInfo goal_info\n",
    "action_msgs/srv/CancelGoal_Response": (
        "int8 return_code\naction_msgs/GoalInfo[] goals_canceling\n"
    ),
}


def package_types():
    """The message types of our packages (global_interface, soccer_decision_msgs) from their .msg files."""
    types = {}
    for directory, package in ((MSG_DIR, "global_interface"), (SOCCER_MSG_DIR, "soccer_decision_msgs")):
        for msg in sorted(directory.glob("*.msg")):
            types.update(get_types_from_msg(msg.read_text(), f"{package}/msg/{msg.stem}"))
    return types


def check_type_hashes(folder):
    """Our RIHS01 hashes against rosbags' for every message type; returns how many agreed."""
    ours = json.loads((folder / TYPE_HASHES).read_text())
    store = get_typestore(Stores.ROS2_JAZZY)
    types = package_types()
    for name, text in {**NAV2_JAZZY_TYPES, **CANCEL_GOAL_TYPES}.items():
        if name not in store.fielddefs:
            # rosbags files a `pkg/srv/Name` it parses as `pkg/srv/msg/Name`: keep our name.
            types.update({name: fields for fields in get_types_from_msg(text, name).values()})
    store.register(types)
    compared = 0
    for name, hash_ in sorted(ours.items()):
        if not is_message(name):
            continue
        theirs = store.hash_rihs01(name)
        if theirs != hash_:
            raise AssertionError(f"{name}: we hash {hash_}, rosbags {theirs}")
        compared += 1
    return compared


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
    ours = package_types()
    for name, text in NAV2_TYPES.items():
        ours.update(get_types_from_msg(text, name))
    store.register(ours)
    checked = 0
    for expected_file in sorted(folder.glob("*.json")):
        if expected_file.name == TYPE_HASHES:
            continue
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
    if checked < 29:
        raise SystemExit(f"only {checked} payloads found in {folder}")
    print(f"rosbags: {checked} CDR payloads decode to the expected values and re-encode to the same bytes")
    hashes = check_type_hashes(folder)
    if hashes < 50:
        raise SystemExit(f"only {hashes} type hashes compared")
    print(f"rosbags: {hashes} RIHS01 type hashes of message types agree with ours")


if __name__ == "__main__":
    main()

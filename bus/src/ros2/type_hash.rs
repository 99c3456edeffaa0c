//! RIHS01 type hashes (REP 2011), which Jazzy's rmw_zenoh puts into every key expression and
//! liveliness token: a peer only matches ours when both name the same hash.
//!
//! A hash is the SHA-256 of a type's description in a fixed JSON form: the type's fields (name,
//! type id, capacities, nested type name) and those of every type it refers to, sorted by name.
//! Descriptions are built here from the interfaces in ROS's `.msg` / `.srv` / `.action` syntax:
//! the standard ones we use, written out in [`STANDARD`], and our packages' files from the
//! repository's `ros2/` folder. Services and actions get the derived types rosidl generates
//! (`_Request`, `_Response`, `_Event`, `_SendGoal`, `_GetResult`, `_FeedbackMessage`).

use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// What an interface definition is: its kind decides the derived types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterfaceKind {
    /// A `.msg`: one type.
    Message,
    /// A `.srv`: request `---` response.
    Service,
    /// An `.action`: goal `---` result `---` feedback.
    Action,
}

/// One interface definition: `package/kind/Name` and its text.
#[derive(Debug, Clone, Copy)]
pub struct Interface {
    /// Fully qualified name, e.g. `geometry_msgs/msg/Point`.
    pub name: &'static str,
    /// Message, service or action.
    pub kind: InterfaceKind,
    /// The definition in ROS interface syntax (comments, constants and defaults allowed).
    pub text: &'static str,
}

const fn msg(name: &'static str, text: &'static str) -> Interface {
    Interface {
        name,
        kind: InterfaceKind::Message,
        text,
    }
}

/// The standard interfaces the transport uses, as their Jazzy packages define them: field order
/// and types (comments left out; constants, where kept, are skipped like in any definition:
/// they are not part of the hash).
pub const STANDARD: &[Interface] = &[
    msg("builtin_interfaces/msg/Time", "int32 sec\nuint32 nanosec"),
    msg(
        "builtin_interfaces/msg/Duration",
        "int32 sec\nuint32 nanosec",
    ),
    msg(
        "std_msgs/msg/Header",
        "builtin_interfaces/Time stamp\nstring frame_id",
    ),
    msg("std_msgs/msg/String", "string data"),
    msg("std_msgs/msg/Float32", "float32 data"),
    msg("std_msgs/msg/Empty", ""),
    msg("geometry_msgs/msg/Point", "float64 x\nfloat64 y\nfloat64 z"),
    msg(
        "geometry_msgs/msg/Vector3",
        "float64 x\nfloat64 y\nfloat64 z",
    ),
    msg(
        "geometry_msgs/msg/Quaternion",
        "float64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1",
    ),
    msg(
        "geometry_msgs/msg/Pose",
        "Point position\nQuaternion orientation",
    ),
    msg(
        "geometry_msgs/msg/PoseStamped",
        "std_msgs/Header header\nPose pose",
    ),
    msg(
        "geometry_msgs/msg/Transform",
        "Vector3 translation\nQuaternion rotation",
    ),
    msg(
        "geometry_msgs/msg/TransformStamped",
        "std_msgs/Header header\nstring child_frame_id\nTransform transform",
    ),
    msg(
        "sensor_msgs/msg/Imu",
        "std_msgs/Header header\n\
         geometry_msgs/Quaternion orientation\nfloat64[9] orientation_covariance\n\
         geometry_msgs/Vector3 angular_velocity\nfloat64[9] angular_velocity_covariance\n\
         geometry_msgs/Vector3 linear_acceleration\nfloat64[9] linear_acceleration_covariance",
    ),
    msg(
        "tf2_msgs/msg/TFMessage",
        "geometry_msgs/TransformStamped[] transforms",
    ),
    msg("unique_identifier_msgs/msg/UUID", "uint8[16] uuid"),
    msg(
        "service_msgs/msg/ServiceEventInfo",
        "uint8 REQUEST_SENT = 0\nuint8 REQUEST_RECEIVED = 1\nuint8 RESPONSE_SENT = 2\n\
         uint8 RESPONSE_RECEIVED = 3\nuint8 event_type\nbuiltin_interfaces/Time stamp\n\
         char[16] client_gid\nint64 sequence_number",
    ),
    msg(
        "action_msgs/msg/GoalInfo",
        "unique_identifier_msgs/UUID goal_id\nbuiltin_interfaces/Time stamp",
    ),
    msg(
        "action_msgs/msg/GoalStatus",
        "int8 STATUS_UNKNOWN = 0\nint8 STATUS_ACCEPTED = 1\nint8 STATUS_EXECUTING = 2\n\
         int8 STATUS_CANCELING = 3\nint8 STATUS_SUCCEEDED = 4\nint8 STATUS_CANCELED = 5\n\
         int8 STATUS_ABORTED = 6\nGoalInfo goal_info\nint8 status",
    ),
    msg(
        "action_msgs/msg/GoalStatusArray",
        "GoalStatus[] status_list",
    ),
    Interface {
        name: "action_msgs/srv/CancelGoal",
        kind: InterfaceKind::Service,
        text: "GoalInfo goal_info\n---\nint8 ERROR_NONE=0\nint8 ERROR_REJECTED=1\n\
               int8 ERROR_UNKNOWN_GOAL_ID=2\nint8 ERROR_GOAL_TERMINATED=3\n\
               int8 return_code\nGoalInfo[] goals_canceling",
    },
    // Nav2 on Jazzy (branch `jazzy`, 1.3.x): the result has an error code and message where
    // Humble's had `std_msgs/Empty result`.
    Interface {
        name: "nav2_msgs/action/NavigateThroughPoses",
        kind: InterfaceKind::Action,
        text: "geometry_msgs/PoseStamped[] poses\nstring behavior_tree\n---\n\
               uint16 NONE=0\nuint16 error_code\nstring error_msg\n---\n\
               geometry_msgs/PoseStamped current_pose\n\
               builtin_interfaces/Duration navigation_time\n\
               builtin_interfaces/Duration estimated_time_remaining\n\
               int16 number_of_recoveries\nfloat32 distance_remaining\n\
               int16 number_of_poses_remaining",
    },
];

/// Our packages' messages, from the `.msg` files a ROS 2 workspace builds.
pub const OURS: &[Interface] = &[
    msg(
        "global_interface/msg/Point2f",
        include_str!("../../../ros2/global_interface/msg/Point2f.msg"),
    ),
    msg(
        "global_interface/msg/Autoaim",
        include_str!("../../../ros2/global_interface/msg/Autoaim.msg"),
    ),
    msg(
        "global_interface/msg/Detection",
        include_str!("../../../ros2/global_interface/msg/Detection.msg"),
    ),
    msg(
        "global_interface/msg/DetectionArray",
        include_str!("../../../ros2/global_interface/msg/DetectionArray.msg"),
    ),
    msg(
        "global_interface/msg/GameInfo",
        include_str!("../../../ros2/global_interface/msg/GameInfo.msg"),
    ),
    msg(
        "global_interface/msg/StrikeLicensing",
        include_str!("../../../ros2/global_interface/msg/StrikeLicensing.msg"),
    ),
    msg(
        "global_interface/msg/Decision",
        include_str!("../../../ros2/global_interface/msg/Decision.msg"),
    ),
    msg(
        "global_interface/msg/CarPos",
        include_str!("../../../ros2/global_interface/msg/CarPos.msg"),
    ),
    msg(
        "global_interface/msg/ModeSet",
        include_str!("../../../ros2/global_interface/msg/ModeSet.msg"),
    ),
    msg(
        "global_interface/msg/ObjHP",
        include_str!("../../../ros2/global_interface/msg/ObjHP.msg"),
    ),
    msg(
        "global_interface/msg/Serial",
        include_str!("../../../ros2/global_interface/msg/Serial.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/Heatmap",
        include_str!("../../../ros2/soccer_decision_msgs/msg/Heatmap.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/SearchTarget",
        include_str!("../../../ros2/soccer_decision_msgs/msg/SearchTarget.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/MotionCommand",
        include_str!("../../../ros2/soccer_decision_msgs/msg/MotionCommand.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/StateMessage",
        include_str!("../../../ros2/soccer_decision_msgs/msg/StateMessage.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/GameControllerState",
        include_str!("../../../ros2/soccer_decision_msgs/msg/GameControllerState.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/Localization",
        include_str!("../../../ros2/soccer_decision_msgs/msg/Localization.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/BallState",
        include_str!("../../../ros2/soccer_decision_msgs/msg/BallState.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/Obstacle",
        include_str!("../../../ros2/soccer_decision_msgs/msg/Obstacle.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/Obstacles",
        include_str!("../../../ros2/soccer_decision_msgs/msg/Obstacles.msg"),
    ),
    msg(
        "soccer_decision_msgs/msg/FallState",
        include_str!("../../../ros2/soccer_decision_msgs/msg/FallState.msg"),
    ),
];

/// Type ids of `type_description_interfaces/msg/FieldType`.
mod type_id {
    pub const NESTED: u8 = 1;
    pub const INT8: u8 = 2;
    pub const UINT8: u8 = 3;
    pub const BOOLEAN: u8 = 15;
    pub const STRING: u8 = 17;
    pub const WSTRING: u8 = 18;
    pub const BOUNDED_STRING: u8 = 21;
    pub const BOUNDED_WSTRING: u8 = 22;
    /// Added to an element's id for a fixed-size array.
    pub const ARRAY: u8 = 48;
    /// Added for a bounded sequence (`[<=N]`).
    pub const BOUNDED_SEQUENCE: u8 = 96;
    /// Added for an unbounded sequence (`[]`).
    pub const UNBOUNDED_SEQUENCE: u8 = 144;

    /// The id of a primitive type name as the `.msg` syntax spells it (`char` is `uint8` in
    /// ROS 2's IDL mapping, `byte` is `octet`).
    pub fn primitive(name: &str) -> Option<u8> {
        Some(match name {
            "int8" => INT8,
            "uint8" | "char" => UINT8,
            "int16" => 4,
            "uint16" => 5,
            "int32" => 6,
            "uint32" => 7,
            "int64" => 8,
            "uint64" => 9,
            "float32" => 10,
            "float64" => 11,
            "bool" => BOOLEAN,
            "byte" => 16,
            "string" => STRING,
            "wstring" => WSTRING,
            _ => return None,
        })
    }
}

/// One field of a type description.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Field {
    name: String,
    type_id: u8,
    capacity: u64,
    string_capacity: u64,
    nested_type_name: String,
}

/// Why an interface text cannot be described.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{interface}, line {line}: {reason}")]
pub struct DefinitionError {
    /// The interface's name.
    pub interface: String,
    /// 1-based line in its text.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Every known type's fields, by fully qualified name.
#[derive(Debug, Default)]
pub struct TypeDescriptions {
    types: BTreeMap<String, Vec<Field>>,
}

impl TypeDescriptions {
    /// Descriptions of `interfaces` and the types derived from their services and actions.
    pub fn new(interfaces: &[Interface]) -> Result<Self, DefinitionError> {
        let mut types = BTreeMap::new();
        for interface in interfaces {
            add_interface(&mut types, interface)?;
        }
        Ok(Self { types })
    }

    /// Every described type's name, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.types.keys().map(String::as_str)
    }

    /// The RIHS01 hash of a known type (`geometry_msgs/msg/Point`,
    /// `action_msgs/srv/CancelGoal`, `nav2_msgs/action/NavigateThroughPoses_SendGoal`...), or
    /// `None` when it or a type it refers to is unknown.
    pub fn hash(&self, type_name: &str) -> Option<[u8; 32]> {
        self.hashing_json(type_name)
            .map(|json| Sha256::digest(json.as_bytes()).into())
    }

    /// The hash as key expressions write it: `RIHS01_` and 64 hex digits.
    pub fn rihs01(&self, type_name: &str) -> Option<String> {
        self.hash(type_name).map(|hash| {
            let mut text = String::from("RIHS01_");
            for byte in hash {
                let _ = write!(text, "{byte:02x}");
            }
            text
        })
    }

    /// The JSON the hash is taken of (the form of Python's `json.dumps`).
    fn hashing_json(&self, type_name: &str) -> Option<String> {
        let mut referenced = BTreeSet::new();
        self.collect_references(type_name, &mut referenced)?;
        referenced.remove(type_name);
        let mut json = String::from("{\"type_description\": ");
        self.write_type(&mut json, type_name)?;
        json.push_str(", \"referenced_type_descriptions\": [");
        for (i, name) in referenced.iter().enumerate() {
            if i > 0 {
                json.push_str(", ");
            }
            self.write_type(&mut json, name)?;
        }
        json.push_str("]}");
        Some(json)
    }

    fn collect_references(&self, type_name: &str, seen: &mut BTreeSet<String>) -> Option<()> {
        if !seen.insert(type_name.to_owned()) {
            return Some(());
        }
        for field in self.types.get(type_name)? {
            if !field.nested_type_name.is_empty() {
                self.collect_references(&field.nested_type_name, seen)?;
            }
        }
        Some(())
    }

    fn write_type(&self, json: &mut String, type_name: &str) -> Option<()> {
        let fields = self.types.get(type_name)?;
        let _ = write!(
            json,
            "{{\"type_name\": {}, \"fields\": [",
            quoted(type_name)
        );
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                json.push_str(", ");
            }
            let _ = write!(
                json,
                "{{\"name\": {}, \"type\": {{\"type_id\": {}, \"capacity\": {}, \
                 \"string_capacity\": {}, \"nested_type_name\": {}}}}}",
                quoted(&f.name),
                f.type_id,
                f.capacity,
                f.string_capacity,
                quoted(&f.nested_type_name)
            );
        }
        json.push_str("]}");
        Some(())
    }
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// The descriptions of [`STANDARD`] and [`OURS`], built once, or the error in one of them
/// (`OURS` comes from the repository's `.msg` files, which a user may edit).
pub fn known() -> Result<&'static TypeDescriptions, &'static DefinitionError> {
    static KNOWN: OnceLock<Result<TypeDescriptions, DefinitionError>> = OnceLock::new();
    KNOWN
        .get_or_init(|| {
            let all: Vec<Interface> = STANDARD.iter().chain(OURS).copied().collect();
            TypeDescriptions::new(&all)
        })
        .as_ref()
}

/// The RIHS01 hash string of a known type by its DDS name (`geometry_msgs::msg::dds_::Point_`,
/// as rmw_zenoh's keys carry it), or why there is none.
pub fn rihs01_of_dds_name(dds_name: &str) -> Result<String, String> {
    static BY_DDS: OnceLock<HashMap<String, String>> = OnceLock::new();
    let known = known().map_err(|e| format!("the interface definitions do not parse: {e}"))?;
    BY_DDS
        .get_or_init(|| {
            known
                .names()
                .filter_map(|name| Some((super::msg::dds_type_name(name), known.rihs01(name)?)))
                .collect()
        })
        .get(dds_name)
        .cloned()
        .ok_or_else(|| format!("no type description of `{dds_name}` (or of a type it refers to)"))
}

fn add_interface(
    types: &mut BTreeMap<String, Vec<Field>>,
    interface: &Interface,
) -> Result<(), DefinitionError> {
    let (package, _) = interface
        .name
        .split_once('/')
        .ok_or_else(|| DefinitionError {
            interface: interface.name.to_owned(),
            line: 0,
            reason: "the name is not package/kind/Name".to_owned(),
        })?;
    let sections = split_sections(interface.text);
    let expected = match interface.kind {
        InterfaceKind::Message => 1,
        InterfaceKind::Service => 2,
        InterfaceKind::Action => 3,
    };
    if sections.len() != expected {
        return Err(DefinitionError {
            interface: interface.name.to_owned(),
            line: 0,
            reason: format!(
                "{} sections separated by ---, expected {expected}",
                sections.len()
            ),
        });
    }
    let parse = |index: usize| -> Result<Vec<Field>, DefinitionError> {
        let (first_line, text) = sections[index];
        parse_fields(interface.name, package, first_line, text)
    };
    let name = interface.name;
    match interface.kind {
        InterfaceKind::Message => {
            types.insert(name.to_owned(), parse(0)?);
        }
        InterfaceKind::Service => add_service(types, name, parse(0)?, parse(1)?),
        InterfaceKind::Action => {
            let goal = format!("{name}_Goal");
            let result = format!("{name}_Result");
            let feedback = format!("{name}_Feedback");
            types.insert(goal.clone(), parse(0)?);
            types.insert(result.clone(), parse(1)?);
            types.insert(feedback.clone(), parse(2)?);
            let uuid = || nested("goal_id", "unique_identifier_msgs/msg/UUID");
            add_service(
                types,
                &format!("{name}_SendGoal"),
                vec![uuid(), nested("goal", &goal)],
                vec![
                    primitive("accepted", type_id::BOOLEAN),
                    nested("stamp", "builtin_interfaces/msg/Time"),
                ],
            );
            add_service(
                types,
                &format!("{name}_GetResult"),
                vec![uuid()],
                vec![
                    primitive("status", type_id::INT8),
                    nested("result", &result),
                ],
            );
            let feedback_message = format!("{name}_FeedbackMessage");
            types.insert(
                feedback_message.clone(),
                vec![uuid(), nested("feedback", &feedback)],
            );
            types.insert(
                name.to_owned(),
                vec![
                    nested("goal", &goal),
                    nested("result", &result),
                    nested("feedback", &feedback),
                    nested("send_goal_service", &format!("{name}_SendGoal")),
                    nested("get_result_service", &format!("{name}_GetResult")),
                    nested("feedback_message", &feedback_message),
                ],
            );
        }
    }
    Ok(())
}

/// A service's request, response and event types, and the service type of the three.
fn add_service(
    types: &mut BTreeMap<String, Vec<Field>>,
    name: &str,
    request: Vec<Field>,
    response: Vec<Field>,
) {
    let request_name = format!("{name}_Request");
    let response_name = format!("{name}_Response");
    let event_name = format!("{name}_Event");
    let at_most_one = |field: &str, type_name: &str| Field {
        type_id: type_id::NESTED + type_id::BOUNDED_SEQUENCE,
        capacity: 1,
        ..nested(field, type_name)
    };
    types.insert(
        event_name.clone(),
        vec![
            nested("info", "service_msgs/msg/ServiceEventInfo"),
            at_most_one("request", &request_name),
            at_most_one("response", &response_name),
        ],
    );
    types.insert(request_name.clone(), request);
    types.insert(response_name.clone(), response);
    types.insert(
        name.to_owned(),
        vec![
            nested("request_message", &request_name),
            nested("response_message", &response_name),
            nested("event_message", &event_name),
        ],
    );
}

/// rosidl gives a type without fields one placeholder byte.
fn non_empty(fields: Vec<Field>) -> Vec<Field> {
    if fields.is_empty() {
        vec![primitive(
            "structure_needs_at_least_one_member",
            type_id::UINT8,
        )]
    } else {
        fields
    }
}

fn primitive(name: &str, type_id: u8) -> Field {
    Field {
        name: name.to_owned(),
        type_id,
        capacity: 0,
        string_capacity: 0,
        nested_type_name: String::new(),
    }
}

fn nested(name: &str, type_name: &str) -> Field {
    Field {
        nested_type_name: type_name.to_owned(),
        ..primitive(name, type_id::NESTED)
    }
}

/// The text's sections between `---` lines, each with its first line number.
fn split_sections(text: &str) -> Vec<(usize, &str)> {
    let mut sections = Vec::new();
    let mut start = 0;
    let mut first_line = 1;
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.trim() == "---" {
            sections.push((first_line, &text[start..offset]));
            start = offset + line.len();
            first_line = index + 2;
        }
        offset += line.len();
    }
    sections.push((first_line, &text[start..]));
    sections
}

/// The fields of one section: `type name [default]` lines; comments, blank lines and constants
/// (`TYPE NAME=value`) are skipped.
fn parse_fields(
    interface: &str,
    package: &str,
    first_line: usize,
    text: &str,
) -> Result<Vec<Field>, DefinitionError> {
    let mut fields = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let error = |reason: String| DefinitionError {
            interface: interface.to_owned(),
            line: first_line + index,
            reason,
        };
        let mut words = line.splitn(2, char::is_whitespace);
        let type_text = words.next().unwrap_or_default();
        let rest = words.next().unwrap_or_default().trim();
        let name: &str = rest
            .split(|c: char| c.is_whitespace() || c == '=')
            .next()
            .unwrap_or_default();
        if name.is_empty() {
            return Err(error(format!("`{line}` has a type but no field name")));
        }
        if rest[name.len()..].trim_start().starts_with('=') {
            continue; // a constant
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(error(format!("`{name}` is not a field name")));
        }
        let mut field = parse_type(type_text, package).map_err(error)?;
        field.name = name.to_owned();
        fields.push(field);
    }
    Ok(non_empty(fields))
}

/// A field type: `float64`, `string<=8`, `Point2f[4]`, `geometry_msgs/Pose[]`, `int8[<=3]`.
fn parse_type(text: &str, package: &str) -> Result<Field, String> {
    let (element, array) = match text.find('[') {
        Some(open) if text.ends_with(']') => (&text[..open], Some(&text[open + 1..text.len() - 1])),
        Some(_) => return Err(format!("`{text}`: unclosed array bracket")),
        None => (text, None),
    };
    let number = |digits: &str| {
        digits
            .parse::<u64>()
            .map_err(|_| format!("`{text}`: `{digits}` is not a size"))
    };
    let mut field = if let Some((base, bound)) = element.split_once("<=") {
        let id = match base {
            "string" => type_id::BOUNDED_STRING,
            "wstring" => type_id::BOUNDED_WSTRING,
            _ => return Err(format!("`{text}`: only strings have a bound")),
        };
        Field {
            string_capacity: number(bound)?,
            ..primitive("", id)
        }
    } else if let Some(id) = type_id::primitive(element) {
        primitive("", id)
    } else {
        let full = match element.split('/').collect::<Vec<_>>()[..] {
            [name] => format!("{package}/msg/{name}"),
            [pkg, name] => format!("{pkg}/msg/{name}"),
            [pkg, kind, name] => format!("{pkg}/{kind}/{name}"),
            _ => return Err(format!("`{text}` is not a type")),
        };
        if !full
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/')
        {
            return Err(format!("`{text}` is not a type"));
        }
        nested("", &full)
    };
    match array {
        None => {}
        Some("") => field.type_id += type_id::UNBOUNDED_SEQUENCE,
        Some(bound) => match bound.strip_prefix("<=") {
            Some(max) => {
                field.type_id += type_id::BOUNDED_SEQUENCE;
                field.capacity = number(max)?;
            }
            None => {
                field.type_id += type_id::ARRAY;
                field.capacity = number(bound)?;
            }
        },
    }
    Ok(field)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Jazzy hashes of standard types as ROS 2 Jazzy and rmw_zenoh's documentation give them
    /// (`ros2 interface show --show-hash`, rmw_zenoh's design.md for AddTwoInts and String).
    const JAZZY: &[(&str, &str)] = &[
        (
            "std_msgs/msg/String",
            "df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18",
        ),
        (
            "builtin_interfaces/msg/Time",
            "b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197",
        ),
        (
            "geometry_msgs/msg/Point",
            "6963084842a9b04494d6b2941d11444708d892da2f4b09843b9c43f42a7f6881",
        ),
        (
            "geometry_msgs/msg/PoseStamped",
            "10f3786d7d40fd2b54367835614bff85d4ad3b5dab62bf8bca0cc232d73b4cd8",
        ),
        (
            "tf2_msgs/msg/TFMessage",
            "e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087",
        ),
        (
            "unique_identifier_msgs/msg/UUID",
            "1b8e8aca958cbea28fe6ef60bf6c19b683c97a9ef60bb34752067d0f2f7ab437",
        ),
        (
            "action_msgs/msg/GoalStatusArray",
            "6c1684b00f177d37438febe6e709fc4e2b0d4248dca4854946f9ed8b30cda83e",
        ),
        (
            "example_interfaces/srv/AddTwoInts",
            "e118de6bf5eeb66a2491b5bda11202e7b68f198d6f67922cf30364858239c81a",
        ),
    ];

    /// Jazzy hashes of the types rosidl derives from an action (`example_interfaces`
    /// Fibonacci): the request and feedback messages as another rmw_zenoh implementation's
    /// golden tests give them, and the services' as `ros2 action info -v` prints them (the
    /// hashes the service keys carry).
    const FIBONACCI: &[(&str, &str)] = &[
        (
            "example_interfaces/action/Fibonacci_SendGoal",
            "d1a57fb2a4afe8c21e34fb10db206f16ce6729b28531141472df92277c55b557",
        ),
        (
            "example_interfaces/action/Fibonacci_GetResult",
            "1b0de0d5d29dc955d92f546706568428632771db13ec84c15ec1c1a59f424a57",
        ),
        (
            "action_msgs/srv/CancelGoal",
            "573d8b0a534451d7bc2ac8c5ffde8ac14b8593b7001175d0cd6516dcbeb8689a",
        ),
        (
            "example_interfaces/action/Fibonacci_SendGoal_Request",
            "3d088942b413247db536576f0286768c6be8fcd5d0c9a5d544f359fba090a238",
        ),
        (
            "example_interfaces/action/Fibonacci_GetResult_Request",
            "c8a4f5e7d13b81286ee1043e2ecd084281cecf1ff06aaa799464f5f15479f003",
        ),
        (
            "example_interfaces/action/Fibonacci_FeedbackMessage",
            "c1de71afd52e49a89c53d8262366884185bc0a02f78ce051c4e46b0a7fe59bb2",
        ),
        (
            "action_msgs/srv/CancelGoal_Request",
            "3d3c84653c1f96918086887e1dcb236faec88b81a5b14fd4cf4840065bcdf8af",
        ),
    ];

    fn with_examples() -> TypeDescriptions {
        let mut all: Vec<Interface> = STANDARD.iter().chain(OURS).copied().collect();
        all.push(Interface {
            name: "example_interfaces/srv/AddTwoInts",
            kind: InterfaceKind::Service,
            text: "int64 a\nint64 b\n---\nint64 sum",
        });
        all.push(Interface {
            name: "example_interfaces/action/Fibonacci",
            kind: InterfaceKind::Action,
            text: "int32 order\n---\nint32[] sequence\n---\nint32[] sequence",
        });
        TypeDescriptions::new(&all).expect("definitions parse")
    }

    #[test]
    fn standard_hashes_are_jazzys() {
        let types = with_examples();
        for (name, hash) in JAZZY.iter().chain(FIBONACCI) {
            assert_eq!(
                types.rihs01(name).as_deref(),
                Some(format!("RIHS01_{hash}").as_str()),
                "{name}"
            );
        }
    }

    #[test]
    fn every_interface_we_ship_is_described() {
        let known = known().expect("the shipped definitions parse");
        for interface in STANDARD.iter().chain(OURS) {
            assert!(known.hash(interface.name).is_some(), "{}", interface.name);
        }
        for derived in [
            "_SendGoal",
            "_GetResult",
            "_FeedbackMessage",
            "_Goal",
            "_Result",
        ] {
            let name = format!("nav2_msgs/action/NavigateThroughPoses{derived}");
            assert!(known.hash(&name).is_some(), "{name}");
        }
        assert_eq!(
            rihs01_of_dds_name("geometry_msgs::msg::dds_::Point_").as_deref(),
            Ok("RIHS01_6963084842a9b04494d6b2941d11444708d892da2f4b09843b9c43f42a7f6881")
        );
        let unknown = rihs01_of_dds_name("no_msgs::msg::dds_::Nothing_").expect_err("unknown");
        assert!(
            unknown.contains("no_msgs::msg::dds_::Nothing_"),
            "{unknown}"
        );
    }

    #[test]
    fn the_syntax_of_interface_files() {
        let parse = |text| parse_fields("p/msg/T", "p", 1, text);
        let fields = parse(
            "# comment\nint8 A=1\nstring B = 'x'\nstring<=8 name # trailing\n\
             Other[<=3] others\nq/Thing[4] things 0\nfloat64[] values [1.0]",
        )
        .expect("parses");
        let summary: Vec<_> = fields
            .iter()
            .map(|f| {
                (
                    f.name.as_str(),
                    f.type_id,
                    f.capacity,
                    f.string_capacity,
                    f.nested_type_name.as_str(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("name", 21, 0, 8, ""),
                ("others", 97, 3, 0, "p/msg/Other"),
                ("things", 49, 4, 0, "q/msg/Thing"),
                ("values", 155, 0, 0, ""),
            ]
        );
        // No fields: rosidl's placeholder.
        assert_eq!(parse("# nothing\n").expect("parses")[0].type_id, 3);
        let error = parse("int8\n").expect_err("no name");
        assert_eq!(error.line, 1);
        assert!(parse("int8[x] a").is_err());
        assert!(parse("float64<=3 a").is_err());
        assert!(parse("a/b/c/d e").is_err());
        let bad_sections = TypeDescriptions::new(&[Interface {
            name: "p/srv/S",
            kind: InterfaceKind::Service,
            text: "int8 a",
        }]);
        assert!(bad_sections.is_err());
    }

    #[test]
    fn an_unknown_nested_type_has_no_hash() {
        let types = TypeDescriptions::new(&[msg("p/msg/A", "p/Missing b")]).expect("parses");
        assert_eq!(types.hash("p/msg/A"), None);
        assert_eq!(types.hash("p/msg/Missing"), None);
    }
}

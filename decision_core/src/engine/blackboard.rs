//! Typed values and scoped blackboards with BehaviorTree.CPP 4 semantics.
//!
//! A [`Blackboards`] arena holds every scope of a tree (the root and one per subtree). A key is
//! resolved once, through the scope's remaps, autoremap and the `@root` prefix, to a stable
//! [`EntrySlot`]; compiled trees keep slots and read/write by index on the tick path, without
//! hashing or allocating.
//!
//! Every entry counts its writes ([`Blackboards::slot_writes`], BT.CPP's `sequence_id`): each
//! successful write adds one, also rewriting the same value; a new or unset entry counts 0.
//! The entry-update nodes (`WasEntryUpdated`, ...) compare it with the count they saw last.
//!
//! Two write paths exist because BT.CPP has two: [`Blackboards::set_slot`] is a port write or
//! SetBlackboard (typed, strict numeric casts, strings parsed into typed entries), and
//! [`Blackboards::assign_slot`] is a script `=` / `:=` (numbers convert to the entry's number
//! representation, so `2` into a bool entry is kept and fails only when used as a condition).

use std::collections::HashMap;
use std::fmt;

/// Largest integer magnitude a double represents exactly (2^53 - 1).
const MAX_EXACT_DOUBLE_INT: i64 = (1_i64 << 53) - 1;

/// A blackboard or script value.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum Value {
    /// A 64-bit integer (script integer literals, int ports).
    Int(i64),
    /// A double (script arithmetic results, real ports).
    Double(f64),
    /// A boolean (bool ports); a number 0/1 in arithmetic.
    Bool(bool),
    /// A string (string ports, script string literals, literal subtree params).
    Str(String),
}

/// A failed conversion or a rejected blackboard write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ValueError {
    /// What went wrong, in words.
    pub message: String,
}

impl ValueError {
    /// An error with `message`.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

/// The type fixed on an entry when it is created; `Any` entries take the type of a later write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryType {
    /// Untyped: created by a script `:=` or a string write to a missing key.
    Any,
    /// A 64-bit integer entry.
    Int,
    /// An `f64` entry; an int written to it must fit a double exactly (magnitude below 2^53).
    Double,
    /// A `bool` entry; port writes accept 0 and 1 and bool text (`true`, `False`, `1`, ...).
    Bool,
    /// A `String` entry; numbers and booleans cannot be written into it.
    Str,
}

impl fmt::Display for EntryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EntryType::Any => "any",
            EntryType::Int => "int",
            EntryType::Double => "double",
            EntryType::Bool => "bool",
            EntryType::Str => "string",
        })
    }
}

impl Value {
    /// The entry type a new entry written with this value gets.
    pub fn entry_type(&self) -> EntryType {
        match self {
            Value::Int(_) => EntryType::Int,
            Value::Double(_) => EntryType::Double,
            Value::Bool(_) => EntryType::Bool,
            Value::Str(_) => EntryType::Str,
        }
    }

    /// True for `Int`, `Double` and `Bool` (a bool is a number in BT.CPP scripts).
    pub fn is_number(&self) -> bool {
        !matches!(self, Value::Str(_))
    }

    /// Reads the value as an int: doubles must be integral, strings are read by their leading
    /// integer (`"2x"` and `"1.7"` give 2 and 1), bools are 0/1.
    #[inline]
    pub fn as_int(&self) -> Result<i64, ValueError> {
        match self {
            Value::Int(i) => Ok(*i),
            other => other.converted_to_int(),
        }
    }

    /// [`as_int`](Self::as_int) of a value that is not an int (out of line: ports read ints).
    #[inline(never)]
    fn converted_to_int(&self) -> Result<i64, ValueError> {
        match self {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(i64::from(*b)),
            Value::Double(d) => double_to_int(*d),
            Value::Str(s) => leading_int(s),
        }
    }

    /// Reads the value as a double: ints beyond 2^53 are a precision error, strings are read
    /// by their leading number, bools are 0/1.
    pub fn as_double(&self) -> Result<f64, ValueError> {
        match self {
            Value::Int(i) => int_to_double(*i),
            Value::Bool(b) => Ok(f64::from(u8::from(*b))),
            Value::Double(d) => Ok(*d),
            Value::Str(s) => leading_double(s),
        }
    }

    /// Reads the value as a bool: ints must be 0 or 1, doubles are true when non-zero, strings
    /// must be a bool literal (`true`, `False`, `1`, ...) as for a bool port.
    pub fn as_bool(&self) -> Result<bool, ValueError> {
        match self {
            Value::Bool(b) => Ok(*b),
            Value::Int(0) => Ok(false),
            Value::Int(1) => Ok(true),
            Value::Int(i) => Err(ValueError::new(format!(
                "implicit conversion of int {i} to bool is not allowed (only 0 or 1)"
            ))),
            Value::Double(d) => Ok(*d != 0.0),
            Value::Str(s) => parse_bool(s),
        }
    }

    /// The value as text: ints in decimal, doubles with 6 decimals (`1.500000`), bools as
    /// `1`/`0`, as BT.CPP formats them for Switch and string concatenation.
    pub fn to_string_value(&self) -> Result<String, ValueError> {
        let mut out = String::new();
        self.write_string_into(&mut out);
        Ok(out)
    }

    /// Appends [`Value::to_string_value`]'s text to `out` (no allocation beyond `out`'s growth).
    pub fn write_string_into(&self, out: &mut String) {
        use fmt::Write;
        // Writing into a String cannot fail.
        let _ = match self {
            Value::Int(i) => write!(out, "{i}"),
            Value::Double(d) => write!(out, "{d:.6}"),
            Value::Bool(b) => write!(out, "{}", u8::from(*b)),
            Value::Str(s) => {
                out.push_str(s);
                Ok(())
            }
        };
    }

    /// Short type name for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "int",
            Value::Double(_) => "double",
            Value::Bool(_) => "bool",
            Value::Str(_) => "string",
        }
    }
}

/// An integral, in-range double as an int; anything else is an error (BT.CPP never truncates).
pub(crate) fn double_to_int(d: f64) -> Result<i64, ValueError> {
    // 2^63 as f64 is exactly representable; i64::MAX is not, so use a half-open bound.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if d.is_finite() && d.fract() == 0.0 && (-LIMIT..LIMIT).contains(&d) {
        // In range and integral: the cast is exact.
        Ok(d as i64)
    } else {
        Err(ValueError::new(format!(
            "invalid floating point to integer conversion of {d}"
        )))
    }
}

/// An int as a double, refusing magnitudes a double cannot hold exactly.
pub(crate) fn int_to_double(i: i64) -> Result<f64, ValueError> {
    if i.unsigned_abs() > MAX_EXACT_DOUBLE_INT.unsigned_abs() {
        Err(ValueError::new(format!(
            "loss of precision converting the integer {i} to floating point"
        )))
    } else {
        Ok(i as f64)
    }
}

/// The leading integer of `s` (like C++ `from_chars`: optional `-`, digits, rest ignored).
pub(crate) fn leading_int(s: &str) -> Result<i64, ValueError> {
    let bytes = s.as_bytes();
    let sign = usize::from(bytes.first() == Some(&b'-'));
    let digits = bytes[sign..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return Err(ValueError::new(format!(
            "can't convert string [{s}] to integer"
        )));
    }
    s[..sign + digits]
        .parse::<i64>()
        .map_err(|_| ValueError::new(format!("integer out of range in string [{s}]")))
}

/// Length of the longest prefix of `s` that is a real number (like C++ `from_chars`).
fn leading_double_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let rest = &s[i..];
    for word in ["infinity", "inf", "nan"] {
        if rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word) {
            return i + word.len();
        }
    }
    let int_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        frac_digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if int_digits + frac_digits > 0 {
            i += 1 + frac_digits;
        }
    }
    if int_digits + frac_digits == 0 {
        return 0;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp_digits = b[j.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if exp_digits > 0 {
            i = j + exp_digits;
        }
    }
    i
}

/// The leading real number of `s` (`"1.7abc"` gives 1.7); no number at the start is an error.
pub(crate) fn leading_double(s: &str) -> Result<f64, ValueError> {
    let len = leading_double_len(s);
    in_range_double(&s[..len])
        .ok_or_else(|| ValueError::new(format!("can't convert string [{s}] to double")))
}

/// `number` (the whole text of a real number) as a double, or `None` when it does not parse or
/// is out of range: a finite literal too large for a double (`1e999`) or a non-zero one too
/// small (`1e-999`), which BT.CPP's `from_chars` refuses, rather than infinity or zero.
/// `inf` and `nan` written as words stay what they say.
pub(crate) fn in_range_double(number: &str) -> Option<f64> {
    let value = number.parse::<f64>().ok()?;
    let digits = number.trim_start_matches('-');
    let is_word = digits.starts_with(|c: char| c.is_ascii_alphabetic());
    if is_word {
        return Some(value);
    }
    let mantissa = digits.split(['e', 'E']).next().unwrap_or("");
    let is_zero = mantissa.bytes().all(|b| b == b'0' || b == b'.');
    (value.is_finite() && (value != 0.0 || is_zero)).then_some(value)
}

/// A bool literal as BT.CPP's `convertFromString<bool>` accepts it.
fn parse_bool(s: &str) -> Result<bool, ValueError> {
    match s {
        "1" | "true" | "True" | "TRUE" => Ok(true),
        "0" | "false" | "False" | "FALSE" => Ok(false),
        _ => Err(ValueError::new(format!("invalid bool conversion of [{s}]"))),
    }
}

/// Converts a port literal to a value of type `ty`; int ports accept only integer text, double
/// ports ints and reals, bool ports `true`/`false`/`1`/`0` (also `True`, `TRUE`, ...).
pub fn parse_literal(text: &str, ty: EntryType) -> Result<Value, ValueError> {
    let bad = || ValueError::new(format!("can't convert [{text}] to {ty}"));
    match ty {
        EntryType::Any | EntryType::Str => Ok(Value::Str(text.to_owned())),
        EntryType::Bool => parse_bool(text).map(Value::Bool),
        EntryType::Int => {
            let digits = text.strip_prefix('-').unwrap_or(text);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            text.parse::<i64>().map(Value::Int).map_err(|_| bad())
        }
        EntryType::Double => {
            if text.starts_with('+') || leading_double_len(text) != text.len() || text.is_empty() {
                return Err(bad());
            }
            in_range_double(text).map(Value::Double).ok_or_else(bad)
        }
    }
}

/// The value of a literal SubTree parameter (`int_val="42"`): an int when the whole text is
/// an integer (no `.`, `e` or `E`), else a double when the whole text is a real number, else
/// the string, as BT.CPP 4.10 stores it so that scripts in the subtree can do arithmetic.
pub fn literal_parameter(text: String) -> Value {
    parse_literal(&text, EntryType::Int)
        .or_else(|_| parse_literal(&text, EntryType::Double))
        .unwrap_or(Value::Str(text))
}

/// The key of a blackboard pointer `{key}` (spaces around the braces are ignored); `{=}` gives
/// `"="`, which [`remapped_key`] maps to the port's own name.
pub fn is_blackboard_pointer(text: &str) -> Option<&str> {
    let t = text.trim_matches(' ');
    if t.len() >= 3 && t.starts_with('{') && t.ends_with('}') {
        Some(&t[1..t.len() - 1])
    } else {
        None
    }
}

/// The blackboard key a port value refers to: `{key}` gives `key`, `{=}` and `=` give the port
/// name, anything else is a literal (`None`).
pub fn remapped_key<'a>(port_name: &'a str, text: &'a str) -> Option<&'a str> {
    if text == "=" || text == "{=}" {
        return Some(port_name);
    }
    match is_blackboard_pointer(text) {
        Some("=") => Some(port_name),
        other => other,
    }
}

/// One scope (blackboard) in a [`Blackboards`] arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeId(pub u32);

/// A stable index of one entry; resolve once at load time, then read/write by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntrySlot(pub u32);

/// Where a subtree's internal key comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remap {
    /// The parent scope's entry with this key (`internal="{external}"`).
    Parent(String),
    /// A literal parameter: a string entry local to the subtree (`internal="text"`).
    Literal(String),
}

#[derive(Debug)]
struct Scope {
    parent: Option<ScopeId>,
    remaps: HashMap<String, String>,
    autoremap: bool,
    slots: HashMap<String, EntrySlot>,
}

#[derive(Debug)]
struct Entry {
    key: String,
    present: bool,
    ty: EntryType,
    value: Option<Value>,
    /// Successful writes since the entry was created (0 for a new or unset entry).
    writes: u64,
}

/// An arena of blackboard scopes and their entries.
#[derive(Debug, Default)]
pub struct Blackboards {
    scopes: Vec<Scope>,
    entries: Vec<Entry>,
}

impl Blackboards {
    /// An arena without scopes; add the root with [`new_root`](Self::new_root).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a root scope (no parent) and returns its id.
    pub fn new_root(&mut self) -> ScopeId {
        self.push_scope(None, HashMap::new(), false)
    }

    /// Adds a subtree scope under `parent` with explicit remaps and the `_autoremap` flag;
    /// literal remaps become local string entries.
    pub fn new_child(
        &mut self,
        parent: ScopeId,
        remaps: impl IntoIterator<Item = (String, Remap)>,
        autoremap: bool,
    ) -> ScopeId {
        let mut to_parent = HashMap::new();
        let mut literals = Vec::new();
        for (internal, remap) in remaps {
            match remap {
                Remap::Parent(external) => {
                    to_parent.insert(internal, external);
                }
                Remap::Literal(text) => literals.push((internal, text)),
            }
        }
        let scope = self.push_scope(Some(parent), to_parent, autoremap);
        for (key, text) in literals {
            let slot = self.local_slot(scope, &key);
            let entry = &mut self.entries[slot.0 as usize];
            let value = literal_parameter(text);
            entry.present = true;
            // A string is untyped, as BT.CPP creates an entry from a string.
            entry.ty = match value {
                Value::Str(_) => EntryType::Any,
                ref number => number.entry_type(),
            };
            entry.value = Some(value);
            entry.writes = 1;
        }
        scope
    }

    fn push_scope(
        &mut self,
        parent: Option<ScopeId>,
        remaps: HashMap<String, String>,
        autoremap: bool,
    ) -> ScopeId {
        let id = ScopeId(u32::try_from(self.scopes.len()).unwrap_or(u32::MAX));
        self.scopes.push(Scope {
            parent: parent.filter(|p| (p.0 as usize) < self.scopes.len()),
            remaps,
            autoremap,
            slots: HashMap::new(),
        });
        id
    }

    fn scope(&self, id: ScopeId) -> Option<&Scope> {
        self.scopes.get(id.0 as usize)
    }

    fn root_of(&self, mut id: ScopeId) -> ScopeId {
        while let Some(parent) = self.scope(id).and_then(|s| s.parent) {
            id = parent;
        }
        id
    }

    /// The scope owning `key` as seen from `scope`, and its key there: `@key` goes to the root,
    /// then local entries, explicit remaps and autoremap (except `_private` keys) lead upwards.
    fn owner<'a>(&'a self, mut scope: ScopeId, mut key: &'a str) -> Option<(ScopeId, &'a str)> {
        if let Some(rest) = key.strip_prefix('@') {
            if rest.contains('@') {
                return None;
            }
            scope = self.root_of(scope);
            key = rest;
        }
        loop {
            let s = self.scope(scope)?;
            if s.slots.contains_key(key) {
                return Some((scope, key));
            }
            let Some(parent) = s.parent else {
                return Some((scope, key));
            };
            if let Some(external) = s.remaps.get(key) {
                scope = parent;
                key = external.as_str();
            } else if s.autoremap && !key.starts_with('_') {
                scope = parent;
            } else {
                return Some((scope, key));
            }
        }
    }

    /// The slot of `key` in `scope` itself, allocating an absent entry if needed.
    fn local_slot(&mut self, scope: ScopeId, key: &str) -> EntrySlot {
        if let Some(slot) = self.scopes[scope.0 as usize].slots.get(key) {
            return *slot;
        }
        let slot = EntrySlot(u32::try_from(self.entries.len()).unwrap_or(u32::MAX));
        self.entries.push(Entry {
            key: key.to_owned(),
            present: false,
            ty: EntryType::Any,
            value: None,
            writes: 0,
        });
        self.scopes[scope.0 as usize]
            .slots
            .insert(key.to_owned(), slot);
        slot
    }

    /// The slot `key` resolves to from `scope`, whether or not the entry exists yet (scripts
    /// and output ports pre-resolve keys they create later); `None` for a bad key like `@a@b`.
    pub fn reserve(&mut self, scope: ScopeId, key: &str) -> Option<EntrySlot> {
        let (owner, owner_key) = self.owner(scope, key)?;
        let owner_key = owner_key.to_owned();
        Some(self.local_slot(owner, &owner_key))
    }

    /// The slot of an existing entry, or with `create` a new untyped entry's slot.
    pub fn resolve(&mut self, scope: ScopeId, key: &str, create: bool) -> Option<EntrySlot> {
        if !create {
            let (owner, owner_key) = self.owner(scope, key)?;
            let slot = *self.scope(owner)?.slots.get(owner_key)?;
            return self.slot_present(slot).then_some(slot);
        }
        let slot = self.reserve(scope, key)?;
        self.create_slot(slot, EntryType::Any).ok()?;
        Some(slot)
    }

    fn entry(&self, slot: EntrySlot) -> Option<&Entry> {
        self.entries.get(slot.0 as usize)
    }

    fn entry_mut(&mut self, slot: EntrySlot) -> Result<&mut Entry, ValueError> {
        self.entries
            .get_mut(slot.0 as usize)
            .ok_or_else(|| ValueError::new(format!("no blackboard slot {}", slot.0)))
    }

    /// True if the slot's entry exists (it may still have no value).
    pub fn slot_present(&self, slot: EntrySlot) -> bool {
        self.entry(slot).is_some_and(|e| e.present)
    }

    /// The key of the slot in its owning scope (for messages).
    pub fn slot_key(&self, slot: EntrySlot) -> &str {
        self.entry(slot).map_or("", |e| e.key.as_str())
    }

    /// The type of the slot's entry, `None` if it does not exist.
    pub fn slot_type(&self, slot: EntrySlot) -> Option<EntryType> {
        self.entry(slot).filter(|e| e.present).map(|e| e.ty)
    }

    /// How often the slot's entry was written since it was created (every successful write
    /// counts, also one that rewrites the same value); `None` if the entry does not exist.
    pub fn slot_writes(&self, slot: EntrySlot) -> Option<u64> {
        self.entry(slot).filter(|e| e.present).map(|e| e.writes)
    }

    /// The value in the slot; `None` if the entry is missing or was created without a value.
    #[inline]
    pub fn get_slot(&self, slot: EntrySlot) -> Option<&Value> {
        self.entry(slot)
            .filter(|e| e.present)
            .and_then(|e| e.value.as_ref())
    }

    /// Creates the slot's entry with type `ty` if missing; an existing entry is kept, unless
    /// both it and `ty` are typed and differ (a port's type cannot change once declared).
    pub fn create_slot(&mut self, slot: EntrySlot, ty: EntryType) -> Result<(), ValueError> {
        let entry = self.entry_mut(slot)?;
        if !entry.present {
            entry.present = true;
            entry.ty = ty;
            entry.value = None;
            entry.writes = 0;
            return Ok(());
        }
        if entry.ty != ty && entry.ty != EntryType::Any && ty != EntryType::Any {
            return Err(ValueError::new(format!(
                "blackboard entry [{}]: once declared, the type of a port shall not change \
                 (declared {}, now {ty})",
                entry.key, entry.ty
            )));
        }
        Ok(())
    }

    /// Port write / SetBlackboard: a missing entry is created with the value's type (an untyped
    /// one for a string), an untyped entry takes the value's type, a typed entry parses strings
    /// and accepts only exact numeric casts.
    pub fn set_slot(&mut self, slot: EntrySlot, value: Value) -> Result<(), ValueError> {
        let entry = self.entry_mut(slot)?;
        if !entry.present {
            entry.present = true;
            entry.ty = match value {
                Value::Str(_) => EntryType::Any,
                ref v => v.entry_type(),
            };
            entry.value = Some(value);
            entry.writes = 1;
            return Ok(());
        }
        if entry.ty == EntryType::Any {
            entry.ty = value.entry_type();
            entry.value = Some(value);
            entry.writes += 1;
            return Ok(());
        }
        let converted = convert_for_set(&entry.key, entry.ty, value)?;
        entry.value = Some(converted);
        entry.writes += 1;
        Ok(())
    }

    /// [`Blackboards::set_slot`] with a borrowed string, reusing the entry's `String` buffer.
    pub fn set_slot_str(&mut self, slot: EntrySlot, text: &str) -> Result<(), ValueError> {
        let entry = self.entry_mut(slot)?;
        if entry.present
            && matches!(entry.ty, EntryType::Str | EntryType::Any)
            && let Some(Value::Str(buf)) = &mut entry.value
        {
            buf.clear();
            buf.push_str(text);
            entry.ty = EntryType::Str;
            entry.writes += 1;
            return Ok(());
        }
        self.set_slot(slot, Value::Str(text.to_owned()))
    }

    /// Script `=` / `:=` into an existing entry: the first value of an untyped empty entry is
    /// stored as is; otherwise the value converts to the entry's representation (numbers to
    /// numbers, strings parsed); returns the stored value.
    pub fn assign_slot(&mut self, slot: EntrySlot, value: &Value) -> Result<&Value, ValueError> {
        let entry = self.entry_mut(slot)?;
        if !entry.present {
            return Err(ValueError::new(format!(
                "the blackboard entry [{}] doesn't exist",
                entry.key
            )));
        }
        let target = match (entry.ty, &entry.value) {
            (EntryType::Any, None) => None,
            (EntryType::Any, Some(v)) => Some(v.entry_type()),
            (ty, _) => Some(ty),
        };
        let new = match (target, value) {
            (None, v) => v.clone(),
            (Some(EntryType::Str), Value::Str(s)) => {
                if let Some(Value::Str(buf)) = &mut entry.value {
                    buf.clone_from(s);
                    entry.writes += 1;
                    return stored(entry);
                }
                Value::Str(s.clone())
            }
            (Some(_), Value::Str(s)) if entry.ty == EntryType::Any => {
                // An untyped entry holding a number has no string converter: the string is
                // read as a number (`true`/`false` as 1/0) and stored as a double.
                Value::Double(script_string_to_double(s)?)
            }
            // A typed entry parses the string as its port would (`'2x'` gives 2, `'true'`).
            (Some(t), Value::Str(s)) => convert_for_set(&entry.key, t, Value::Str(s.clone()))?,
            (Some(EntryType::Str), v) => {
                return Err(ValueError::new(format!(
                    "error assigning to entry [{}] of type string: a {} can't be converted",
                    entry.key,
                    v.type_name()
                )));
            }
            (Some(t), v) => convert_number_for_assign(&entry.key, t, v)?,
        };
        entry.value = Some(new);
        entry.writes += 1;
        stored(entry)
    }

    /// The value of `key` seen from `scope`.
    pub fn get(&self, scope: ScopeId, key: &str) -> Option<&Value> {
        let (owner, owner_key) = self.owner(scope, key)?;
        let slot = *self.scope(owner)?.slots.get(owner_key)?;
        self.get_slot(slot)
    }

    /// Port write of `key` seen from `scope` (see [`Blackboards::set_slot`]).
    pub fn set(&mut self, scope: ScopeId, key: &str, value: Value) -> Result<(), ValueError> {
        let slot = self
            .reserve(scope, key)
            .ok_or_else(|| ValueError::new(format!("invalid blackboard key [{key}]")))?;
        self.set_slot(slot, value)
    }

    /// Declares `key` with type `ty` (see [`Blackboards::create_slot`]) and returns its slot.
    pub fn create(
        &mut self,
        scope: ScopeId,
        key: &str,
        ty: EntryType,
    ) -> Result<EntrySlot, ValueError> {
        let slot = self
            .reserve(scope, key)
            .ok_or_else(|| ValueError::new(format!("invalid blackboard key [{key}]")))?;
        self.create_slot(slot, ty)?;
        Ok(slot)
    }

    /// Removes `key` from `scope`'s own storage (remaps are not followed, as in BT.CPP);
    /// pre-resolved slots stay valid and see the entry as missing.
    pub fn unset(&mut self, scope: ScopeId, key: &str) -> bool {
        let Some(slot) = self.scope(scope).and_then(|s| s.slots.get(key)).copied() else {
            return false;
        };
        match self.entries.get_mut(slot.0 as usize) {
            Some(entry) if entry.present => {
                entry.present = false;
                entry.ty = EntryType::Any;
                entry.value = None;
                entry.writes = 0;
                true
            }
            _ => false,
        }
    }

    /// True if `key` seen from `scope` names an existing entry.
    pub fn contains(&self, scope: ScopeId, key: &str) -> bool {
        self.owner(scope, key)
            .and_then(|(owner, k)| self.scope(owner)?.slots.get(k).copied())
            .is_some_and(|slot| self.slot_present(slot))
    }
}

/// The value just written into `entry`.
fn stored(entry: &Entry) -> Result<&Value, ValueError> {
    entry
        .value
        .as_ref()
        .ok_or_else(|| ValueError::new(format!("entry [{}] has no value", entry.key)))
}

/// A string read as a number by a script: `true`/`false` are 1/0, else its leading number.
pub(crate) fn script_string_to_double(s: &str) -> Result<f64, ValueError> {
    match s {
        "true" => Ok(1.0),
        "false" => Ok(0.0),
        _ => leading_double(s),
    }
}

/// Port-write conversion of `value` into a typed entry of type `ty`.
fn convert_for_set(key: &str, ty: EntryType, value: Value) -> Result<Value, ValueError> {
    let mismatch = |v: &Value| {
        ValueError::new(format!(
            "blackboard entry [{key}] has type {ty}, a {} can't be written into it",
            v.type_name()
        ))
    };
    match (ty, value) {
        (EntryType::Int, Value::Int(i)) => Ok(Value::Int(i)),
        (EntryType::Double, Value::Double(d)) => Ok(Value::Double(d)),
        (EntryType::Bool, Value::Bool(b)) => Ok(Value::Bool(b)),
        (EntryType::Str | EntryType::Any, Value::Str(s)) => Ok(Value::Str(s)),
        (EntryType::Int, Value::Str(s)) => leading_int(&s).map(Value::Int),
        (EntryType::Double, Value::Str(s)) => leading_double(&s).map(Value::Double),
        (EntryType::Bool, Value::Str(s)) => parse_bool(&s).map(Value::Bool),
        (EntryType::Int, Value::Bool(b)) => Ok(Value::Int(i64::from(b))),
        (EntryType::Double, Value::Bool(b)) => Ok(Value::Double(f64::from(u8::from(b)))),
        (EntryType::Int, v @ Value::Double(d)) => {
            double_to_int(d).map(Value::Int).map_err(|_| mismatch(&v))
        }
        (EntryType::Double, v @ Value::Int(i)) => int_to_double(i)
            .map(Value::Double)
            .map_err(|_| mismatch(&v)),
        (EntryType::Bool, Value::Int(i @ (0 | 1))) => Ok(Value::Bool(i == 1)),
        (EntryType::Bool, Value::Double(d)) if d == 0.0 || d == 1.0 => Ok(Value::Bool(d == 1.0)),
        (_, v) => Err(mismatch(&v)),
    }
}

/// Script-assignment conversion of a number into target representation `t` (not `Str`):
/// ints and bools share one integer representation, so 2 into a bool entry is kept as 2.
fn convert_number_for_assign(key: &str, t: EntryType, v: &Value) -> Result<Value, ValueError> {
    let fail = |e: ValueError| {
        ValueError::new(format!(
            "error assigning a {} to entry [{key}] of type {t}: {}",
            v.type_name(),
            e.message
        ))
    };
    match t {
        EntryType::Double => v.as_double().map(Value::Double).map_err(fail),
        EntryType::Int => v.as_int().map(Value::Int).map_err(fail),
        EntryType::Bool => match v.as_int().map_err(fail)? {
            0 => Ok(Value::Bool(false)),
            1 => Ok(Value::Bool(true)),
            n => Ok(Value::Int(n)),
        },
        EntryType::Any | EntryType::Str => Ok(v.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::Str(text.to_owned())
    }

    #[test]
    fn conversions_follow_btcpp() {
        assert_eq!(s("2x").as_int(), Ok(2));
        assert_eq!(s("1.7").as_int(), Ok(1));
        assert_eq!(s("-4").as_int(), Ok(-4));
        assert!(s("x").as_int().is_err());
        assert!(s("+3").as_int().is_err());
        assert!(Value::Double(2.5).as_int().is_err());
        assert_eq!(Value::Double(3.0).as_int(), Ok(3));
        assert_eq!(Value::Bool(true).as_int(), Ok(1));
        assert_eq!(s("1.5e2x").as_double(), Ok(150.0));
        assert_eq!(s(".5").as_double(), Ok(0.5));
        assert!(s("abc").as_double().is_err());
        assert!(Value::Int(1 << 60).as_double().is_err());
        assert_eq!(Value::Int(2).as_bool().map_err(|_| ()), Err(()));
        assert_eq!(Value::Int(1).as_bool(), Ok(true));
        assert_eq!(Value::Double(0.5).as_bool(), Ok(true));
        assert_eq!(Value::Double(0.0).as_bool(), Ok(false));
        assert_eq!(s("TRUE").as_bool(), Ok(true));
        assert!(s("yes").as_bool().is_err());
        assert_eq!(
            Value::Double(1.4999999).to_string_value().as_deref(),
            Ok("1.500000")
        );
        assert_eq!(Value::Bool(true).to_string_value().as_deref(), Ok("1"));
        assert_eq!(Value::Int(-7).to_string_value().as_deref(), Ok("-7"));
    }

    #[test]
    fn value_serializes_as_plain_json() {
        let json = serde_json::to_string(&vec![
            Value::Int(3),
            Value::Double(1.5),
            Value::Bool(true),
            s("a"),
        ]);
        assert_eq!(json.ok().as_deref(), Some(r#"[3,1.5,true,"a"]"#));
    }

    #[test]
    fn literal_subtree_parameters_keep_numbers() {
        let cases: &[(&str, Value)] = &[
            ("42", Value::Int(42)),
            ("-7", Value::Int(-7)),
            ("2.75", Value::Double(2.75)),
            ("1e3", Value::Double(1000.0)),
            ("-0.5", Value::Double(-0.5)),
            ("+3", s("+3")),
            ("1;2;3", s("1;2;3")),
            ("2.2;2.4", s("2.2;2.4")),
            (" 4", s(" 4")),
            ("4 ", s("4 ")),
            ("0x1A", s("0x1A")),
            ("1e999", s("1e999")),
            ("", s("")),
            ("hello", s("hello")),
            ("99999999999999999999", Value::Double(1e20)),
        ];
        for (text, want) in cases {
            assert_eq!(&literal_parameter((*text).to_owned()), want, "{text:?}");
        }
    }

    #[test]
    fn parse_literal_table() {
        let cases: &[(&str, EntryType, Option<Value>)] = &[
            ("3", EntryType::Int, Some(Value::Int(3))),
            ("-2", EntryType::Int, Some(Value::Int(-2))),
            ("3.5", EntryType::Int, None),
            ("x", EntryType::Int, None),
            ("", EntryType::Int, None),
            ("+3", EntryType::Int, None),
            ("3", EntryType::Double, Some(Value::Double(3.0))),
            ("-2.5", EntryType::Double, Some(Value::Double(-2.5))),
            ("1e3", EntryType::Double, Some(Value::Double(1000.0))),
            ("2.5m", EntryType::Double, None),
            ("1e999", EntryType::Double, None),
            ("-1e999", EntryType::Double, None),
            ("1e-999", EntryType::Double, None),
            ("0e999", EntryType::Double, Some(Value::Double(0.0))),
            ("0.000", EntryType::Double, Some(Value::Double(0.0))),
            ("5e-324", EntryType::Double, Some(Value::Double(5e-324))),
            (
                "1.7976931348623157e308",
                EntryType::Double,
                Some(Value::Double(f64::MAX)),
            ),
            ("true", EntryType::Bool, Some(Value::Bool(true))),
            ("False", EntryType::Bool, Some(Value::Bool(false))),
            ("TRUE", EntryType::Bool, Some(Value::Bool(true))),
            ("1", EntryType::Bool, Some(Value::Bool(true))),
            ("0", EntryType::Bool, Some(Value::Bool(false))),
            ("tRue", EntryType::Bool, None),
            ("2", EntryType::Bool, None),
            ("any text", EntryType::Str, Some(s("any text"))),
        ];
        for (text, ty, want) in cases {
            assert_eq!(parse_literal(text, *ty).ok(), *want, "{text:?} as {ty}");
        }
    }

    #[test]
    fn blackboard_pointers() {
        assert_eq!(is_blackboard_pointer("{goal}"), Some("goal"));
        assert_eq!(is_blackboard_pointer("  {goal} "), Some("goal"));
        assert_eq!(is_blackboard_pointer("{=}"), Some("="));
        assert_eq!(is_blackboard_pointer("{}"), None);
        assert_eq!(is_blackboard_pointer("goal"), None);
        assert_eq!(remapped_key("target", "{=}"), Some("target"));
        assert_eq!(remapped_key("target", "="), Some("target"));
        assert_eq!(remapped_key("target", "{pose}"), Some("pose"));
        assert_eq!(remapped_key("target", "3"), None);
    }

    #[test]
    fn set_creates_typed_entries_and_converts() {
        let mut bb = Blackboards::new();
        let root = bb.new_root();
        bb.create(root, "n", EntryType::Int).ok();
        bb.set(root, "n", s("2x")).ok();
        assert_eq!(bb.get(root, "n"), Some(&Value::Int(2)));
        bb.set(root, "n", s("1.7")).ok();
        assert_eq!(bb.get(root, "n"), Some(&Value::Int(1)));
        assert!(bb.set(root, "n", Value::Double(2.5)).is_err());
        assert!(bb.set(root, "n", Value::Double(4.0)).is_ok());
        assert_eq!(bb.get(root, "n"), Some(&Value::Int(4)));
        // A missing key takes the value's type; a string makes an untyped entry.
        bb.set(root, "d", Value::Double(0.5)).ok();
        let d = bb.resolve(root, "d", false);
        assert_eq!(d.and_then(|d| bb.slot_type(d)), Some(EntryType::Double));
        bb.set(root, "t", s("hi")).ok();
        let t = bb.resolve(root, "t", false);
        assert_eq!(t.and_then(|t| bb.slot_type(t)), Some(EntryType::Any));
        // Port writes are strict: 2 into a bool entry is refused.
        bb.create(root, "b", EntryType::Bool).ok();
        assert!(bb.set(root, "b", Value::Int(2)).is_err());
        assert!(bb.set(root, "b", s("true")).is_ok());
        assert_eq!(bb.get(root, "b"), Some(&Value::Bool(true)));
        assert!(bb.create(root, "b", EntryType::Int).is_err());
    }

    #[test]
    fn assign_converts_to_the_entry_representation() {
        let mut bb = Blackboards::new();
        let root = bb.new_root();
        let b = bb
            .create(root, "b", EntryType::Bool)
            .unwrap_or(EntrySlot(0));
        assert_eq!(
            bb.assign_slot(b, &Value::Int(2)).cloned(),
            Ok(Value::Int(2))
        );
        assert!(bb.get_slot(b).is_some_and(|v| v.as_bool().is_err()));
        let n = bb.create(root, "n", EntryType::Int).unwrap_or(EntrySlot(0));
        assert_eq!(
            bb.assign_slot(n, &Value::Double(3.0)).cloned(),
            Ok(Value::Int(3))
        );
        assert!(bb.assign_slot(n, &Value::Double(3.5)).is_err());
        assert_eq!(bb.assign_slot(n, &s("2x")).cloned(), Ok(Value::Int(2)));
        let a = bb.resolve(root, "a", true).unwrap_or(EntrySlot(0));
        assert_eq!(
            bb.assign_slot(a, &Value::Int(5)).cloned(),
            Ok(Value::Int(5))
        );
        assert_eq!(
            bb.assign_slot(a, &Value::Double(6.0)).cloned(),
            Ok(Value::Int(6))
        );
        assert_eq!(
            bb.assign_slot(a, &s("7.5")).cloned(),
            Ok(Value::Double(7.5))
        );
        let b2 = bb
            .create(root, "b2", EntryType::Bool)
            .unwrap_or(EntrySlot(0));
        assert_eq!(
            bb.assign_slot(b2, &s("true")).cloned(),
            Ok(Value::Bool(true))
        );
        assert!(bb.assign_slot(b2, &s("2")).is_err());
        let st = bb.create(root, "s", EntryType::Str).unwrap_or(EntrySlot(0));
        assert!(bb.assign_slot(st, &Value::Int(1)).is_err());
        assert_eq!(bb.assign_slot(st, &s("ok")).cloned(), Ok(s("ok")));
    }

    #[test]
    fn string_writes_reuse_the_buffer() {
        let mut bb = Blackboards::new();
        let root = bb.new_root();
        let slot = bb.reserve(root, "name").unwrap_or(EntrySlot(0));
        bb.set_slot(slot, Value::Str(String::with_capacity(32)))
            .ok();
        let before = match bb.get_slot(slot) {
            Some(Value::Str(s)) => s.as_ptr(),
            _ => std::ptr::null(),
        };
        bb.set_slot_str(slot, "robot_1").ok();
        bb.assign_slot(slot, &s("robot_2")).ok();
        match bb.get_slot(slot) {
            Some(Value::Str(s)) => {
                assert_eq!(s, "robot_2");
                assert_eq!(s.as_ptr(), before);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn scopes_remap_autoremap_root_and_unset() {
        let mut bb = Blackboards::new();
        let root = bb.new_root();
        bb.set(root, "pose", Value::Int(1)).ok();
        bb.set(root, "shared", Value::Int(10)).ok();
        let sub = bb.new_child(
            root,
            [
                ("target".to_owned(), Remap::Parent("pose".to_owned())),
                ("speed".to_owned(), Remap::Literal("3".to_owned())),
            ],
            false,
        );
        // Remap to the parent key.
        assert_eq!(bb.get(sub, "target"), Some(&Value::Int(1)));
        bb.set(sub, "target", Value::Int(7)).ok();
        assert_eq!(bb.get(root, "pose"), Some(&Value::Int(7)));
        // A literal remap is a local entry; an integer text is an int (BT.CPP 4.10).
        assert_eq!(bb.get(sub, "speed"), Some(&Value::Int(3)));
        assert!(!bb.contains(root, "speed"));
        // No autoremap: parent keys are invisible, new keys are local.
        assert!(!bb.contains(sub, "shared"));
        bb.set(sub, "local", Value::Int(2)).ok();
        assert!(!bb.contains(root, "local"));
        // `@key` is the root's key from anywhere.
        assert_eq!(bb.get(sub, "@shared"), Some(&Value::Int(10)));
        bb.set(sub, "@made", Value::Int(4)).ok();
        assert_eq!(bb.get(root, "made"), Some(&Value::Int(4)));
        assert!(bb.reserve(sub, "@a@b").is_none());
        // Autoremap: lookups and creation go to the parent, except `_private` keys.
        let auto = bb.new_child(sub, [], true);
        assert_eq!(bb.get(auto, "local"), Some(&Value::Int(2)));
        assert_eq!(bb.get(auto, "target"), Some(&Value::Int(7)));
        bb.set(auto, "fresh", Value::Int(5)).ok();
        assert_eq!(bb.get(sub, "fresh"), Some(&Value::Int(5)));
        bb.set(auto, "_mine", Value::Int(6)).ok();
        assert!(!bb.contains(sub, "_mine"));
        assert!(bb.contains(auto, "_mine"));
        // Unset only touches the scope's own storage.
        assert!(!bb.unset(auto, "fresh"));
        assert!(bb.unset(sub, "fresh"));
        assert!(!bb.contains(auto, "fresh"));
        assert!(!bb.unset(sub, "fresh"));
    }

    #[test]
    fn slots_are_stable_across_scopes_and_unset() {
        let mut bb = Blackboards::new();
        let root = bb.new_root();
        let sub = bb.new_child(
            root,
            [("goal".to_owned(), Remap::Parent("target".to_owned()))],
            false,
        );
        // Pre-resolve before the entry exists.
        let child_slot = bb.reserve(sub, "goal").unwrap_or(EntrySlot(u32::MAX));
        assert_eq!(bb.resolve(sub, "goal", false), None);
        assert_eq!(bb.get_slot(child_slot), None);
        bb.set(root, "target", Value::Double(1.5)).ok();
        assert_eq!(bb.get_slot(child_slot), Some(&Value::Double(1.5)));
        assert_eq!(bb.resolve(sub, "goal", false), Some(child_slot));
        assert_eq!(bb.resolve(root, "target", false), Some(child_slot));
        assert!(bb.unset(root, "target"));
        assert_eq!(bb.get_slot(child_slot), None);
        bb.set(root, "target", Value::Int(9)).ok();
        assert_eq!(bb.get_slot(child_slot), Some(&Value::Int(9)));
    }

    #[test]
    fn every_successful_write_counts() {
        let mut bb = Blackboards::new();
        let root = bb.new_root();
        let slot = bb.reserve(root, "n").unwrap_or(EntrySlot(u32::MAX));
        assert_eq!(bb.slot_writes(slot), None);
        // Declared without a value: the entry exists with no write yet.
        bb.create_slot(slot, EntryType::Int).ok();
        assert_eq!(bb.slot_writes(slot), Some(0));
        bb.set_slot(slot, Value::Int(1)).ok();
        bb.set_slot(slot, Value::Int(1)).ok();
        assert_eq!(bb.slot_writes(slot), Some(2));
        // A refused write does not count.
        assert!(bb.set_slot(slot, s("x")).is_err());
        assert_eq!(bb.slot_writes(slot), Some(2));
        bb.assign_slot(slot, &Value::Int(1)).ok();
        assert_eq!(bb.slot_writes(slot), Some(3));
        let text = bb.reserve(root, "t").unwrap_or(EntrySlot(u32::MAX));
        bb.set_slot_str(text, "a").ok();
        bb.set_slot_str(text, "a").ok();
        bb.assign_slot(text, &s("a")).ok();
        assert_eq!(bb.slot_writes(text), Some(3));
        // Unset forgets the count, as BT.CPP drops the entry.
        assert!(bb.unset(root, "n"));
        assert_eq!(bb.slot_writes(slot), None);
        bb.set_slot(slot, Value::Int(5)).ok();
        assert_eq!(bb.slot_writes(slot), Some(1));
        // A literal subtree parameter is written once.
        let sub = bb.new_child(root, [("p".to_owned(), Remap::Literal("v".into()))], false);
        let p = bb.resolve(sub, "p", false).unwrap_or(EntrySlot(u32::MAX));
        assert_eq!(bb.slot_writes(p), Some(1));
    }
}

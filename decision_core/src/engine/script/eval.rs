//! Evaluation of a parsed script against pre-resolved blackboard slots.
//!
//! Numbers flow as [`Value::Int`] (literals), [`Value::Double`] (every arithmetic, comparison
//! and logic result) or [`Value::Bool`] (bool entries); evaluating numeric code builds no
//! `String`s. Errors carry the byte offset of the operator or operand that failed.

use super::ScriptError;
use super::parser::{AssignOp, BinOp, CmpOp, Node, Program, UnOp};
use crate::engine::blackboard::{
    Blackboards, EntrySlot, EntryType, Value, script_string_to_double,
};

/// f32 epsilon: numbers closer than this are `==` (BT.CPP compares doubles this way).
pub(super) const EQ_EPS: f64 = f32::EPSILON as f64;

fn truth(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Int(0) => Ok(false),
        Value::Int(1) => Ok(true),
        Value::Int(i) => Err(format!("the int {i} can't be used as a bool (only 0 or 1)")),
        Value::Double(d) => Ok(*d != 0.0),
        Value::Str(_) => Err("a string can't be used as a bool".to_owned()),
    }
}

/// The script result as a condition: ints must be 0/1, doubles are true when non-zero.
pub(crate) fn condition(v: &Value) -> Result<bool, ScriptError> {
    truth(v).map_err(|m| ScriptError::new(0, m))
}

fn as_f64(v: &Value) -> Result<f64, String> {
    v.as_double().map_err(|e| e.message)
}

#[inline(always)]
pub(super) fn cmp_holds<T: PartialOrd>(
    op: CmpOp,
    l: &T,
    r: &T,
    eq: impl Fn(&T, &T) -> bool,
) -> bool {
    match op {
        CmpOp::Eq => eq(l, r),
        CmpOp::Ne => !eq(l, r),
        CmpOp::Lt => l < r,
        CmpOp::Le => l <= r,
        CmpOp::Gt => l > r,
        CmpOp::Ge => l >= r,
    }
}

fn compare(op: CmpOp, l: &Value, r: &Value) -> Result<bool, String> {
    let num_eq = |a: &f64, b: &f64| (a - b).abs() <= EQ_EPS;
    let str_num = |s: &str| script_string_to_double(s).map_err(|e| e.message);
    match (l, r) {
        (Value::Str(a), Value::Str(b)) => {
            Ok(cmp_holds(op, &a.as_bytes(), &b.as_bytes(), |x, y| x == y))
        }
        (Value::Str(a), b) => Ok(cmp_holds(op, &str_num(a)?, &as_f64(b)?, num_eq)),
        (a, Value::Str(b)) => Ok(cmp_holds(op, &as_f64(a)?, &str_num(b)?, num_eq)),
        (a, b) => Ok(cmp_holds(op, &as_f64(a)?, &as_f64(b)?, num_eq)),
    }
}

fn binary(op: BinOp, l: Value, r: Value) -> Result<Value, String> {
    if l.is_number() && r.is_number() {
        let int = |v: &Value| {
            v.as_int()
                .map_err(|_| "bitwise operators need integer operands".to_owned())
        };
        return Ok(Value::Double(match op {
            BinOp::Add => as_f64(&l)? + as_f64(&r)?,
            BinOp::Sub => as_f64(&l)? - as_f64(&r)?,
            BinOp::Mul => as_f64(&l)? * as_f64(&r)?,
            BinOp::Div => as_f64(&l)? / as_f64(&r)?,
            BinOp::BitAnd => (int(&l)? & int(&r)?) as f64,
            BinOp::BitOr => (int(&l)? | int(&r)?) as f64,
            BinOp::BitXor => (int(&l)? ^ int(&r)?) as f64,
            BinOp::And => f64::from(u8::from(truth(&l)? & truth(&r)?)),
            BinOp::Or => f64::from(u8::from(truth(&l)? | truth(&r)?)),
            BinOp::Concat => {
                return Err("operator [..] needs at least one string operand".to_owned());
            }
        }));
    }
    match (op, l, r) {
        (BinOp::Add, Value::Str(mut a), Value::Str(b)) => {
            a.push_str(&b);
            Ok(Value::Str(a))
        }
        (BinOp::Concat, l, r) => {
            let mut out = String::new();
            l.write_string_into(&mut out);
            r.write_string_into(&mut out);
            Ok(Value::Str(out))
        }
        (op, l, r) => Err(format!(
            "operation not permitted: {} {op:?} {}",
            l.type_name(),
            r.type_name()
        )),
    }
}

fn unary(op: UnOp, v: &Value) -> Result<Value, String> {
    if let Value::Str(_) = v {
        return Err("invalid operator for a string".to_owned());
    }
    let x = as_f64(v)?;
    Ok(Value::Double(match op {
        UnOp::Neg => -x,
        UnOp::Not => f64::from(u8::from(x == 0.0)),
        UnOp::Complement => {
            if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&x) {
                return Err("number out of range for a bitwise operation".to_owned());
            }
            // Truncation towards zero, as BT.CPP's static_cast does.
            !(x as i64) as f64
        }
    }))
}

#[cfg(test)]
thread_local! {
    /// Set while [`Program::run_general`] runs: the fast path is off.
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the fast path may be tried (always, except under [`Program::run_general`]).
#[inline(always)]
fn fast_allowed() -> bool {
    #[cfg(test)]
    return !GENERAL_ONLY.with(std::cell::Cell::get);
    #[cfg(not(test))]
    true
}

impl Program {
    /// Runs every statement; the script's value is the last statement's value.
    pub(crate) fn run(
        &self,
        slots: &[EntrySlot],
        bbs: &mut Blackboards,
    ) -> Result<Value, ScriptError> {
        let Some((&last, init)) = self.statements.split_last() else {
            return Ok(Value::Bool(false));
        };
        for &stmt in init {
            self.eval(stmt, slots, bbs)?;
        }
        if self.gives_double(last)
            && fast_allowed()
            && let Some(x) = self.fast_num(last, slots, bbs)
        {
            return Ok(Value::Double(x));
        }
        self.eval(last, slots, bbs)
    }

    /// [`Program::run`] followed by [`condition`], without building the last value when the
    /// fast path can decide it.
    pub(crate) fn run_bool(
        &self,
        slots: &[EntrySlot],
        bbs: &mut Blackboards,
    ) -> Result<bool, ScriptError> {
        if let Some(b) = self.quick_bool(slots, bbs) {
            return Ok(b);
        }
        self.run_bool_slow(slots, bbs)
    }

    /// [`Program::run_bool`] by the fast path alone, for a one-statement condition (the usual
    /// guard); `None` when only the general evaluator can decide (it then gives the result or
    /// the error). Reads the blackboard without changing it.
    #[inline(always)]
    pub(crate) fn quick_bool(&self, slots: &[EntrySlot], bbs: &Blackboards) -> Option<bool> {
        match self.statements[..] {
            [only] => self.operand_truth(only, slots, bbs),
            _ => None,
        }
    }

    #[cold]
    #[inline(never)]
    fn run_bool_slow(
        &self,
        slots: &[EntrySlot],
        bbs: &mut Blackboards,
    ) -> Result<bool, ScriptError> {
        let Some((&last, init)) = self.statements.split_last() else {
            return condition(&Value::Bool(false));
        };
        for &stmt in init {
            self.eval(stmt, slots, bbs)?;
        }
        // A lone statement has been tried already.
        if !init.is_empty()
            && let Some(b) = self.fast_truth(last, slots, bbs)
        {
            return Ok(b);
        }
        condition(&self.eval(last, slots, bbs)?)
    }

    /// [`Program::run`] by the general evaluator only (tests compare it with the fast path).
    #[cfg(test)]
    pub(crate) fn run_general(
        &self,
        slots: &[EntrySlot],
        bbs: &mut Blackboards,
    ) -> Result<Value, ScriptError> {
        GENERAL_ONLY.with(|g| g.set(true));
        let result = self.run(slots, bbs);
        GENERAL_ONLY.with(|g| g.set(false));
        result
    }

    fn err(&self, id: u32, message: impl Into<String>) -> ScriptError {
        ScriptError::new(self.offsets.get(id as usize).copied().unwrap_or(0), message)
    }

    fn slot(&self, key: u32, id: u32, slots: &[EntrySlot]) -> Result<EntrySlot, ScriptError> {
        slots
            .get(key as usize)
            .copied()
            .ok_or_else(|| self.err(id, "script is not bound to a blackboard"))
    }

    fn key(&self, key: u32) -> &str {
        self.keys.get(key as usize).map_or("", String::as_str)
    }

    fn eval(
        &self,
        id: u32,
        slots: &[EntrySlot],
        bbs: &mut Blackboards,
    ) -> Result<Value, ScriptError> {
        let Some(node) = self.nodes.get(id as usize) else {
            return Err(self.err(id, "corrupt script"));
        };
        match node {
            Node::Lit(v) => Ok(v.clone()),
            Node::Name(k) => {
                let slot = self.slot(*k, id, slots)?;
                if !bbs.slot_present(slot) {
                    return Err(self.err(id, format!("variable not found: {}", self.key(*k))));
                }
                bbs.get_slot(slot).cloned().ok_or_else(|| {
                    self.err(
                        id,
                        format!("the entry [{}] is not initialized", self.key(*k)),
                    )
                })
            }
            Node::Unary(op, e) => {
                let v = self.eval(*e, slots, bbs)?;
                unary(*op, &v).map_err(|m| self.err(id, m))
            }
            Node::Binary(op, a, b) => {
                // Both sides always run, `&&` and `||` included.
                let l = self.eval(*a, slots, bbs)?;
                let r = self.eval(*b, slots, bbs)?;
                binary(*op, l, r).map_err(|m| self.err(id, m))
            }
            Node::Compare(first, links) => {
                let mut l = self.eval(*first, slots, bbs)?;
                for (op, e) in links {
                    let r = self.eval(*e, slots, bbs)?;
                    if !compare(*op, &l, &r).map_err(|m| self.err(id, m))? {
                        return Ok(Value::Double(0.0));
                    }
                    l = r;
                }
                Ok(Value::Double(1.0))
            }
            Node::Ternary(c, t, e) => {
                let cond = match self.eval(*c, slots, bbs)? {
                    Value::Str(s) if !s.is_empty() => true,
                    v => as_f64(&v).map_err(|m| self.err(id, m))? != 0.0,
                };
                self.eval(if cond { *t } else { *e }, slots, bbs)
            }
            Node::Assign(op, target, rhs) => self.assign(id, *op, *target, *rhs, slots, bbs),
        }
    }

    fn assign(
        &self,
        id: u32,
        op: AssignOp,
        target: u32,
        rhs: u32,
        slots: &[EntrySlot],
        bbs: &mut Blackboards,
    ) -> Result<Value, ScriptError> {
        let Some(Node::Name(k)) = self.nodes.get(target as usize) else {
            return Err(self.err(
                id,
                "the left operand of an assignment is not a blackboard entry",
            ));
        };
        let key = self.key(*k);
        let slot = self.slot(*k, id, slots)?;
        if !bbs.slot_present(slot) {
            if op != AssignOp::Create {
                return Err(self.err(
                    id,
                    format!(
                        "the blackboard entry [{key}] doesn't exist yet; use [:=] to create it"
                    ),
                ));
            }
            // Created before the right side runs, as in BT.CPP.
            bbs.create_slot(slot, EntryType::Any)
                .map_err(|e| self.err(id, e.message))?;
        }
        // The entry exists now: the right side may read it.
        let value = if self.gives_double(rhs)
            && fast_allowed()
            && let Some(x) = self.fast_num(rhs, slots, bbs)
        {
            Value::Double(x)
        } else {
            self.eval(rhs, slots, bbs)?
        };
        let to_write = match op {
            AssignOp::Create | AssignOp::Existing => value,
            _ => {
                let Some(current) = bbs.get_slot(slot) else {
                    return Err(self.err(id, format!("the entry [{key}] is not initialized")));
                };
                match (&value, current) {
                    (Value::Str(_), _) if op != AssignOp::Add => {
                        return Err(self.err(id, "operator not supported for strings"));
                    }
                    (Value::Str(s), Value::Str(c)) => {
                        let mut joined = String::with_capacity(c.len() + s.len());
                        joined.push_str(c);
                        joined.push_str(s);
                        Value::Str(joined)
                    }
                    (Value::Str(_), c) => {
                        return Err(self.err(
                            id,
                            format!(
                                "can't append a string to the {} entry [{key}]",
                                c.type_name()
                            ),
                        ));
                    }
                    (_, Value::Str(_)) => {
                        return Err(self.err(
                            id,
                            format!("operator can't be used with the string entry [{key}]"),
                        ));
                    }
                    (v, c) => {
                        let l = as_f64(c).map_err(|m| self.err(id, m))?;
                        let r = as_f64(v).map_err(|m| self.err(id, m))?;
                        Value::Double(match op {
                            AssignOp::Add => l + r,
                            AssignOp::Sub => l - r,
                            AssignOp::Mul => l * r,
                            _ => l / r,
                        })
                    }
                }
            }
        };
        bbs.assign_slot(slot, &to_write)
            .cloned()
            .map_err(|e| self.err(id, e.message))
    }
}

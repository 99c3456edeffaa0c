//! The optimistic fast path of script evaluation.
//!
//! It reads the blackboard without changing it, borrows every string (literals from the
//! program, entries from the blackboard) and computes numbers as plain `f64`s, building no
//! [`Value`]s. It answers `None` as soon as anything is off the common path: an assignment, a
//! missing or valueless entry, a conversion that could fail, a string where the general
//! evaluator would build one, `..` or a bitwise operator. As it has no side effects, the caller
//! then simply runs the general evaluator on the same statement, which gives the exact result
//! or error. So `Some` is only returned where the general evaluator returns `Ok` with the same
//! number (or condition), and every error still comes from the general evaluator.

use super::eval::{EQ_EPS, cmp_holds};
use super::parser::{BinOp, CmpOp, Node, Program, UnOp};
use crate::engine::blackboard::{Blackboards, EntrySlot, Value, script_string_to_double};

/// Largest integer magnitude a double holds exactly: bigger ints fail `Value::as_double`.
const MAX_EXACT_INT: u64 = (1 << 53) - 1;

/// A value as the fast path sees it: a number as `Value::as_double` reads it, or a string.
#[derive(Clone, Copy)]
pub(crate) enum Fast<'a> {
    Num(f64),
    Str(&'a str),
}

/// `v` as `Value::as_double` reads a number; a string stays a string.
fn of_value(v: &Value) -> Option<Fast<'_>> {
    Some(match v {
        Value::Int(i) if i.unsigned_abs() <= MAX_EXACT_INT => Fast::Num(*i as f64),
        Value::Int(_) => return None,
        Value::Double(d) => Fast::Num(*d),
        Value::Bool(b) => Fast::Num(f64::from(u8::from(*b))),
        Value::Str(s) => Fast::Str(s),
    })
}

/// `v` as a condition (ints only 0 or 1, doubles non-zero); `None` where that is an error.
fn truth_of(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Int(0) => Some(false),
        Value::Int(1) => Some(true),
        Value::Double(d) => Some(*d != 0.0),
        Value::Int(_) | Value::Str(_) => None,
    }
}

/// The comparison as the general evaluator does it; `None` for a string that is no number.
fn compare(op: CmpOp, l: Fast<'_>, r: Fast<'_>) -> Option<bool> {
    let num_eq = |a: &f64, b: &f64| (a - b).abs() <= EQ_EPS;
    let str_num = |s: &str| script_string_to_double(s).ok();
    Some(match (l, r) {
        (Fast::Str(a), Fast::Str(b)) => cmp_holds(op, &a.as_bytes(), &b.as_bytes(), |x, y| x == y),
        (Fast::Str(a), Fast::Num(b)) => cmp_holds(op, &str_num(a)?, &b, num_eq),
        (Fast::Num(a), Fast::Str(b)) => cmp_holds(op, &a, &str_num(b)?, num_eq),
        (Fast::Num(a), Fast::Num(b)) => cmp_holds(op, &a, &b, num_eq),
    })
}

impl Program {
    /// The entry a name node reads, borrowed; `None` if unbound, missing or valueless.
    fn read<'a>(&self, key: u32, slots: &[EntrySlot], bbs: &'a Blackboards) -> Option<&'a Value> {
        bbs.get_slot(*slots.get(key as usize)?)
    }

    /// [`Program::fast_value`] with literals and names, the usual operands, read in place.
    #[inline(always)]
    fn operand<'a>(
        &'a self,
        id: u32,
        slots: &[EntrySlot],
        bbs: &'a Blackboards,
    ) -> Option<Fast<'a>> {
        match self.nodes.get(id as usize)? {
            Node::Lit(v) => of_value(v),
            Node::Name(k) => of_value(self.read(*k, slots, bbs)?),
            _ => self.fast_value(id, slots, bbs),
        }
    }

    /// [`Program::operand`] as a number.
    #[inline(always)]
    fn operand_num(&self, id: u32, slots: &[EntrySlot], bbs: &Blackboards) -> Option<f64> {
        match self.operand(id, slots, bbs)? {
            Fast::Num(x) => Some(x),
            Fast::Str(_) => None,
        }
    }

    /// Whether the chain `first op1 e1 op2 e2 ...` holds; later links do not run once one
    /// fails.
    #[inline(always)]
    fn fast_chain(
        &self,
        first: u32,
        links: &[(CmpOp, u32)],
        slots: &[EntrySlot],
        bbs: &Blackboards,
    ) -> Option<bool> {
        let mut l = self.operand(first, slots, bbs)?;
        for (op, e) in links {
            let r = self.operand(*e, slots, bbs)?;
            if !compare(*op, l, r)? {
                return Some(false);
            }
            l = r;
        }
        Some(true)
    }

    /// The value of node `id`, if the general evaluator would compute it without error.
    pub(crate) fn fast_value<'a>(
        &'a self,
        id: u32,
        slots: &[EntrySlot],
        bbs: &'a Blackboards,
    ) -> Option<Fast<'a>> {
        match self.nodes.get(id as usize)? {
            Node::Lit(v) => of_value(v),
            Node::Name(k) => of_value(self.read(*k, slots, bbs)?),
            Node::Unary(op, e) => {
                let x = self.operand_num(*e, slots, bbs)?;
                Some(Fast::Num(match op {
                    UnOp::Neg => -x,
                    UnOp::Not => f64::from(u8::from(x == 0.0)),
                    UnOp::Complement => return None,
                }))
            }
            Node::Binary(op, a, b) => {
                let x = match op {
                    BinOp::And | BinOp::Or => {
                        // Both sides, left first, as the general evaluator.
                        let l = self.fast_truth(*a, slots, bbs)?;
                        let r = self.fast_truth(*b, slots, bbs)?;
                        f64::from(u8::from(if *op == BinOp::And { l & r } else { l | r }))
                    }
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                        let l = self.operand_num(*a, slots, bbs)?;
                        let r = self.operand_num(*b, slots, bbs)?;
                        match op {
                            BinOp::Add => l + r,
                            BinOp::Sub => l - r,
                            BinOp::Mul => l * r,
                            _ => l / r,
                        }
                    }
                    _ => return None,
                };
                Some(Fast::Num(x))
            }
            Node::Compare(first, links) => {
                let holds = self.fast_chain(*first, links, slots, bbs)?;
                Some(Fast::Num(f64::from(u8::from(holds))))
            }
            Node::Ternary(c, t, e) => {
                let branch = if self.fast_cond(*c, slots, bbs)? {
                    t
                } else {
                    e
                };
                self.operand(*branch, slots, bbs)
            }
            Node::Assign(..) => None,
        }
    }

    /// The number node `id` gives (a non-string value, read as a double).
    pub(crate) fn fast_num(&self, id: u32, slots: &[EntrySlot], bbs: &Blackboards) -> Option<f64> {
        match self.fast_value(id, slots, bbs)? {
            Fast::Num(x) => Some(x),
            Fast::Str(_) => None,
        }
    }

    /// Node `id`'s value as a condition (`truth` of the general evaluator).
    pub(crate) fn fast_truth(
        &self,
        id: u32,
        slots: &[EntrySlot],
        bbs: &Blackboards,
    ) -> Option<bool> {
        match self.nodes.get(id as usize)? {
            // Literals and entries keep their int / bool / double kind.
            Node::Lit(v) => truth_of(v),
            Node::Name(k) => truth_of(self.read(*k, slots, bbs)?),
            Node::Ternary(c, t, e) => {
                let branch = if self.fast_cond(*c, slots, bbs)? {
                    t
                } else {
                    e
                };
                self.fast_truth(*branch, slots, bbs)
            }
            Node::Assign(..) => None,
            Node::Compare(first, links) => self.fast_chain(*first, links, slots, bbs),
            // Operators give doubles.
            Node::Unary(..) | Node::Binary(..) => self.fast_num(id, slots, bbs).map(|x| x != 0.0),
        }
    }

    /// A ternary's condition: a non-empty string is true, else the number is non-zero.
    fn fast_cond(&self, id: u32, slots: &[EntrySlot], bbs: &Blackboards) -> Option<bool> {
        match self.operand(id, slots, bbs)? {
            Fast::Str(s) if !s.is_empty() => Some(true),
            Fast::Str(_) => None,
            Fast::Num(x) => Some(x != 0.0),
        }
    }

    /// True if node `id` always evaluates to a double (an operator), so the fast path's
    /// number is its whole value.
    pub(crate) fn gives_double(&self, id: u32) -> bool {
        matches!(
            self.nodes.get(id as usize),
            Some(Node::Unary(..) | Node::Binary(..) | Node::Compare(..))
        )
    }
}

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

/// A node as the fast path runs it: small, `Copy`, its literals already numbers. Children are
/// node ids, as in [`Node`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum FNode {
    /// A double or bool literal.
    Num(f64),
    /// An int literal a double holds exactly; as a condition only 0 and 1 are allowed.
    Int(f64),
    /// A string literal (the `Node::Lit` of the same id holds it).
    Str,
    /// A blackboard key: index into the key table.
    Name(u32),
    Neg(u32),
    Not(u32),
    Add(u32, u32),
    Sub(u32, u32),
    Mul(u32, u32),
    Div(u32, u32),
    And(u32, u32),
    Or(u32, u32),
    /// A comparison with one link.
    Cmp(CmpOp, u32, u32),
    /// A comparison with one link of a key (index into the key table) with a number literal.
    CmpKeyNum(CmpOp, u32, f64),
    /// A longer comparison chain (the `Node::Compare` of the same id holds it).
    Chain,
    Ternary(u32, u32, u32),
    /// Never taken by the fast path: an assignment, `..`, a bitwise operator, an int literal
    /// beyond 2^53.
    Bail,
}

/// The fast path's form of every node of `nodes`.
pub(crate) fn plan(nodes: &[Node]) -> Vec<FNode> {
    nodes
        .iter()
        .map(|node| match node {
            Node::Lit(Value::Int(i)) if i.unsigned_abs() <= MAX_EXACT_INT => FNode::Int(*i as f64),
            Node::Lit(Value::Int(_)) => FNode::Bail,
            Node::Lit(Value::Double(d)) => FNode::Num(*d),
            Node::Lit(Value::Bool(b)) => FNode::Num(f64::from(u8::from(*b))),
            Node::Lit(Value::Str(_)) => FNode::Str,
            Node::Name(k) => FNode::Name(*k),
            Node::Unary(UnOp::Neg, e) => FNode::Neg(*e),
            Node::Unary(UnOp::Not, e) => FNode::Not(*e),
            Node::Unary(UnOp::Complement, _) => FNode::Bail,
            Node::Binary(op, a, b) => match op {
                BinOp::Add => FNode::Add(*a, *b),
                BinOp::Sub => FNode::Sub(*a, *b),
                BinOp::Mul => FNode::Mul(*a, *b),
                BinOp::Div => FNode::Div(*a, *b),
                BinOp::And => FNode::And(*a, *b),
                BinOp::Or => FNode::Or(*a, *b),
                BinOp::Concat | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => FNode::Bail,
            },
            Node::Compare(first, links) => match links[..] {
                [(op, second)] => match (nodes.get(*first as usize), nodes.get(second as usize)) {
                    (Some(Node::Name(k)), Some(Node::Lit(v))) if v.is_number() => {
                        match of_value(v) {
                            Some(Fast::Num(x)) => FNode::CmpKeyNum(op, *k, x),
                            _ => FNode::Cmp(op, *first, second),
                        }
                    }
                    _ => FNode::Cmp(op, *first, second),
                },
                _ => FNode::Chain,
            },
            Node::Ternary(c, t, e) => FNode::Ternary(*c, *t, *e),
            Node::Assign(..) => FNode::Bail,
        })
        .collect()
}

/// A bound one-statement condition `key op number` (the usual guard, `state == 3`): the
/// entry's slot and the number at hand, so that [`Guard::holds`] reads the entry without
/// walking the program. It decides as [`Program::quick_bool`] does on the same script.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Guard {
    op: CmpOp,
    slot: EntrySlot,
    x: f64,
}

impl Guard {
    /// The guard `program` is once bound to `slots`, if it is one.
    pub(crate) fn of(program: &Program, slots: &[EntrySlot]) -> Option<Guard> {
        let [only] = program.statements[..] else {
            return None;
        };
        let FNode::CmpKeyNum(op, key, x) = *program.fast.get(only as usize)? else {
            return None;
        };
        let slot = *slots.get(key as usize)?;
        Some(Guard { op, slot, x })
    }

    /// Whether the guard holds; `None` where the general evaluator must decide.
    #[inline(always)]
    pub(crate) fn holds(self, bbs: &Blackboards) -> Option<bool> {
        let l = match bbs.get_slot(self.slot)? {
            // The usual entry first, read as `of_value` reads it.
            &Value::Int(i) if i.unsigned_abs() <= MAX_EXACT_INT => Fast::Num(i as f64),
            v => of_value(v)?,
        };
        compare(self.op, l, Fast::Num(self.x))
    }
}

/// A value as the fast path sees it: a number as `Value::as_double` reads it, or a string.
#[derive(Clone, Copy)]
pub(crate) enum Fast<'a> {
    Num(f64),
    Str(&'a str),
}

/// `v` as `Value::as_double` reads a number; a string stays a string.
#[inline(always)]
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
#[inline(always)]
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
#[inline(always)]
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
    #[inline(always)]
    fn read<'a>(&self, key: u32, slots: &[EntrySlot], bbs: &'a Blackboards) -> Option<&'a Value> {
        bbs.get_slot(*slots.get(key as usize)?)
    }

    /// The string of literal node `id`.
    fn lit_str(&self, id: u32) -> Option<Fast<'_>> {
        match self.nodes.get(id as usize)? {
            Node::Lit(Value::Str(s)) => Some(Fast::Str(s)),
            _ => None,
        }
    }

    /// [`Program::fast_value`] with literals and names, the usual operands, read in place.
    #[inline(always)]
    fn operand<'a>(
        &'a self,
        id: u32,
        slots: &[EntrySlot],
        bbs: &'a Blackboards,
    ) -> Option<Fast<'a>> {
        match *self.fast.get(id as usize)? {
            FNode::Num(x) | FNode::Int(x) => Some(Fast::Num(x)),
            FNode::Name(k) => of_value(self.read(k, slots, bbs)?),
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

    /// [`Program::fast_truth`] with literals, names and a key compared with a number (the
    /// usual guard) done in place.
    #[inline(always)]
    pub(crate) fn operand_truth(
        &self,
        id: u32,
        slots: &[EntrySlot],
        bbs: &Blackboards,
    ) -> Option<bool> {
        match *self.fast.get(id as usize)? {
            FNode::Num(x) => Some(x != 0.0),
            FNode::Name(k) => truth_of(self.read(k, slots, bbs)?),
            FNode::CmpKeyNum(op, k, x) => self.fast_key_num(op, k, x, slots, bbs),
            _ => self.fast_truth(id, slots, bbs),
        }
    }

    /// Whether `key op x` holds.
    #[inline(always)]
    fn fast_key_num(
        &self,
        op: CmpOp,
        key: u32,
        x: f64,
        slots: &[EntrySlot],
        bbs: &Blackboards,
    ) -> Option<bool> {
        let l = of_value(self.read(key, slots, bbs)?)?;
        compare(op, l, Fast::Num(x))
    }

    /// Whether the comparison `a op b` holds.
    #[inline(always)]
    fn fast_cmp(
        &self,
        op: CmpOp,
        a: u32,
        b: u32,
        slots: &[EntrySlot],
        bbs: &Blackboards,
    ) -> Option<bool> {
        let l = self.operand(a, slots, bbs)?;
        let r = self.operand(b, slots, bbs)?;
        compare(op, l, r)
    }

    /// Whether the chain of comparison node `id` holds; later links do not run once one
    /// fails.
    fn fast_chain(&self, id: u32, slots: &[EntrySlot], bbs: &Blackboards) -> Option<bool> {
        let Node::Compare(first, links) = self.nodes.get(id as usize)? else {
            return None;
        };
        let mut l = self.operand(*first, slots, bbs)?;
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
        let num = |x: f64| Some(Fast::Num(x));
        let flag = |b: bool| Some(Fast::Num(f64::from(u8::from(b))));
        // Both sides of a binary operator run, left first, as in the general evaluator.
        let arith = |a: u32, b: u32, f: fn(f64, f64) -> f64| {
            let l = self.operand_num(a, slots, bbs)?;
            let r = self.operand_num(b, slots, bbs)?;
            num(f(l, r))
        };
        match *self.fast.get(id as usize)? {
            FNode::Num(x) | FNode::Int(x) => num(x),
            FNode::Str => self.lit_str(id),
            FNode::Name(k) => of_value(self.read(k, slots, bbs)?),
            FNode::Neg(e) => num(-self.operand_num(e, slots, bbs)?),
            FNode::Not(e) => flag(self.operand_num(e, slots, bbs)? == 0.0),
            FNode::Add(a, b) => arith(a, b, |l, r| l + r),
            FNode::Sub(a, b) => arith(a, b, |l, r| l - r),
            FNode::Mul(a, b) => arith(a, b, |l, r| l * r),
            FNode::Div(a, b) => arith(a, b, |l, r| l / r),
            FNode::And(..)
            | FNode::Or(..)
            | FNode::Cmp(..)
            | FNode::CmpKeyNum(..)
            | FNode::Chain => flag(self.fast_truth(id, slots, bbs)?),
            FNode::Ternary(c, t, e) => {
                let branch = if self.fast_cond(c, slots, bbs)? { t } else { e };
                self.operand(branch, slots, bbs)
            }
            FNode::Bail => None,
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
        match *self.fast.get(id as usize)? {
            // Literals and entries keep their int / bool / double kind.
            FNode::Num(x) => Some(x != 0.0),
            FNode::Int(0.0) => Some(false),
            FNode::Int(1.0) => Some(true),
            FNode::Int(_) | FNode::Str | FNode::Bail => None,
            FNode::Name(k) => truth_of(self.read(k, slots, bbs)?),
            FNode::And(a, b) => {
                let l = self.operand_truth(a, slots, bbs)?;
                let r = self.operand_truth(b, slots, bbs)?;
                Some(l & r)
            }
            FNode::Or(a, b) => {
                let l = self.operand_truth(a, slots, bbs)?;
                let r = self.operand_truth(b, slots, bbs)?;
                Some(l | r)
            }
            FNode::Cmp(op, a, b) => self.fast_cmp(op, a, b, slots, bbs),
            FNode::CmpKeyNum(op, k, x) => self.fast_key_num(op, k, x, slots, bbs),
            FNode::Chain => self.fast_chain(id, slots, bbs),
            FNode::Ternary(c, t, e) => {
                let branch = if self.fast_cond(c, slots, bbs)? { t } else { e };
                self.operand_truth(branch, slots, bbs)
            }
            // The other operators give doubles.
            FNode::Neg(_)
            | FNode::Not(_)
            | FNode::Add(..)
            | FNode::Sub(..)
            | FNode::Mul(..)
            | FNode::Div(..) => self.fast_num(id, slots, bbs).map(|x| x != 0.0),
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

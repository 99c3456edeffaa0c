//! Pratt parser of BT.CPP 4 scripts into a flat node arena.
//!
//! Binding powers, loosest first: assignment (non-associative, right side is a whole
//! expression), ternary, `||`, `&&`, chained comparisons, `|` `^`, `&`, `+` `-` `..`, `*` `/`;
//! prefix `-` `!` `~` bind tighter than every binary operator.

use super::ScriptError;
use super::fast::{FNode, plan};
use super::lexer::{Op, Tok, Token, tokenize};
use crate::engine::blackboard::Value;

/// A prefix operator: `-`, `!` or `~`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnOp {
    Neg,
    Not,
    Complement,
}

/// A binary (non-comparison) operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Concat,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
}

/// A comparison operator (`==` `!=` `<` `<=` `>` `>=`); comparisons chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// An assignment: `:=` creates the entry, `=` needs it to exist, then `+=` `-=` `*=` `/=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AssignOp {
    Create,
    Existing,
    Add,
    Sub,
    Mul,
    Div,
}

/// A node of the expression arena; children are indices into it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Lit(Value),
    /// A blackboard key: index into the script's key table.
    Name(u32),
    Unary(UnOp, u32),
    Binary(BinOp, u32, u32),
    /// `first op1 e1 op2 e2 ...`: each link compares the previous operand with the next.
    Compare(u32, Vec<(CmpOp, u32)>),
    Ternary(u32, u32, u32),
    /// The target is any node; a non-key target is a runtime error, as in BT.CPP.
    Assign(AssignOp, u32, u32),
}

/// The parsed program: node arena, byte offset of each node's operator, statements, keys.
#[derive(Debug, Clone, Default)]
pub(crate) struct Program {
    pub nodes: Vec<Node>,
    pub offsets: Vec<usize>,
    pub statements: Vec<u32>,
    pub keys: Vec<String>,
    /// The fast path's form of each node (see [`super::fast`]).
    pub fast: Vec<FNode>,
}

/// Deepest nesting a script may have, counted both as open brackets and prefix operators
/// while parsing and as the depth of the expression tree (`1+1+...` chains too): parsing and
/// evaluation recurse, so deeper input would overflow the stack instead of being refused.
pub(crate) const MAX_DEPTH: usize = 256;

const ASSIGN_BP: u8 = 2;
const TERNARY_BP: u8 = 4;
const COMPARE_BP: u8 = 10;
const PREFIX_BP: u8 = 20;

fn left_bp(tok: &Tok) -> Option<u8> {
    let Tok::Op(op) = tok else { return None };
    Some(match op {
        Op::Assign | Op::ColonEq | Op::PlusEq | Op::MinusEq | Op::StarEq | Op::SlashEq => ASSIGN_BP,
        Op::Question => TERNARY_BP,
        Op::PipePipe => 6,
        Op::AmpAmp => 8,
        Op::EqEq | Op::BangEq | Op::Less | Op::LessEq | Op::Greater | Op::GreaterEq => COMPARE_BP,
        Op::Pipe | Op::Caret => 12,
        Op::Amp => 14,
        Op::Plus | Op::Minus | Op::DotDot => 16,
        Op::Star | Op::Slash => 18,
        _ => return None,
    })
}

fn assign_op(op: Op) -> Option<AssignOp> {
    Some(match op {
        Op::ColonEq => AssignOp::Create,
        Op::Assign => AssignOp::Existing,
        Op::PlusEq => AssignOp::Add,
        Op::MinusEq => AssignOp::Sub,
        Op::StarEq => AssignOp::Mul,
        Op::SlashEq => AssignOp::Div,
        _ => return None,
    })
}

fn cmp_op(tok: &Tok) -> Option<CmpOp> {
    Some(match tok {
        Tok::Op(Op::EqEq) => CmpOp::Eq,
        Tok::Op(Op::BangEq) => CmpOp::Ne,
        Tok::Op(Op::Less) => CmpOp::Lt,
        Tok::Op(Op::LessEq) => CmpOp::Le,
        Tok::Op(Op::Greater) => CmpOp::Gt,
        Tok::Op(Op::GreaterEq) => CmpOp::Ge,
        _ => return None,
    })
}

fn bin_op(op: Op) -> Option<BinOp> {
    Some(match op {
        Op::Plus => BinOp::Add,
        Op::Minus => BinOp::Sub,
        Op::Star => BinOp::Mul,
        Op::Slash => BinOp::Div,
        Op::DotDot => BinOp::Concat,
        Op::Amp => BinOp::BitAnd,
        Op::Pipe => BinOp::BitOr,
        Op::Caret => BinOp::BitXor,
        Op::AmpAmp => BinOp::And,
        Op::PipePipe => BinOp::Or,
        _ => return None,
    })
}

/// The error for input nested deeper than [`MAX_DEPTH`].
fn too_deep(offset: usize) -> ScriptError {
    ScriptError::new(
        offset,
        format!("expression nested deeper than {MAX_DEPTH} levels"),
    )
}

struct Parser<'s> {
    src: &'s str,
    tokens: Vec<Token>,
    at: usize,
    prog: Program,
    /// Depth of each node of `prog.nodes` (a leaf is 1).
    depths: Vec<usize>,
    /// How many `expr` calls are open.
    nesting: usize,
}

/// Parses a whole script; an empty script is an error.
pub(crate) fn parse(src: &str) -> Result<Program, ScriptError> {
    let mut p = Parser {
        src,
        tokens: tokenize(src),
        at: 0,
        prog: Program::default(),
        depths: Vec::new(),
        nesting: 0,
    };
    while p.peek().tok != Tok::End {
        let stmt = p.expr(0)?;
        p.prog.statements.push(stmt);
        while p.peek().tok == Tok::Op(Op::Semicolon) {
            p.at += 1;
        }
    }
    if p.prog.statements.is_empty() {
        return Err(ScriptError::new(0, "empty script"));
    }
    p.prog.fast = plan(&p.prog.nodes);
    Ok(p.prog)
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        // `tokenize` always ends with `End`, and `at` never passes it.
        &self.tokens[self.at.min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if t.tok != Tok::End {
            self.at += 1;
        }
        t
    }

    fn push(&mut self, node: Node, offset: usize) -> Result<u32, ScriptError> {
        let id = u32::try_from(self.prog.nodes.len())
            .map_err(|_| ScriptError::new(offset, "script too long"))?;
        let depth_of = |child: &u32| self.depths.get(*child as usize).copied().unwrap_or(0);
        let below = match &node {
            Node::Lit(_) | Node::Name(_) => 0,
            Node::Unary(_, a) => depth_of(a),
            Node::Binary(_, a, b) | Node::Assign(_, a, b) => depth_of(a).max(depth_of(b)),
            Node::Ternary(a, b, c) => depth_of(a).max(depth_of(b)).max(depth_of(c)),
            Node::Compare(first, links) => links
                .iter()
                .map(|(_, n)| depth_of(n))
                .fold(depth_of(first), usize::max),
        };
        if below >= MAX_DEPTH {
            return Err(too_deep(offset));
        }
        self.depths.push(below + 1);
        self.prog.nodes.push(node);
        self.prog.offsets.push(offset);
        Ok(id)
    }

    fn describe(&self, t: &Token) -> String {
        match t.tok {
            Tok::End => "end of script".to_owned(),
            _ => {
                let rest = &self.src[t.pos..];
                let end = rest.char_indices().nth(1).map_or(rest.len(), |(i, _)| i);
                format!("'{}'", &rest[..end])
            }
        }
    }

    fn key_index(&mut self, key: &str, offset: usize) -> Result<u32, ScriptError> {
        let found = self.prog.keys.iter().position(|k| k == key);
        let idx = match found {
            Some(i) => i,
            None => {
                self.prog.keys.push(key.to_owned());
                self.prog.keys.len() - 1
            }
        };
        u32::try_from(idx).map_err(|_| ScriptError::new(offset, "too many keys"))
    }

    fn prefix(&mut self) -> Result<u32, ScriptError> {
        let t = self.bump();
        let unary = match t.tok {
            Tok::Op(Op::Minus) => Some(UnOp::Neg),
            Tok::Op(Op::Bang) => Some(UnOp::Not),
            Tok::Op(Op::Tilde) => Some(UnOp::Complement),
            _ => None,
        };
        if let Some(op) = unary {
            let operand = self.expr(PREFIX_BP)?;
            return self.push(Node::Unary(op, operand), t.pos);
        }
        match t.tok {
            Tok::Op(Op::LParen) => {
                let inner = self.expr(0)?;
                let close = self.peek().clone();
                if close.tok != Tok::Op(Op::RParen) {
                    return Err(ScriptError::new(
                        close.pos,
                        format!("expected ')' (got {})", self.describe(&close)),
                    ));
                }
                self.at += 1;
                Ok(inner)
            }
            Tok::Bool(b) => self.push(Node::Lit(Value::Double(if b { 1.0 } else { 0.0 })), t.pos),
            Tok::Int(i) => self.push(Node::Lit(Value::Int(i)), t.pos),
            Tok::Real(r) => self.push(Node::Lit(Value::Double(r)), t.pos),
            Tok::Str(a, b) => {
                let text = self.src[a..b].to_owned();
                self.push(Node::Lit(Value::Str(text)), t.pos)
            }
            Tok::Ident(a, b) => {
                let src = self.src;
                let key = &src[a..b];
                if key == "@" {
                    return Err(ScriptError::new(t.pos, "'@' must be followed by a key"));
                }
                let idx = self.key_index(key, t.pos)?;
                self.push(Node::Name(idx), t.pos)
            }
            Tok::Error(msg) => Err(ScriptError::new(
                t.pos,
                format!("invalid token {}: {msg}", self.describe(&t)),
            )),
            _ => Err(ScriptError::new(
                t.pos,
                format!("expected an operand (got {})", self.describe(&t)),
            )),
        }
    }

    fn expr(&mut self, min_bp: u8) -> Result<u32, ScriptError> {
        if self.nesting >= MAX_DEPTH {
            return Err(too_deep(self.peek().pos));
        }
        self.nesting += 1;
        let parsed = self.expr_within(min_bp);
        self.nesting -= 1;
        parsed
    }

    fn expr_within(&mut self, min_bp: u8) -> Result<u32, ScriptError> {
        let mut left = self.prefix()?;
        loop {
            let t = self.peek().clone();
            let Some(lbp) = left_bp(&t.tok) else { break };
            if lbp < min_bp {
                break;
            }
            let Tok::Op(op) = t.tok else { break };
            if let Some(aop) = assign_op(op) {
                self.at += 1;
                let rhs = self.expr(0)?;
                left = self.push(Node::Assign(aop, left, rhs), t.pos)?;
                break;
            }
            if op == Op::Question {
                self.at += 1;
                let then = self.expr(0)?;
                let colon = self.peek().clone();
                if colon.tok != Tok::Op(Op::Colon) {
                    return Err(ScriptError::new(
                        colon.pos,
                        format!(
                            "expected ':' in ternary expression (got {})",
                            self.describe(&colon)
                        ),
                    ));
                }
                self.at += 1;
                let otherwise = self.expr(TERNARY_BP)?;
                left = self.push(Node::Ternary(left, then, otherwise), t.pos)?;
                break;
            }
            if cmp_op(&t.tok).is_some() {
                let mut links = Vec::new();
                while let Some(c) = cmp_op(&self.peek().tok) {
                    self.at += 1;
                    links.push((c, self.expr(COMPARE_BP + 1)?));
                }
                left = self.push(Node::Compare(left, links), t.pos)?;
                continue;
            }
            let Some(bop) = bin_op(op) else { break };
            self.at += 1;
            let right = self.expr(lbp + 1)?;
            left = self.push(Node::Binary(bop, left, right), t.pos)?;
        }
        Ok(left)
    }
}

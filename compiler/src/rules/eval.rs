//! The direct evaluator of bucket expressions: set arithmetic as Rule Game defines it (every
//! value a set of integers, pairwise cross products, `!` and `==` as set tests, the final
//! modulo-4 mapping). The translation tabulates atoms with it; tests compare it with the
//! compiled automaton.

use super::ast::{ArithOp, CmpOp, Equality, Expr, Var};
use std::collections::BTreeSet;

/// A value: a set of integers. Arithmetic is Java's 32-bit arithmetic (wrapping), as in the
/// Rule Game server.
pub type Set = BTreeSet<i32>;

/// The values of the five variables for one evaluation (an empty set where undefined).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Env {
    pub p: Set,
    pub pc: Set,
    pub ps: Set,
    pub nearby: Set,
    pub remotest: Set,
}

impl Env {
    /// An environment from optional single buckets and the piece's cell (which fixes Nearby and
    /// Remotest).
    pub fn at(p: Option<i32>, pc: Option<i32>, ps: Option<i32>, cell: u8) -> Env {
        let one = |v: Option<i32>| v.into_iter().collect::<Set>();
        let many = |v: Vec<i64>| v.into_iter().map(|b| b as i32).collect::<Set>();
        Env {
            p: one(p),
            pc: one(pc),
            ps: one(ps),
            nearby: many(super::orders::nearby(cell)),
            remotest: many(super::orders::remotest(cell)),
        }
    }
}

/// Evaluates an expression to its set, before the modulo-4 mapping.
pub fn eval(expr: &Expr, env: &Env, equality: Equality) -> Set {
    match expr {
        Expr::Num(n, _) => Set::from([*n as i32]),
        Expr::Var(var, _) => match var {
            Var::P => env.p.clone(),
            Var::Pc => env.pc.clone(),
            Var::Ps => env.ps.clone(),
            Var::Nearby => env.nearby.clone(),
            Var::Remotest => env.remotest.clone(),
        },
        Expr::List(items, _) => items.iter().flat_map(|e| eval(e, env, equality)).collect(),
        Expr::Not(inner, _) => {
            if eval(inner, env, equality).is_empty() {
                Set::from([1])
            } else {
                Set::new()
            }
        }
        Expr::Arith(op, lhs, rhs, _) => {
            let (a, b) = (eval(lhs, env, equality), eval(rhs, env, equality));
            let mut out = Set::new();
            for &x in &a {
                for &y in &b {
                    let value = match op {
                        ArithOp::Add => Some(x.wrapping_add(y)),
                        ArithOp::Sub => Some(x.wrapping_sub(y)),
                        ArithOp::Mul => Some(x.wrapping_mul(y)),
                        // Division by zero drops the pair; Java truncates toward zero.
                        ArithOp::Div => (y != 0).then(|| x.wrapping_div(y)),
                        ArithOp::Rem => (y != 0).then(|| x.wrapping_rem(y)),
                    };
                    out.extend(value);
                }
            }
            out
        }
        Expr::Cmp(op, lhs, rhs, _) => {
            let (a, b) = (eval(lhs, env, equality), eval(rhs, env, equality));
            if *op == CmpOp::Eq && equality == Equality::Engine && (a.is_empty() || b.is_empty()) {
                // The Rule Game engine returns its left operand when either side is empty.
                return a;
            }
            let holds = |x: i32, y: i32| match op {
                CmpOp::Eq => x == y,
                CmpOp::Ne => x != y,
                CmpOp::Lt => x < y,
                CmpOp::Le => x <= y,
                CmpOp::Gt => x > y,
                CmpOp::Ge => x >= y,
            };
            if a.iter().any(|&x| b.iter().any(|&y| holds(x, y))) {
                Set::from([1])
            } else {
                Set::new()
            }
        }
    }
}

/// The buckets an expression allows: its set mapped by `n -> ((n % 4) + 4) % 4`, as a bit mask
/// (bit b set when bucket b is allowed).
pub fn bucket_mask(expr: &Expr, env: &Env, equality: Equality) -> u8 {
    eval(expr, env, equality).into_iter().fold(0u8, |mask, n| mask | 1 << n.rem_euclid(4))
}

//! The bucket-expression table: expressions with given p, pc, ps, Nearby and Remotest and the sets
//! they must give, worked by hand from arithmetic.html. Each row is evaluated by the direct
//! evaluator (`rules::eval`) and, where a 6 x 6 game can set the variables up, through the
//! compiled automaton: a game whose second line holds the expression, played into the wanted
//! p / pc / ps, whose legal moves for the tested piece are then the expression's buckets.

use regula_compiler::rules::{self, ast::Equality, eval};
use regula_runtime::engine::{parse_history, ForwardModel};
use regula_runtime::reference::ReferenceEngine;
use std::collections::BTreeSet;

struct Row {
    expr: &'static str,
    p: &'static [i32],
    pc: &'static [i32],
    ps: &'static [i32],
    nearby: &'static [i32],
    remotest: &'static [i32],
    equality: Equality,
    /// The set before the modulo-4 mapping.
    expected: &'static [i32],
}

const E: Equality = Equality::Engine;
const D: Equality = Equality::Documented;

const fn row(
    expr: &'static str,
    p: &'static [i32],
    pc: &'static [i32],
    ps: &'static [i32],
    nearby: &'static [i32],
    expected: &'static [i32],
) -> Row {
    // On the 6 x 6 board the remotest bucket is opposite the nearest one.
    let remotest: &'static [i32] = match nearby {
        [0] => &[2],
        [1] => &[3],
        [2] => &[0],
        [3] => &[1],
        _ => &[],
    };
    Row { expr, p, pc, ps, nearby, remotest, equality: E, expected }
}

const fn doc(mut r: Row) -> Row {
    r.equality = D;
    r
}

const fn odd(mut r: Row, remotest: &'static [i32]) -> Row {
    r.remotest = remotest;
    r
}

const NONE: &[i32] = &[];

/// p, pc, ps, Nearby (Remotest follows on 6 x 6), expected raw set.
const TABLE: &[Row] = &[
    row("0", &[1], &[2], &[3], &[0], &[0]),
    row("[0,1]", &[1], &[2], &[3], &[0], &[0, 1]),
    row("[pc,pc+2]", &[1], &[2], &[3], &[0], &[2, 4]),
    row("[(p/2)*2, (p/2)*2+1]", &[1], NONE, NONE, &[0], &[0, 1]),
    row("[(p/2)*2, (p/2)*2+1]", &[3], NONE, NONE, &[0], &[2, 3]),
    row("[(p/2)*2, (p/2)*2+1]", NONE, NONE, NONE, &[0], NONE),
    row("[(p==[0,1])*[0,1], (p==[2,3])*[2,3]]", &[1], NONE, NONE, &[2], &[0, 1]),
    row("[(p==[0,1])*[0,1], (p==[2,3])*[2,3]]", &[2], NONE, NONE, &[2], &[2, 3]),
    row("(pc==[0,1,2,3])*[0,1]", &[1], &[2], NONE, &[3], &[0, 1]),
    row("(pc==[0,1,2,3])*[0,1]", &[1], NONE, NONE, &[3], NONE),
    row("!!pc*[0,1]", &[1], &[2], NONE, &[3], &[0, 1]),
    row("!!pc*[0,1]", &[1], NONE, NONE, &[3], NONE),
    row("(p==Nearby)*Nearby", &[1], NONE, NONE, &[1], &[1]),
    row("(p==Nearby)*Nearby", &[1], NONE, NONE, &[0], NONE),
    row("(p==Nearby)*Nearby", NONE, NONE, NONE, &[0], NONE),
    row("!p", &[1], NONE, NONE, &[0], NONE),
    row("!p", NONE, NONE, NONE, &[0], &[1]),
    row("!!p", &[1], NONE, NONE, &[0], &[1]),
    row("!!p", NONE, NONE, NONE, &[0], NONE),
    row("(p==[0,1,2,3])*1", &[3], NONE, NONE, &[0], &[1]),
    row("[!p*[0,1,2,3], !!p*(p-1)]", NONE, NONE, NONE, &[0], &[0, 1, 2, 3]),
    row("[!p*[0,1,2,3], !!p*(p-1)]", &[0], NONE, NONE, &[0], &[-1]),
    row("[!p*[0,1,2,3], !!p*(p-1)]", &[2], NONE, NONE, &[0], &[1]),
    row("p-pc+ps-3", &[1], &[2], &[3], &[0], &[-1]),
    row("2*3-1", NONE, NONE, NONE, &[0], &[5]),
    row("p+1", &[3], NONE, NONE, &[0], &[4]),
    row("p*10", &[2], NONE, NONE, &[0], &[20]),
    row("[0,1]+[0,2]", NONE, NONE, NONE, &[0], &[0, 1, 2, 3]),
    row("[0,1]*[2,3]", NONE, NONE, NONE, &[0], &[0, 2, 3]),
    row("[0,1,2]+[]", &[1], NONE, NONE, &[0], NONE),
    row("[0,1,2]+pc", &[1], NONE, NONE, &[0], NONE),
    row("7/2", NONE, NONE, NONE, &[0], &[3]),
    row("-7/2", NONE, NONE, NONE, &[0], &[-3]),
    row("-7%4", NONE, NONE, NONE, &[0], &[-3]),
    row("7%-4", NONE, NONE, NONE, &[0], &[3]),
    row("5/0", NONE, NONE, NONE, &[0], NONE),
    row("[4,8]/[0,2]", NONE, NONE, NONE, &[0], &[2, 4]),
    row("[0,1]==p", NONE, NONE, NONE, &[0], &[0, 1]),
    doc(row("[0,1]==p", NONE, NONE, NONE, &[0], NONE)),
    row("[]==[]", NONE, NONE, NONE, &[0], NONE),
    row("[2]==[2,3]", NONE, NONE, NONE, &[0], &[1]),
    row("[2]==[3]", NONE, NONE, NONE, &[0], NONE),
    doc(row("(p==Nearby)*p", &[2], NONE, NONE, &[2], &[2])),
    row("[0,1]!=[1]", NONE, NONE, NONE, &[0], &[1]),
    row("[1]!=[1]", NONE, NONE, NONE, &[0], NONE),
    row("p<pc", &[1], &[2], NONE, &[0], &[1]),
    row("p>=pc", &[1], &[2], NONE, &[0], NONE),
    row("Remotest", NONE, NONE, NONE, &[3], &[1]),
    row("Nearby-Remotest", NONE, NONE, NONE, &[2], &[2]),
    row("ps-pc", &[1], &[2], &[3], &[0], &[1]),
    row("(ps==3)*(pc==2)*p", &[1], &[2], &[3], &[0], &[1]),
    row("ps", &[0], NONE, &[3], &[0], &[3]),
    row("((p + 3) % 4)", &[0], NONE, NONE, &[1], &[3]),
    row("-1", NONE, NONE, NONE, &[0], &[-1]),
    row("p.color+p.shape", &[0], &[1], &[2], &[0], &[3]),
    row("2*(p+1)", &[1], NONE, NONE, &[0], &[4]),
    row("2*(p+1)", NONE, NONE, NONE, &[0], NONE),
    row("!(p==Nearby)", &[2], NONE, NONE, &[2], NONE),
    row("!(p==Nearby)", &[1], NONE, NONE, &[2], &[1]),
    // Values a 6 x 6 game cannot produce: several last buckets (the Try-it form allows them) and
    // the two-valued Nearby / Remotest of a middle line on an odd board.
    row("(p==Nearby)*p", &[1, 2], NONE, NONE, &[2], &[1, 2]),
    row("p*[1,2]", &[1, 3], NONE, NONE, &[0], &[1, 2, 3, 6]),
    odd(row("Nearby+Remotest", NONE, NONE, NONE, &[0, 1], &[2, 3, 4]), &[2, 3]),
];

/// The final mapping exactly as arithmetic.html writes it, `n := ((n%4)+4)%4`.
#[allow(clippy::manual_rem_euclid)]
fn documented_mod4(n: i32) -> i32 {
    ((n % 4) + 4) % 4
}

fn expr_of(text: &str) -> rules::ast::Expr {
    let source = format!("@piece 1 circle red\n(*,*,*,*,{text})\n");
    let file = rules::parse(&source).unwrap_or_else(|d| panic!("{text}: {d:#?}"));
    file.lines[0].atoms[0].buckets.clone().expect("an expression")
}

#[test]
fn the_direct_evaluator_gives_every_row() {
    assert!(TABLE.len() >= 40);
    let mut empty = 0;
    for r in TABLE {
        let env = eval::Env {
            p: r.p.iter().copied().collect(),
            pc: r.pc.iter().copied().collect(),
            ps: r.ps.iter().copied().collect(),
            nearby: r.nearby.iter().copied().collect(),
            remotest: r.remotest.iter().copied().collect(),
        };
        let got = eval::eval(&expr_of(r.expr), &env, r.equality);
        let expected: BTreeSet<i32> = r.expected.iter().copied().collect();
        assert_eq!(got, expected, "{} with p={:?} pc={:?} ps={:?} Nearby={:?}", r.expr, r.p, r.pc, r.ps, r.nearby);
        let mask = eval::bucket_mask(&expr_of(r.expr), &env, r.equality);
        let mapped: u8 = expected.iter().fold(0, |m, n| m | (1 << documented_mod4(*n)));
        assert_eq!(mask, mapped, "{} after the modulo-4 mapping", r.expr);
        empty += usize::from(expected.is_empty());
    }
    assert!(empty >= 10, "the empty-set cases are part of the table");
}

/// The corner cell whose nearest bucket is `bucket`.
fn corner(bucket: i32) -> u8 {
    [31, 36, 6, 1][bucket as usize]
}

/// The buckets the compiled game allows the tested piece after playing p / pc / ps into place.
fn automaton_buckets(r: &Row) -> BTreeSet<i32> {
    let single = |v: &[i32]| v.first().copied();
    let (p, pc, ps) = (single(r.p), single(r.pc), single(r.ps));
    let tested = corner(r.nearby[0]);
    // Setup moves: a green circle sets pc (green), a red star ps (star), a red circle p last.
    let mut history = Vec::new();
    if let Some(pc) = pc {
        history.push(format!("c14 b{pc}"));
    }
    if let Some(ps) = ps {
        history.push(format!("c15 b{ps}"));
    }
    if let Some(p) = p {
        history.push(format!("c20 b{p}"));
    }
    let setup_line = if history.is_empty() {
        String::new()
    } else {
        format!("{} (*,circle,*,*,*) (*,star,red,*,*)\n", history.len())
    };
    let equality = if r.equality == D { "documented" } else { "engine" };
    let source = format!(
        "@equality {equality}\n@piece {tested} star green\n@piece 14 circle green\n@piece 15 star red\n\
         @piece 20 circle red\n@piece 21 triangle red\n{setup_line}(*,star,green,*,{})  (*,triangle,*,*,*)\n",
        r.expr
    );
    let loaded = rules::compile(&source).unwrap_or_else(|d| panic!("{source}\n{d:#?}"));
    let engine = ReferenceEngine::new(loaded.automaton).unwrap();
    let text = if history.is_empty() { String::new() } else { format!("/{}/", history.join("/")) };
    let history = parse_history(engine.automaton(), &text).unwrap();
    let state = engine.play(&history).unwrap();
    let prefix = format!("c{tested} b");
    engine
        .format_moves(&engine.moves(&state).unwrap())
        .iter()
        .filter_map(|m| m.strip_prefix(&prefix).map(|b| b.parse::<i32>().unwrap()))
        .collect()
}

#[test]
fn the_compiled_automaton_agrees_where_a_game_can_set_the_values() {
    let mut compared = 0;
    for r in TABLE {
        let feasible = r.p.len() <= 1
            && r.pc.len() <= 1
            && r.ps.len() <= 1
            && r.nearby.len() == 1
            && (r.p.len() == 1 || (r.pc.is_empty() && r.ps.is_empty()));
        if !feasible {
            continue;
        }
        let expected: BTreeSet<i32> = r.expected.iter().map(|n| documented_mod4(*n)).collect();
        assert_eq!(
            automaton_buckets(r),
            expected,
            "{} with p={:?} pc={:?} ps={:?} Nearby={:?}",
            r.expr,
            r.p,
            r.pc,
            r.ps,
            r.nearby
        );
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} rows went through the automaton");
}

//! Hand-built automata exercising every label kind and every runtime error of the reference
//! engine, with expected results worked out by hand from spec/forward-model.md.

use regula_runtime::automaton::builder::AutomatonBuilder;
use regula_runtime::automaton::{Expr, Label};
use regula_runtime::engine::{parse_history, EngineError, ForwardModel, Mover, Observed};
use regula_runtime::perft::perft;
use regula_runtime::reference::ReferenceEngine;

/// Two players, binary scores, plus whatever `declare` adds.
fn engine(declare: impl FnOnce(&mut AutomatonBuilder)) -> ReferenceEngine {
    let mut builder = AutomatonBuilder::new();
    builder.typedef("Player", "{x, o}").typedef("Score", "{0, 1}");
    declare(&mut builder);
    ReferenceEngine::new(builder.build().unwrap()).unwrap()
}

fn move_names(engine: &ReferenceEngine) -> Vec<String> {
    let start = engine.start().unwrap();
    engine.format_moves(&engine.moves(&start).unwrap())
}

/// `m, end: player = keeper` after a `$ name` tag, reached from `from`.
fn finish(b: &mut AutomatonBuilder, from: &str, name: &str) {
    let tagged = format!("{name}_tagged");
    b.edge(from, &tagged, &format!("$ {name}")).edge(&tagged, "end", "player = keeper");
}

#[test]
fn skip_assign_compare_and_tag_labels() {
    let engine = engine(|b| {
        b.typedef("V", "{a, b, c}").variable("v", "V", "a").variable("w", "V", "b");
        b.edge("begin", "t", "player = x");
        b.edge("t", "s1", "");
        finish(b, "s1", "skip");
        b.edge("t", "s2", "v = b").edge("s2", "s3", "v == w");
        finish(b, "s3", "eq");
        b.edge("t", "s4", "v != w");
        finish(b, "s4", "ne");
        b.edge("t", "s5", "v == c");
        finish(b, "s5", "never");
    });
    assert_eq!(move_names(&engine), ["skip", "eq", "ne"]);
    let start = engine.start().unwrap();
    let after_eq = engine.apply(&start, &engine.parse_move("eq").unwrap()).unwrap();
    assert_eq!(engine.variable_symbol(&after_eq, "v"), engine.automaton().symbol_id("b"));
    assert!(engine.is_terminal(&after_eq));
    let after_skip = engine.apply(&start, &engine.parse_move("skip").unwrap()).unwrap();
    assert_eq!(engine.variable_symbol(&after_skip, "v"), engine.automaton().symbol_id("a"));
}

#[test]
fn any_assignment_branches_in_type_order_and_tag_expressions_emit_values() {
    let engine = engine(|b| {
        b.typedef("T", "{p, q, r}").typedef("M", "T -> T").constant("succ", "M", "{p: q, q: r, :p}");
        b.variable("v", "T", "p");
        b.edge("begin", "a", "player = o")
            .edge("a", "b", "v = T(*)")
            .edge("b", "c", "$$ v")
            .edge("c", "d", "$$ succ[v]")
            .edge("d", "end", "player = keeper");
    });
    assert_eq!(engine.to_move(&engine.start().unwrap()), Mover::Player(1));
    assert_eq!(move_names(&engine), ["p q", "q r", "r p"]);
}

#[test]
fn keeper_needs_exactly_one_move() {
    let none = engine(|b| {
        b.typedef("V", "{a, b}").variable("v", "V", "a");
        b.edge("begin", "n", "v == b").edge("n", "end", "player = keeper");
    });
    assert_eq!(none.start().unwrap_err(), EngineError::KeeperMoveCount { node: "begin".into(), count: 0 });

    let two = engine(|b| {
        finish(b, "begin", "one");
        finish(b, "begin", "two");
    });
    let error = two.start().unwrap_err();
    assert_eq!(error, EngineError::KeeperMoveCount { node: "begin".into(), count: 2 });
    assert!(error.to_string().contains("exactly one legal move, but has 2 at node `begin`"), "{error}");

    // Two paths with equal tags and successors are one move.
    let merged = engine(|b| {
        b.edge("begin", "n1", "").edge("begin", "n2", "").edge("n1", "m", "").edge("n2", "m", "");
        b.edge("m", "end", "player = keeper");
    });
    assert!(merged.is_terminal(&merged.start().unwrap()));
}

#[test]
fn a_stuck_non_terminal_state_is_an_unexpected_end() {
    let engine = engine(|b| {
        b.typedef("V", "{a, b}").variable("v", "V", "a");
        b.edge("begin", "t", "player = x").edge("t", "u", "v == b").edge("u", "end", "player = keeper");
    });
    let start = engine.start().unwrap();
    assert!(engine.raw_successors(&start).unwrap().is_empty());
    let error = engine.moves(&start).unwrap_err();
    assert_eq!(error, EngineError::UnexpectedEnd { node: "t".into() });
    assert!(error.to_string().starts_with("game unexpectedly ended at node `t`"));
}

#[test]
fn reachability_checks() {
    let engine = engine(|b| {
        b.typedef("V", "{a, b}").variable("v", "V", "a").variable("flag", "V", "a");
        b.edge("begin", "t", "player = x");
        // a == b is reachable even from a node without out-edges.
        b.edge("t", "r1", "? lonely -> lonely");
        finish(b, "r1", "self");
        // Assignments inside the check are discarded: flag is still `a` afterwards.
        b.edge("sub", "sub1", "flag = b").edge("sub1", "subDone", "flag == b");
        b.edge("t", "r2", "? sub -> subDone").edge("r2", "r2b", "flag == a");
        finish(b, "r2b", "discarded");
        // Negation: `never` has no way in, `subDone` has one.
        b.edge("t", "r3", "! sub -> never");
        finish(b, "r3", "negated");
        b.edge("t", "r4", "! sub -> subDone");
        finish(b, "r4", "negation_fails");
        // Assigning `player` inside a check does not stop it.
        b.edge("psub", "p1", "player = o").edge("p1", "pdone", "");
        b.edge("t", "r5", "? psub -> pdone");
        finish(b, "r5", "through_player");
        // Nested: the inner check sees the outer check's assignment...
        b.edge("inner", "innerDone", "v == b");
        b.edge("outer", "o1", "v = b").edge("o1", "outerDone", "? inner -> innerDone");
        b.edge("t", "r6", "? outer -> outerDone");
        finish(b, "r6", "nested");
        // ...and without it the inner check fails.
        b.edge("outer2", "outer2Done", "? inner -> innerDone");
        b.edge("t", "r7", "? outer2 -> outer2Done");
        finish(b, "r7", "nested_false");
        // A check starts from the current, mid-move state.
        b.edge("t", "s8", "v = b").edge("s8", "r8", "? inner -> innerDone");
        finish(b, "r8", "current");
    });
    assert_eq!(move_names(&engine), ["self", "discarded", "negated", "through_player", "nested", "current"]);
}

/// A search that starts at a node whose only in-edge is its own self-loop must still notice it
/// has come back (regression: this looped forever).
#[test]
fn self_loops_on_a_search_start_terminate() {
    let engine = engine(|b| {
        b.typedef("V", "{a, b}").variable("v", "V", "a");
        // The keeper's search starts at `begin`, whose only in-edge is this self-loop.
        b.edge("begin", "begin", "v = b").edge("begin", "t", "player = x");
        // The reachability check starts at `spin`, likewise.
        b.edge("spin", "spin", "v = a").edge("spin", "out", "v == a");
        b.edge("t", "u", "? spin -> out");
        finish(b, "u", "checked");
    });
    // The keeper can go straight on (v = a) or around the loop first (v = b): two paths with the
    // same (empty) tags and different successors.
    assert_eq!(engine.start().unwrap_err(), EngineError::AmbiguousMove { node: "begin".into(), tags: "".into() });
    let single = self::engine(|b| {
        b.typedef("V", "{a, b}").variable("v", "V", "a");
        b.edge("begin", "t", "player = x");
        b.edge("spin", "spin", "v = b").edge("spin", "out", "v == b");
        b.edge("t", "u", "? spin -> out");
        finish(b, "u", "checked");
    });
    assert_eq!(move_names(&single), ["checked"]);
}

#[test]
fn maps_defaults_equality_and_copies() {
    let engine = engine(|b| {
        b.typedef("K", "{k1, k2}").typedef("KO", "{k2, k1}").typedef("V", "{a, b, c}");
        b.typedef("M", "K -> V").typedef("MO", "KO -> V");
        b.variable("m", "M", "{k1: a, :c}")
            .variable("n", "M", "{k1: a, k2: c, :c}")
            .variable("reordered", "MO", "{k1: a, :c}")
            .variable("p", "M", "{:a}")
            .variable("q", "M", "{k1: a, k2: a, :b}")
            .variable("key", "{k1, k2, k3}", "k3");
        b.edge("begin", "t", "player = x");
        b.edge("t", "d1", "m[key] == c");
        finish(b, "d1", "default_read");
        b.edge("t", "d2", "m == n");
        finish(b, "d2", "equal");
        b.edge("t", "d3", "m == reordered");
        finish(b, "d3", "equal_reordered");
        b.edge("t", "d4", "p != q");
        finish(b, "d4", "defaults_differ");
        b.edge("t", "d5", "m[k2] = b").edge("d5", "d6", "m != n");
        finish(b, "d6", "changed");
        b.edge("t", "d7", "p = q").edge("d7", "d8", "p == q").edge("d8", "d9", "p[key] == b");
        finish(b, "d9", "copied");
        b.edge("t", "e1", "reordered = q").edge("e1", "e2", "reordered[k2] == a").edge("e2", "e3", "reordered != m");
        finish(b, "e3", "converted");
    });
    assert_eq!(
        move_names(&engine),
        ["default_read", "equal", "equal_reordered", "defaults_differ", "changed", "copied", "converted"]
    );
}

#[test]
fn assigning_outside_a_maps_domain_is_an_error() {
    let engine = engine(|b| {
        b.typedef("K", "{k1, k2}").typedef("M", "K -> {a, b}");
        b.variable("m", "M", "{:a}").variable("key", "{k1, k2, k3}", "k3");
        b.edge("begin", "t", "player = x").edge("t", "u", "m[key] = b");
        finish(b, "u", "set");
    });
    let error = engine.moves(&engine.start().unwrap()).unwrap_err();
    assert_eq!(
        error,
        EngineError::KeyOutsideDomain { key: "k3".into(), map_type: "M".into(), edge: "`t` -> `u`".into() }
    );
    assert!(error.to_string().starts_with("key outside the map's domain"));
}

#[test]
fn same_tags_with_different_successors_are_ambiguous() {
    let ambiguous = engine(|b| {
        b.typedef("V", "{a, b}").variable("v", "V", "a");
        b.edge("begin", "t", "player = x").edge("t", "a1", "v = a").edge("t", "a2", "v = b");
        b.edge("a1", "c", "$ same").edge("a2", "c", "$ same").edge("c", "end", "player = keeper");
    });
    let error = ambiguous.moves(&ambiguous.start().unwrap()).unwrap_err();
    assert_eq!(error, EngineError::AmbiguousMove { node: "t".into(), tags: "same".into() });

    let agreeing = engine(|b| {
        b.edge("begin", "t", "player = x").edge("t", "a1", "").edge("t", "a2", "");
        b.edge("a1", "c", "$ same").edge("a2", "c", "$ same").edge("c", "end", "player = keeper");
    });
    assert_eq!(move_names(&agreeing), ["same"]);
}

#[test]
fn random_moves_are_uniform_chance_outcomes() {
    let die = engine(|b| {
        b.typedef("Die", "{d1, d2, d3}").variable("roll", "Die", "d1");
        b.edge("begin", "r", "player = random").edge("r", "r1", "roll = Die(*)").edge("r1", "r2", "$$ roll");
        b.edge("r2", "play", "player = x");
        finish(b, "play", "go");
    });
    let start = die.start().unwrap();
    assert_eq!(die.to_move(&start), Mover::Random);
    let outcomes = die.chance_outcomes(&start).unwrap();
    let names: Vec<String> = outcomes.iter().map(|(m, _)| die.format_move(m)).collect();
    assert_eq!(names, ["d1", "d2", "d3"]);
    assert!(outcomes.iter().all(|(_, p)| (p - 1.0 / 3.0).abs() < 1e-12));
    assert_eq!(perft(&die, 3).unwrap(), [1, 3, 3, 0]);

    // Two distinct random moves reaching one state: two outcomes, but perft counts the state once;
    // the same shape for a real player counts both moves.
    let coin = |mover: &'static str| {
        engine(move |b| {
            b.edge("begin", "r", &format!("player = {mover}"));
            b.edge("r", "s1", "$ heads").edge("r", "s2", "$ tails");
            b.edge("s1", "after", "player = keeper").edge("s2", "after", "player = keeper");
            b.edge("after", "end", "player = keeper");
        })
    };
    let chance = coin("random");
    let outcomes = chance.chance_outcomes(&chance.start().unwrap()).unwrap();
    assert_eq!(outcomes.iter().map(|(_, p)| *p).collect::<Vec<_>>(), [0.5, 0.5]);
    assert_eq!(perft(&chance, 2).unwrap(), [1, 1, 0]);
    let choice = coin("x");
    assert!(choice.chance_outcomes(&choice.start().unwrap()).unwrap().is_empty());
    assert_eq!(perft(&choice, 2).unwrap(), [1, 2, 0]);
}

#[test]
fn observations_follow_visibility_in_the_state_moved_from() {
    let engine = engine(|b| {
        b.typedef("Secret", "{s1, s2}").variable("secret", "Secret", "s1");
        b.edge("begin", "a", "visible[o] = 0").edge("a", "b", "player = x");
        b.edge("b", "c", "secret = Secret(*)").edge("c", "d", "$$ secret").edge("d", "e", "visible[o] = 1");
        b.edge("e", "f", "player = o");
        b.edge("f", "g", "$ guess").edge("g", "h", "visible[x] = 0").edge("h", "i", "player = keeper");
        b.edge("i", "end", "player = keeper");
    });
    let history = parse_history(engine.automaton(), "/s2/guess/").unwrap();
    let sym = |n: &str| engine.automaton().symbol_id(n).unwrap();
    use Observed::{Hidden, Seen};
    assert_eq!(
        engine.observation(&history, 0).unwrap(),
        [
            Seen { mover: Mover::Keeper, tags: vec![] },
            Seen { mover: Mover::Player(0), tags: vec![sym("s2")] },
            Seen { mover: Mover::Player(1), tags: vec![sym("guess")] },
            Hidden { mover: Mover::Keeper },
        ]
    );
    assert_eq!(
        engine.observation(&history, 1).unwrap(),
        [
            Seen { mover: Mover::Keeper, tags: vec![] },
            Hidden { mover: Mover::Player(0) },
            Seen { mover: Mover::Player(1), tags: vec![sym("guess")] },
            Seen { mover: Mover::Keeper, tags: vec![] },
        ]
    );
    let (_, last) = engine.trace(&history).unwrap();
    assert_eq!(last, engine.play(&history).unwrap());
    assert!(engine.is_terminal(&last));
}

#[test]
fn illegal_and_unknown_moves_are_reported() {
    let engine = engine(|b| {
        b.edge("begin", "t", "player = x");
        for name in ["alpha", "beta", "gamma"] {
            let first = format!("{name}1");
            b.edge("t", &first, "$ step").edge(&first, &format!("{name}2"), &format!("$ {name}"));
            b.edge(&format!("{name}2"), "end", "player = keeper");
        }
    });
    let start = engine.start().unwrap();
    assert_eq!(engine.format_moves(&engine.moves(&start).unwrap()), ["step alpha", "step beta", "step gamma"]);
    let error = engine.apply(&start, &engine.parse_move("step step").unwrap()).unwrap_err();
    let EngineError::IllegalMove { node, mover, requested, nearby, legal_count } = &error else {
        panic!("expected an illegal move, got {error}");
    };
    assert_eq!((node.as_str(), mover.as_str(), requested.as_str(), *legal_count), ("t", "x", "step step", 3));
    assert_eq!(nearby, &["step alpha", "step beta", "step gamma"]);
    assert!(error.to_string().contains("closest: `step alpha`"), "{error}");
    assert_eq!(engine.parse_move("step delta").unwrap_err(), EngineError::UnknownTag { name: "delta".into() });
    // A prefix of a legal move is not a move.
    assert!(matches!(engine.apply(&start, &engine.parse_move("step").unwrap()), Err(EngineError::IllegalMove { .. })));
    // No move is legal once the game is over.
    let over = engine.apply(&start, &engine.parse_move("step beta").unwrap()).unwrap();
    assert!(matches!(engine.apply(&over, &[]), Err(EngineError::IllegalMove { legal_count: 0, .. })));
}

#[test]
fn runaway_games_are_errors_not_hangs() {
    let bad_player = engine(|b| {
        b.edge("begin", "end", "player = nobody");
    });
    assert_eq!(
        bad_player.start().unwrap_err(),
        EngineError::InvalidPlayer { node: "end".into(), value: "nobody".into() }
    );

    let tag_cycle = engine(|b| {
        b.edge("begin", "t", "player = x").edge("t", "t2", "$ again").edge("t2", "t", "");
    });
    assert_eq!(tag_cycle.moves(&tag_cycle.start().unwrap()).unwrap_err(), EngineError::TagCycle { node: "t2".into() });

    let keeper_cycle = engine(|b| {
        b.edge("begin", "a", "").edge("a", "begin", "player = keeper");
    });
    assert_eq!(keeper_cycle.start().unwrap_err(), EngineError::KeeperCycle { node: "begin".into() });

    let self_reach = engine(|b| {
        b.edge("begin", "t", "player = x").edge("t", "u", "? r -> rDone").edge("r", "rDone", "? r -> rDone");
        finish(b, "u", "done");
    });
    assert!(matches!(self_reach.moves(&self_reach.start().unwrap()), Err(EngineError::ReachDepth { .. })));
}

#[test]
fn malformed_tables_are_rejected_at_construction() {
    let mut builder = AutomatonBuilder::new();
    builder.typedef("Player", "{x}").typedef("Score", "{0}").variable("v", "{a, b}", "a");
    builder.edge("begin", "end", "v == a");
    let mut automaton = builder.build().unwrap();
    let v = automaton.variable_id("v").unwrap();
    let a = automaton.symbol_id("a").unwrap();
    // `v[a]` indexes a set-typed variable.
    let bad = Expr::Access { map: Box::new(Expr::Var(v)), key: Box::new(Expr::Symbol(a)) };
    automaton.edges[0].label = Label::Compare { lhs: bad, rhs: Expr::Symbol(a), equal: true };
    let error = ReferenceEngine::new(automaton.clone()).unwrap_err();
    assert!(matches!(error, EngineError::Malformed { .. }), "{error}");
    let mut bad_type = automaton.clone();
    bad_type.variables[v as usize].ty = 1000;
    assert!(matches!(ReferenceEngine::new(bad_type), Err(EngineError::Malformed { .. })));
    automaton.edges[0].target = 99;
    assert!(ReferenceEngine::new(automaton).is_err());
}

#[test]
fn scores_read_integers_or_fall_back_to_the_score_index() {
    let mut builder = AutomatonBuilder::new();
    builder.typedef("Player", "{x, o}").typedef("Score", "{lose, draw, win}");
    builder.edge("begin", "a", "goals[o] = win").edge("a", "end", "player = keeper");
    let engine = ReferenceEngine::new(builder.build().unwrap()).unwrap();
    let end = engine.start().unwrap();
    assert!(engine.is_terminal(&end));
    assert_eq!(engine.to_move(&end), Mover::Terminal);
    let values: Vec<i64> = engine.scores(&end).iter().map(|s| s.value).collect();
    assert_eq!(values, [0, 2]);

    let numeric = engine_with_scores();
    let values: Vec<i64> = numeric.scores(&numeric.start().unwrap()).iter().map(|s| s.value).collect();
    assert_eq!(values, [5, 100]);
}

fn engine_with_scores() -> ReferenceEngine {
    let mut builder = AutomatonBuilder::new();
    builder.typedef("Player", "{x, o}").typedef("Score", "{0, 100}");
    // Loose typing lets a goal hold a symbol outside `Score`; a numeral still reads as its number.
    builder.edge("begin", "a", "goals[o] = 100").edge("a", "b", "goals[x] = 5").edge("b", "end", "player = keeper");
    ReferenceEngine::new(builder.build().unwrap()).unwrap()
}

#[test]
fn histories_round_trip_and_replay() {
    let engine = engine(|b| {
        b.typedef("V", "{a, b}").variable("v", "V", "a");
        b.edge("begin", "t", "player = x").edge("t", "u", "v = V(*)").edge("u", "w", "$$ v");
        b.edge("w", "t2", "player = o").edge("t2", "t3", "").edge("t3", "end", "player = keeper");
    });
    // o's only move has no tags: the history writes it as an empty segment.
    let history = parse_history(engine.automaton(), "/b//").unwrap();
    assert_eq!(history.len(), 2);
    assert!(history[1].is_empty());
    assert_eq!(regula_runtime::engine::format_history(engine.automaton(), &history), "/b//");
    let last = engine.play(&history).unwrap();
    assert!(engine.is_terminal(&last));
    assert_eq!(engine.variable_symbol(&last, "v"), engine.automaton().symbol_id("b"));
    assert!(parse_history(engine.automaton(), "/").unwrap().is_empty());
    assert!(parse_history(engine.automaton(), "").unwrap().is_empty());
}

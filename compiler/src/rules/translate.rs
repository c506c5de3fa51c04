//! Translation of a checked rule file to RG text (spec/rules.md §5): the board, the bucket
//! tables (every atom's expression tabulated over the variables it reads), the acceptance
//! sub-automaton used by reachability checks, the player's move, the keeper's bookkeeping
//! (counters, p/pc/ps, transfer of control, stalemate, end of game) and, for a random board,
//! the `random` player's placements.

use super::ast::*;
use super::eval::{bucket_mask, Env};
use super::orders;
use std::fmt::Write;

/// The one player's name.
pub const PLAYER: &str = "solver";

/// Score for clearing the board with `errors` refused attempts: the Kantor-Lupyan curve
/// 100 / (1 + exp(errors - 2)), rounded (smin = 0, smax = 100, b = 1).
pub fn cleared_reward(errors: u32) -> u32 {
    (100.0 / (1.0 + (f64::from(errors) - 2.0).exp())).round() as u32
}

/// The shapes and colours the game knows, in order of first mention (board, then rules).
pub fn shapes_and_colors(file: &RuleFile) -> (Vec<String>, Vec<String>) {
    let mut shapes: Vec<String> = Vec::new();
    let mut colors: Vec<String> = Vec::new();
    let add = |list: &mut Vec<String>, name: &String| {
        if !list.contains(name) {
            list.push(name.clone());
        }
    };
    match &file.board {
        Board::Fixed(pieces) => {
            for piece in pieces {
                add(&mut shapes, &piece.shape);
                add(&mut colors, &piece.color);
            }
        }
        Board::Random { shapes: s, colors: c, .. } => {
            s.iter().for_each(|n| add(&mut shapes, n));
            c.iter().for_each(|n| add(&mut colors, n));
        }
        Board::Missing => {}
    }
    for atom in file.lines.iter().flat_map(|l| &l.atoms) {
        atom.shapes.iter().flatten().for_each(|n| add(&mut shapes, n));
        atom.colors.iter().flatten().for_each(|n| add(&mut colors, n));
    }
    (shapes, colors)
}

/// The tiers of an order by name (built-in or defined in the file).
pub fn order_tiers(file: &RuleFile, name: &str) -> Vec<Vec<u8>> {
    orders::builtin(name).unwrap_or_else(|| {
        file.orders.iter().find(|o| o.name == name).map(|o| orders::complete(&o.tiers)).unwrap_or_default()
    })
}

fn last_symbol(value: Option<i32>) -> String {
    value.map_or("none".to_string(), |b| format!("b{b}"))
}

const LAST_VALUES: [Option<i32>; 5] = [None, Some(0), Some(1), Some(2), Some(3)];

/// The dimensions an atom's bucket table is indexed by.
#[derive(Clone, Copy, PartialEq)]
enum Dim {
    P,
    Pc,
    Ps,
    Cell,
}

struct Table<'a> {
    expr: &'a Expr,
    dims: Vec<Dim>,
    equality: Equality,
}

impl Table<'_> {
    fn new(expr: &Expr, equality: Equality) -> Table<'_> {
        let mut dims = Vec::new();
        if expr.uses(Var::P) {
            dims.push(Dim::P);
        }
        if expr.uses(Var::Pc) {
            dims.push(Dim::Pc);
        }
        if expr.uses(Var::Ps) {
            dims.push(Dim::Ps);
        }
        if expr.uses(Var::Nearby) || expr.uses(Var::Remotest) {
            dims.push(Dim::Cell);
        }
        Table { expr, dims, equality }
    }

    fn type_text(&self) -> String {
        let mut text = String::new();
        for dim in &self.dims {
            text.push_str(if *dim == Dim::Cell { "Cell -> " } else { "LastBucket -> " });
        }
        text.push_str("Bucket -> Bool");
        text
    }

    fn access(&self, name: &str) -> String {
        let mut text = name.to_string();
        for dim in &self.dims {
            text.push_str(match dim {
                Dim::P => "[P]",
                Dim::Pc => "[Pc[ColorAt[Sel]]]",
                Dim::Ps => "[Ps[ShapeAt[Sel]]]",
                Dim::Cell => "[Sel]",
            });
        }
        text.push_str("[Dest]");
        text
    }

    fn zero(depth: usize) -> String {
        (0..depth).fold("0".to_string(), |inner, _| format!("{{:{inner}}}"))
    }

    /// The nested map literal; `chosen` holds (p, pc, ps, cell) fixed so far.
    fn literal(&self, depth: usize, chosen: (Option<i32>, Option<i32>, Option<i32>, u8)) -> String {
        if depth == self.dims.len() {
            let (p, pc, ps, cell) = chosen;
            let mask = bucket_mask(self.expr, &Env::at(p, pc, ps, cell), self.equality);
            let mut entries: Vec<String> =
                (0..4).filter(|b| mask & (1 << b) != 0).map(|b| format!("b{b}: 1")).collect();
            entries.push(":0".to_string());
            return format!("{{{}}}", entries.join(", "));
        }
        let mut entries = Vec::new();
        match self.dims[depth] {
            Dim::Cell => {
                for cell in 1..=36u8 {
                    let inner = self.literal(depth + 1, (chosen.0, chosen.1, chosen.2, cell));
                    entries.push(format!("c{cell}: {inner}"));
                }
            }
            dim => {
                for value in LAST_VALUES {
                    let next = match dim {
                        Dim::P => (value, chosen.1, chosen.2, chosen.3),
                        Dim::Pc => (chosen.0, value, chosen.2, chosen.3),
                        _ => (chosen.0, chosen.1, value, chosen.3),
                    };
                    entries.push(format!("{}: {}", last_symbol(value), self.literal(depth + 1, next)));
                }
            }
        }
        entries.push(format!(":{}", Self::zero(self.dims.len() - depth)));
        format!("{{{}}}", entries.join(", "))
    }
}

/// RG text builder: declarations, then edges.
struct Out {
    text: String,
}

impl Out {
    fn line(&mut self, line: impl AsRef<str>) {
        self.text.push_str(line.as_ref());
        self.text.push('\n');
    }

    fn edge(&mut self, from: &str, to: &str, label: &str) {
        let _ = writeln!(self.text, "{from}, {to}: {label};");
    }
}

fn set(members: impl IntoIterator<Item = String>) -> String {
    format!("{{{}}}", members.into_iter().collect::<Vec<_>>().join(", "))
}

/// The largest value a counter needs: the counts in the file, the pieces and (attempts mode) the
/// error cap.
fn count_limit(file: &RuleFile) -> u32 {
    let pieces = match &file.board {
        Board::Fixed(pieces) => pieces.len() as u32,
        Board::Random { count, .. } => *count,
        Board::Missing => 0,
    };
    let counts = file.lines.iter().flat_map(|l| l.count.into_iter().chain(l.atoms.iter().filter_map(|a| a.count)));
    let errors = if file.mode == Mode::Attempts { file.max_errors } else { 0 };
    counts.chain([pieces, errors, 1]).max().unwrap_or(1)
}

/// Translates a checked rule file to RG text.
pub fn to_rg_text(file: &RuleFile) -> String {
    let mut out = Out { text: String::new() };
    let (shapes, colors) = shapes_and_colors(file);
    let limit = count_limit(file);
    let attempts = file.mode == Mode::Attempts;

    out.line("// Generated by Regula from a Rule Game file (spec/rules.md).");
    out.line(format!("type Player = {{{PLAYER}}};"));
    let mut scores: Vec<u32> = vec![0, 100];
    if attempts {
        scores = (0..file.max_errors).map(cleared_reward).chain([0]).collect();
    }
    scores.sort_unstable();
    scores.dedup();
    out.line(format!("type Score = {};", set(scores.iter().map(u32::to_string))));
    out.line(format!("type Cell = {};", set((1..=36).map(|c| format!("c{c}")))));
    out.line("type Bucket = {b0, b1, b2, b3};");
    out.line("type LastBucket = {none, b0, b1, b2, b3};");
    out.line(format!("type Shape = {};", set(std::iter::once("none".to_string()).chain(shapes.iter().cloned()))));
    out.line(format!("type Color = {};", set(std::iter::once("none".to_string()).chain(colors.iter().cloned()))));
    out.line(format!("type Line = {};", set((0..file.lines.len()).map(|i| format!("l{i}")))));
    out.line(format!("type Count = {};", set((0..=limit).map(|n| format!("n{n}")))));

    let dec: Vec<String> = (1..=limit).map(|n| format!("n{n}: n{}", n - 1)).collect();
    out.line(format!("const Dec: Count -> Count = {{{}, :n0}};", dec.join(", ")));
    let next: Vec<String> = (0..file.lines.len()).map(|i| format!("l{i}: l{}", (i + 1) % file.lines.len())).collect();
    out.line(format!("const NextLine: Line -> Line = {{{}, :l0}};", next.join(", ")));
    if attempts {
        let inc: Vec<String> = (0..limit).map(|n| format!("n{n}: n{}", n + 1)).collect();
        out.line(format!("const Inc: Count -> Count = {{{}, :n{limit}}};", inc.join(", ")));
        let reward: Vec<String> = (0..file.max_errors).map(|e| format!("n{e}: {}", cleared_reward(e))).collect();
        out.line(format!("const ClearedReward: Count -> Score = {{{}, :0}};", reward.join(", ")));
    }

    // Tables of the bucket expressions.
    let mut accesses: Vec<Vec<Option<String>>> = Vec::new();
    for (i, line) in file.lines.iter().enumerate() {
        let mut row = Vec::new();
        for (j, atom) in line.atoms.iter().enumerate() {
            row.push(atom.buckets.as_ref().map(|expr| {
                let table = Table::new(expr, file.equality);
                let name = format!("Buckets{i}_{j}");
                out.line(format!("const {name}: {} = {};", table.type_text(), table.literal(0, (None, None, None, 1))));
                table.access(&name)
            }));
        }
        accesses.push(row);
    }

    // State.
    let (pieces, left) = match &file.board {
        Board::Fixed(pieces) => (pieces.clone(), pieces.len() as u32),
        Board::Random { count, .. } => (Vec::new(), *count),
        Board::Missing => (Vec::new(), 0),
    };
    let shape_at: Vec<String> = pieces.iter().map(|p| format!("c{}: {}", p.cell, p.shape)).collect();
    let color_at: Vec<String> = pieces.iter().map(|p| format!("c{}: {}", p.cell, p.color)).collect();
    out.line(format!(
        "var ShapeAt: Cell -> Shape = {{{}}};",
        shape_at.into_iter().chain([":none".into()]).collect::<Vec<_>>().join(", ")
    ));
    out.line(format!(
        "var ColorAt: Cell -> Color = {{{}}};",
        color_at.into_iter().chain([":none".into()]).collect::<Vec<_>>().join(", ")
    ));
    out.line("var P: LastBucket = none;");
    out.line("var Pc: Color -> LastBucket = {:none};");
    out.line("var Ps: Shape -> LastBucket = {:none};");
    out.line("var ActiveLine: Line = l0;");
    out.line("var Sel: Cell = c1;");
    out.line("var Dest: Bucket = b0;");
    out.line(format!("var Left: Count = n{left};"));
    if attempts {
        out.line("var Errors: Count = n0;");
    }
    let mut resets: Vec<String> = Vec::new();
    for (i, line) in file.lines.iter().enumerate() {
        if let Some(count) = line.count {
            out.line(format!("var LineCount{i}: Count = n{count};"));
            resets.push(format!("LineCount{i} = n{count}"));
        }
        for (j, atom) in line.atoms.iter().enumerate() {
            if let Some(count) = atom.count {
                out.line(format!("var AtomCount{i}_{j}: Count = n{count};"));
                resets.push(format!("AtomCount{i}_{j} = n{count}"));
            }
        }
    }

    // Setup: a fixed board needs nothing; a random one is placed by `random`, a piece per move.
    if let Board::Random { count, cells, shapes: draw_shapes, colors: draw_colors, .. } = &file.board {
        out.line(format!("type DrawShape = {};", set(draw_shapes.iter().cloned())));
        out.line(format!("type DrawColor = {};", set(draw_colors.iter().cloned())));
        out.line(format!("var DrawnShape: DrawShape = {};", draw_shapes[0]));
        out.line(format!("var DrawnColor: DrawColor = {};", draw_colors[0]));
        let allowed: Vec<String> = cells.iter().map(|c| format!("c{c}: 1")).collect();
        out.line(format!("const Allowed: Cell -> Bool = {{{}, :0}};", allowed.join(", ")));
        out.edge("begin", "Place1", "player = random");
        for k in 1..=*count {
            let n = |s: &str| format!("Place{k}{s}");
            out.edge(&n(""), &n("a"), "Sel = Cell(*)");
            out.edge(&n("a"), &n("b"), "Allowed[Sel] == 1");
            out.edge(&n("b"), &n("c"), "ShapeAt[Sel] == none");
            out.edge(&n("c"), &n("d"), "$$ Sel");
            out.edge(&n("d"), &n("e"), "DrawnShape = DrawShape(*)");
            out.edge(&n("e"), &n("f"), "$$ DrawnShape");
            out.edge(&n("f"), &n("g"), "DrawnColor = DrawColor(*)");
            out.edge(&n("g"), &n("h"), "$$ DrawnColor");
            out.edge(&n("h"), &n("i"), "ShapeAt[Sel] = DrawnShape");
            out.edge(&n("i"), &n("j"), "ColorAt[Sel] = DrawnColor");
            // Canonical leftovers, so that equal boards are equal states.
            out.edge(&n("j"), &n("k"), "Sel = c1");
            out.edge(&n("k"), &n("l"), &format!("DrawnShape = {}", draw_shapes[0]));
            out.edge(&n("l"), &n("m"), &format!("DrawnColor = {}", draw_colors[0]));
            if k < *count {
                out.edge(&n("m"), &format!("Place{}", k + 1), "player = random");
            } else {
                out.edge(&n("m"), "Norm", "player = keeper");
            }
        }
    } else {
        out.edge("begin", "Norm", "");
    }

    // The keeper's normal form: end on an empty board, else make active the first line (from the
    // current one, cyclically, counters reset on entry) under which some move is accepted; if none,
    // stalemate.
    out.edge("Norm", "Cleared", "Left == n0");
    out.edge("Norm", "Check0", "Left != n0");
    out.edge(
        "Cleared",
        "ClearedScore",
        if attempts { "goals[solver] = ClearedReward[Errors]" } else { "goals[solver] = 100" },
    );
    out.edge("ClearedScore", "end", "player = keeper");
    let lines = file.lines.len();
    for k in 0..=lines {
        out.edge(&format!("Check{k}"), &format!("Go{k}"), "? AnyBegin -> AccEnd");
        out.edge(&format!("Go{k}"), "Turn", &format!("player = {PLAYER}"));
        out.edge(&format!("Check{k}"), &format!("Advance{k}"), "! AnyBegin -> AccEnd");
        if k < lines {
            let mut from = format!("Advance{k}");
            let steps = std::iter::once("ActiveLine = NextLine[ActiveLine]".to_string()).chain(resets.iter().cloned());
            for (s, step) in steps.enumerate() {
                let to = format!("Advance{k}_{s}");
                out.edge(&from, &to, &step);
                from = to;
            }
            out.edge(&from, &format!("Check{}", k + 1), "");
        } else {
            out.edge(&format!("Advance{k}"), "Stalemate", "goals[solver] = 0");
            out.edge("Stalemate", "end", "player = keeper");
        }
    }

    // The player's move: a piece (its cell) and a bucket.
    out.edge("Turn", "Pick", "Sel = Cell(*)");
    out.edge("Pick", "Picked", "ShapeAt[Sel] != none");
    out.edge("Picked", "PickTag", "$$ Sel");
    out.edge("PickTag", "Drop", "Dest = Bucket(*)");
    out.edge("Drop", "Dropped", "$$ Dest");
    if attempts {
        out.edge("Dropped", "Judge", "player = keeper");
        out.edge("Judge", "Accepted", "? AccBegin -> AccEnd");
        out.edge("Accepted", "Apply", "$ accept");
        out.edge("Judge", "Refused", "! AccBegin -> AccEnd");
        out.edge("Refused", "Deny", "? PieceBegin -> AccEnd");
        out.edge("Deny", "Counted", "$ deny");
        out.edge("Refused", "Immovable", "! PieceBegin -> AccEnd");
        out.edge("Immovable", "Counted", "$ immovable");
        out.edge("Counted", "CountedError", "Errors = Inc[Errors]");
        out.edge("CountedError", "Capped", &format!("Errors == n{}", file.max_errors));
        out.edge("Capped", "CappedScore", "goals[solver] = 0");
        out.edge("CappedScore", "end", "player = keeper");
        out.edge("CountedError", "Again", &format!("Errors != n{}", file.max_errors));
        out.edge("Again", "Turn", &format!("player = {PLAYER}"));
    } else {
        out.edge("Dropped", "Checked", "? AccBegin -> AccEnd");
        out.edge("Checked", "Apply", "player = keeper");
    }

    // Applying an accepted move: counters of the active line and of its accepting atoms, then
    // p, pc, ps, the piece leaves.
    for (i, line) in file.lines.iter().enumerate() {
        let mut from = format!("Apply{i}");
        out.edge("Apply", &from, &format!("ActiveLine == l{i}"));
        if line.count.is_some() {
            let to = format!("Apply{i}_line");
            out.edge(&from, &to, &format!("LineCount{i} = Dec[LineCount{i}]"));
            from = to;
        }
        for (j, atom) in line.atoms.iter().enumerate() {
            if atom.count.is_some() {
                let yes = format!("Apply{i}_{j}_yes");
                let to = format!("Apply{i}_{j}");
                out.edge(&from, &yes, &format!("? Atom{i}_{j} -> AccEnd"));
                out.edge(&yes, &to, &format!("AtomCount{i}_{j} = Dec[AtomCount{i}_{j}]"));
                out.edge(&from, &to, &format!("! Atom{i}_{j} -> AccEnd"));
                from = to;
            }
        }
        out.edge(&from, "Update", "");
    }
    let updates = [
        "P = Dest",
        "Pc[ColorAt[Sel]] = Dest",
        "Ps[ShapeAt[Sel]] = Dest",
        "ShapeAt[Sel] = none",
        "ColorAt[Sel] = none",
        "Left = Dec[Left]",
    ];
    let mut from = "Update".to_string();
    for (s, update) in updates.iter().enumerate() {
        let to = if s + 1 == updates.len() { "Norm".to_string() } else { format!("Update{s}") };
        out.edge(&from, &to, update);
        from = to;
    }

    // Acceptance of (Sel, Dest) by the active line: reachable from AccBegin to AccEnd iff accepted.
    out.edge("AnyBegin", "AnyPick", "Sel = Cell(*)");
    out.edge("AnyPick", "PieceBegin", "ShapeAt[Sel] != none");
    out.edge("PieceBegin", "PieceDrop", "Dest = Bucket(*)");
    out.edge("PieceDrop", "AccBegin", "");
    for (i, line) in file.lines.iter().enumerate() {
        let head = format!("AccLine{i}");
        out.edge("AccBegin", &head, &format!("ActiveLine == l{i}"));
        let ok = format!("AccLine{i}Ok");
        out.edge(&head, &ok, &if line.count.is_some() { format!("LineCount{i} != n0") } else { String::new() });
        for (j, atom) in line.atoms.iter().enumerate() {
            let start = format!("Atom{i}_{j}");
            out.edge(&ok, &start, "");
            atom_edges(&mut out, file, i, j, atom, accesses[i][j].as_deref());
        }
    }
    out.text
}

fn atom_edges(out: &mut Out, file: &RuleFile, i: usize, j: usize, atom: &Atom, access: Option<&str>) {
    let node = |s: &str| format!("Atom{i}_{j}{s}");
    out.edge(
        &node(""),
        &node("_counted"),
        &if atom.count.is_some() { format!("AtomCount{i}_{j} != n0") } else { String::new() },
    );
    match &atom.shapes {
        None => out.edge(&node("_counted"), &node("_shape"), "ShapeAt[Sel] != none"),
        Some(shapes) => {
            for shape in shapes {
                out.edge(&node("_counted"), &node("_shape"), &format!("ShapeAt[Sel] == {shape}"));
            }
        }
    }
    match &atom.colors {
        None => out.edge(&node("_shape"), &node("_color"), ""),
        Some(colors) => {
            for color in colors {
                out.edge(&node("_shape"), &node("_color"), &format!("ColorAt[Sel] == {color}"));
            }
        }
    }
    let (from, to) = (node("_color"), node("_pos"));
    match &atom.positions {
        None => out.edge(&from, &to, ""),
        Some(positions) => {
            for (e, position) in positions.iter().enumerate() {
                match position {
                    Position::Cell(cell) => out.edge(&from, &to, &format!("Sel == c{cell}")),
                    Position::Order { name, .. } => {
                        // Tier t accepts its cells once every earlier tier is empty.
                        let tiers = order_tiers(file, name);
                        let mut tier_node = from.clone();
                        for (t, tier) in tiers.iter().enumerate() {
                            for cell in tier {
                                out.edge(&tier_node, &to, &format!("Sel == c{cell}"));
                            }
                            if t + 1 < tiers.len() {
                                let mut empty_from = tier_node.clone();
                                for (m, cell) in tier.iter().enumerate() {
                                    let next = if m + 1 == tier.len() {
                                        node(&format!("_o{e}t{}", t + 1))
                                    } else {
                                        node(&format!("_o{e}t{t}e{m}"))
                                    };
                                    out.edge(&empty_from, &next, &format!("ShapeAt[c{cell}] == none"));
                                    empty_from = next;
                                }
                                tier_node = node(&format!("_o{e}t{}", t + 1));
                            }
                        }
                    }
                }
            }
        }
    }
    match access {
        None => out.edge(&to, "AccEnd", ""),
        Some(access) => out.edge(&to, "AccEnd", &format!("{access} == 1")),
    }
}

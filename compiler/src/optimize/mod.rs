//! The optimiser: passes over the automaton that keep a game's meaning (legal moves as tag
//! sequences, successor states up to variables nobody reads, keeper moves, visibility, scores)
//! and make it smaller or faster to search. See `spec/optimize.md`.
//!
//! A validated [`Game`] becomes an [`Automaton`] (a petgraph graph plus the declarations), the
//! enabled passes run in a fixed order until none changes anything (bounded by
//! [`MAX_ROUNDS`]), then the pragma calculators run once, and the result goes back to a [`Game`].

pub mod env;
pub mod graph;
pub mod stats;
pub mod value_sets;

pub(crate) mod dominating;

mod calculate_disjoints;
mod calculate_uniques;
mod compact_skip_edges;
mod defer_move_tails;
mod inline_reachability;
mod join_fork_prefixes;
mod join_fork_suffixes;
mod merge_accesses;
mod merge_player_twins;
mod propagate_constants;
mod propagate_copies;
mod prune_dead_assignments;
mod prune_unreachable_nodes;
mod prune_unused_constants;
mod prune_unused_variables;
mod skip_self_assignments;
mod skip_self_comparisons;
mod specialize_checks;

#[cfg(test)]
pub(crate) mod testing;

pub use graph::Automaton;
pub use stats::{stats, GameStats};

use crate::rg::ast::Game;
use std::fmt;

/// One optimisation pass or pragma calculator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pass {
    SkipSelfAssignments,
    SkipSelfComparisons,
    SpecializeChecks,
    PropagateCopies,
    PropagateConstants,
    InlineReachability,
    MergeAccesses,
    PruneDeadAssignments,
    PruneUnreachableNodes,
    CompactSkipEdges,
    JoinForkPrefixes,
    JoinForkSuffixes,
    DeferMoveTails,
    PruneUnusedVariables,
    PruneUnusedConstants,
    CalculateDisjoints,
    CalculateUniques,
}

impl Pass {
    /// Every pass, in the order the driver runs them.
    pub const ALL: [Pass; 17] = [
        Pass::SkipSelfAssignments,
        Pass::SkipSelfComparisons,
        Pass::SpecializeChecks,
        Pass::PropagateCopies,
        Pass::PropagateConstants,
        Pass::InlineReachability,
        Pass::MergeAccesses,
        Pass::PruneDeadAssignments,
        Pass::PruneUnreachableNodes,
        Pass::CompactSkipEdges,
        Pass::JoinForkPrefixes,
        Pass::JoinForkSuffixes,
        Pass::DeferMoveTails,
        Pass::PruneUnusedVariables,
        Pass::PruneUnusedConstants,
        Pass::CalculateDisjoints,
        Pass::CalculateUniques,
    ];

    /// The pass's name on the command line (Regular Games' names).
    pub fn name(self) -> &'static str {
        match self {
            Pass::SkipSelfAssignments => "skip_self_assignments",
            Pass::SkipSelfComparisons => "skip_self_comparisons",
            Pass::SpecializeChecks => "specialize_checks",
            Pass::PropagateCopies => "propagate_copies",
            Pass::PropagateConstants => "propagate_constants",
            Pass::InlineReachability => "inline_reachability",
            Pass::MergeAccesses => "merge_accesses",
            Pass::PruneDeadAssignments => "prune_dead_assignments",
            Pass::PruneUnreachableNodes => "prune_unreachable_nodes",
            Pass::CompactSkipEdges => "compact_skip_edges",
            Pass::JoinForkPrefixes => "join_fork_prefixes",
            Pass::JoinForkSuffixes => "join_fork_suffixes",
            Pass::DeferMoveTails => "defer_move_tails",
            Pass::PruneUnusedVariables => "prune_unused_variables",
            Pass::PruneUnusedConstants => "prune_unused_constants",
            Pass::CalculateDisjoints => "calculate_disjoints",
            Pass::CalculateUniques => "calculate_uniques",
        }
    }

    /// Pragma calculators only add hints; they run once, after the optimisations settle.
    pub fn is_pragma_calculator(self) -> bool {
        matches!(self, Pass::CalculateDisjoints | Pass::CalculateUniques)
    }

    pub fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.into_iter().find(|pass| pass.name() == name)
    }

    /// Runs the pass once; returns how many changes it made (0: the game is unchanged).
    pub fn run(self, automaton: &mut Automaton) -> usize {
        match self {
            Pass::SkipSelfAssignments => skip_self_assignments::run(automaton),
            Pass::SkipSelfComparisons => skip_self_comparisons::run(automaton),
            Pass::SpecializeChecks => specialize_checks::run(automaton),
            Pass::PropagateCopies => propagate_copies::run(automaton),
            Pass::PropagateConstants => propagate_constants::run(automaton),
            Pass::InlineReachability => inline_reachability::run(automaton),
            Pass::MergeAccesses => merge_accesses::run(automaton),
            Pass::PruneDeadAssignments => prune_dead_assignments::run(automaton),
            Pass::PruneUnreachableNodes => prune_unreachable_nodes::run(automaton),
            Pass::CompactSkipEdges => compact_skip_edges::run(automaton),
            Pass::JoinForkPrefixes => join_fork_prefixes::run(automaton),
            Pass::JoinForkSuffixes => join_fork_suffixes::run(automaton),
            Pass::DeferMoveTails => defer_move_tails::run(automaton),
            Pass::PruneUnusedVariables => prune_unused_variables::run(automaton),
            Pass::PruneUnusedConstants => prune_unused_constants::run(automaton),
            Pass::CalculateDisjoints => calculate_disjoints::run(automaton),
            Pass::CalculateUniques => calculate_uniques::run(automaton),
        }
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A pass name that [`PassSet::parse`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPass {
    pub name: String,
    /// The known name closest to the one given, when one is close.
    pub suggestion: Option<&'static str>,
}

impl fmt::Display for UnknownPass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown optimisation pass `{}`", self.name)?;
        if let Some(suggestion) = self.suggestion {
            write!(f, "; did you mean `{suggestion}`?")?;
        }
        let names: Vec<&str> = Pass::ALL.iter().map(|p| p.name()).collect();
        write!(f, " (known passes: all, none, {})", names.join(", "))
    }
}

impl std::error::Error for UnknownPass {}

/// Which passes to run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassSet {
    enabled: Vec<Pass>,
}

impl PassSet {
    pub fn all() -> PassSet {
        PassSet { enabled: Pass::ALL.to_vec() }
    }

    pub fn none() -> PassSet {
        PassSet::default()
    }

    /// The passes the fast engine runs on by default (`regula run`, `regula perft`, the benchmarks):
    /// every pass but `join_fork_suffixes`, whose merged nodes can become merge points on cycles,
    /// where the fast engine records visited states (hex runs 5 % more instructions with it).
    pub fn for_fast_engine() -> PassSet {
        PassSet { enabled: Pass::ALL.into_iter().filter(|&pass| pass != Pass::JoinForkSuffixes).collect() }
    }

    /// Parses a comma-separated list of pass names; `all` and `none` are accepted as items.
    /// Order in the list does not matter: enabled passes always run in [`Pass::ALL`] order.
    pub fn parse(list: &str) -> Result<PassSet, UnknownPass> {
        let mut set = PassSet::none();
        for item in list.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            match item {
                "all" => set = PassSet::all(),
                "none" => set = PassSet::none(),
                name => match Pass::from_name(name) {
                    Some(pass) => set.insert(pass),
                    None => return Err(UnknownPass { name: name.to_string(), suggestion: closest_pass_name(name) }),
                },
            }
        }
        Ok(set)
    }

    pub fn insert(&mut self, pass: Pass) {
        if !self.enabled.contains(&pass) {
            self.enabled.push(pass);
            self.enabled.sort();
        }
    }

    pub fn contains(&self, pass: Pass) -> bool {
        self.enabled.contains(&pass)
    }

    /// The enabled passes in running order.
    pub fn passes(&self) -> impl Iterator<Item = Pass> + '_ {
        self.enabled.iter().copied()
    }
}

fn closest_pass_name(name: &str) -> Option<&'static str> {
    let (distance, best) =
        Pass::ALL.iter().map(|pass| (edit_distance(name, pass.name()), pass.name())).min_by_key(|(d, _)| *d)?;
    let contains = Pass::ALL.iter().map(|p| p.name()).find(|known| known.contains(name) && name.len() >= 4);
    if distance <= 3.max(name.len() / 3) {
        Some(best)
    } else {
        contains
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous_diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous_diagonal + usize::from(ca != *cb);
            previous_diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// What one pass did during an [`optimize`] run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassStats {
    pub pass: Pass,
    /// How many times the pass ran.
    pub runs: usize,
    /// How many changes it made over all runs.
    pub changes: usize,
}

/// Rounds of the optimisation loop before the driver stops even if passes still change things.
pub const MAX_ROUNDS: usize = 64;

/// Runs the enabled passes over a validated game: the optimisations in rounds until a whole round
/// changes nothing (at most [`MAX_ROUNDS`]), then the pragma calculators once.
pub fn optimize(game: &Game, passes: &PassSet) -> (Game, Vec<PassStats>) {
    let mut automaton = Automaton::from_game(game);
    let mut stats: Vec<PassStats> = passes.passes().map(|pass| PassStats { pass, runs: 0, changes: 0 }).collect();
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for entry in stats.iter_mut().filter(|entry| !entry.pass.is_pragma_calculator()) {
            let changes = entry.pass.run(&mut automaton);
            entry.runs += 1;
            entry.changes += changes;
            changed |= changes > 0;
        }
        if !changed {
            break;
        }
    }
    for entry in stats.iter_mut().filter(|entry| entry.pass.is_pragma_calculator()) {
        entry.changes += entry.pass.run(&mut automaton);
        entry.runs += 1;
    }
    (automaton.to_game(), stats)
}

/// Merges two player twins (see `merge_player_twins`; not a [`Pass`]: only the code generator
/// runs it) and optimises the result again; `None` when the game has no twins.
pub fn merge_player_twins(game: &Game, passes: &PassSet) -> Option<Game> {
    let mut automaton = Automaton::from_game(game);
    (merge_player_twins::run(&mut automaton) > 0).then(|| optimize(&automaton.to_game(), passes).0)
}

/// Runs one pass once (for showing each pass's effect on its own). Returns the game and the
/// number of changes.
pub fn run_pass(game: &Game, pass: Pass) -> (Game, usize) {
    let mut automaton = Automaton::from_game(game);
    let changes = pass.run(&mut automaton);
    (automaton.to_game(), changes)
}

#[cfg(test)]
mod tests {
    use super::testing::{parse, print};
    use super::*;

    #[test]
    fn pass_lists_parse_and_unknown_names_get_suggestions() {
        let set = PassSet::parse(" compact_skip_edges, prune_unreachable_nodes ,").unwrap();
        let names: Vec<&str> = set.passes().map(Pass::name).collect();
        assert_eq!(names, ["prune_unreachable_nodes", "compact_skip_edges"]);
        assert_eq!(PassSet::parse("all").unwrap(), PassSet::all());
        assert_eq!(PassSet::parse("all,none").unwrap(), PassSet::none());
        let error = PassSet::parse("compact_skip_edge").unwrap_err();
        assert_eq!(error.suggestion, Some("compact_skip_edges"));
        assert!(error.to_string().starts_with("unknown optimisation pass `compact_skip_edge`; did you mean"));
        assert_eq!(PassSet::parse("zzz").unwrap_err().suggestion, None);
        for pass in Pass::ALL {
            assert_eq!(Pass::from_name(pass.name()), Some(pass));
        }
    }

    #[test]
    fn no_passes_give_back_the_same_game() {
        let source = "type Player = {x}; type Score = {0};
             begin, a: player = x;
             var v: Player = x;
             a, b: $ t;
             @custom a b;
             a, c: ;
             c, end: player = keeper;
             b, end: player = keeper;";
        let game = parse(source);
        let (optimized, stats) = optimize(&game, &PassSet::none());
        assert_eq!(optimized, game);
        assert!(stats.is_empty());
    }

    #[test]
    fn all_passes_reach_a_fixed_point() {
        let game = parse(
            "type Player = {x}; type Score = {0, 1}; type C = {a, b, null};
             const next: C -> C = {a: b, :null};
             var v: C = a; var unused: C = a;
             begin, s: ;
             s, turn: player = x;
             turn, t1: v == a;
             turn, t2: v == b;
             t1, u1: unused = b;
             t2, u2: unused = a;
             u1, w: $ go;
             u2, w: $ go;
             w, x1: v = next[next[v]];
             x1, x2: v = v;
             x2, fin: ;
             fin, end: player = keeper;
             island, end: ;",
        );
        let (optimized, stats) = optimize(&game, &PassSet::all());
        let (again, _) = optimize(&optimized, &PassSet::parse("all").unwrap());
        let without_pragmas = |g: &Game| Game {
            decls: g.decls.iter().filter(|d| !matches!(d, crate::rg::ast::Decl::Pragma(_))).cloned().collect(),
        };
        assert_eq!(without_pragmas(&again), without_pragmas(&optimized), "a second run changes nothing");
        assert!(stats.iter().all(|s| s.runs >= 1));
        insta::assert_snapshot!(print(&optimized));
    }
}

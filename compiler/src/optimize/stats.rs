//! Size measures of a game (`regula stats`): nodes, edges by label kind, declarations, pragmas and
//! the size of a state in slots (one slot holds one symbol).

use super::env::Env;
use super::graph::Automaton;
use crate::rg::ast::{Decl, Game, Label};
use std::collections::HashSet;
use std::fmt;

/// Edge counts by label kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EdgeKinds {
    pub skip: usize,
    pub assign: usize,
    pub assign_any: usize,
    pub compare: usize,
    pub reach: usize,
    pub tag: usize,
    pub tag_var: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    pub nodes: usize,
    pub edges: usize,
    pub edge_kinds: EdgeKinds,
    /// Declared variables plus the built-ins (`player`, `goals`, `visible`) when not declared.
    pub variables: usize,
    pub constants: usize,
    pub typedefs: usize,
    /// Symbols stored per state: a set-typed variable takes one, a map `K -> V` takes |K| × size(V).
    /// `None` when a variable's type cannot be resolved.
    pub state_slots: Option<u64>,
    pub pragmas: usize,
    /// Nodes named by `@unique` pragmas.
    pub unique_nodes: usize,
    /// Nodes with more than one out-edge.
    pub branching_nodes: usize,
}

/// Measures a game (validated or not; unresolvable types leave `state_slots` empty).
pub fn stats(game: &Game) -> GameStats {
    let automaton = Automaton::from_game(game);
    let env = Env::new(&automaton);
    let mut kinds = EdgeKinds::default();
    for edge in game.edges() {
        let counter = match edge.label {
            Label::Skip => &mut kinds.skip,
            Label::Assign { .. } => &mut kinds.assign,
            Label::AssignAny { .. } => &mut kinds.assign_any,
            Label::Compare { .. } => &mut kinds.compare,
            Label::Reach { .. } => &mut kinds.reach,
            Label::Tag(_) => &mut kinds.tag,
            Label::TagVar(_) => &mut kinds.tag_var,
        };
        *counter += 1;
    }
    let state_slots = env.variables().map(|(_, ty)| env.slots(ty)).try_fold(0u64, |sum, slots| sum.checked_add(slots?));
    let unique: HashSet<&String> = game.pragmas().filter(|p| p.name.name == "unique").flat_map(|p| &p.tokens).collect();
    GameStats {
        nodes: automaton.graph.node_count(),
        edges: automaton.graph.edge_count(),
        edge_kinds: kinds,
        variables: env.variables().count(),
        constants: game.constants().count(),
        typedefs: game.decls.iter().filter(|d| matches!(d, Decl::Type(_))).count(),
        state_slots,
        pragmas: game.pragmas().count(),
        unique_nodes: unique.iter().filter(|name| automaton.node(name).is_some()).count(),
        branching_nodes: automaton.graph.node_indices().filter(|&n| automaton.out_edges(n).len() > 1).count(),
    }
}

impl fmt::Display for GameStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = &self.edge_kinds;
        writeln!(f, "nodes            {}", self.nodes)?;
        writeln!(f, "edges            {}", self.edges)?;
        writeln!(f, "  skip           {}", k.skip)?;
        writeln!(f, "  assign         {}", k.assign)?;
        writeln!(f, "  assign any     {}", k.assign_any)?;
        writeln!(f, "  compare        {}", k.compare)?;
        writeln!(f, "  reachability   {}", k.reach)?;
        writeln!(f, "  tag            {}", k.tag)?;
        writeln!(f, "  tag variable   {}", k.tag_var)?;
        writeln!(f, "branching nodes  {}", self.branching_nodes)?;
        writeln!(f, "variables        {}", self.variables)?;
        writeln!(f, "constants        {}", self.constants)?;
        writeln!(f, "typedefs         {}", self.typedefs)?;
        match self.state_slots {
            Some(slots) => writeln!(f, "state slots      {slots}")?,
            None => writeln!(f, "state slots      unknown")?,
        }
        writeln!(f, "pragmas          {}", self.pragmas)?;
        write!(f, "unique nodes     {}", self.unique_nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optimize::testing::parse;

    #[test]
    fn counts_a_small_game() {
        let game = parse(
            "type Player = {x, o}; type Score = {0, 1}; type Cell = {a, b, c}; type Board = Cell -> Player;
             const first: Cell = a;
             var board: Board = {:x}; var pos: Cell = a;
             begin, n1: pos = Cell(*);
             n1, n2: board[pos] == x;
             n1, n3: ;
             n2, n3: $$ pos;
             n3, n4: $ done;
             n4, end: player = keeper;
             @unique n1 n2 gone;",
        );
        let s = stats(&game);
        assert_eq!((s.nodes, s.edges, s.variables, s.constants, s.typedefs, s.pragmas), (6, 6, 5, 1, 4, 1));
        assert_eq!(
            s.edge_kinds,
            EdgeKinds { skip: 1, assign: 1, assign_any: 1, compare: 1, reach: 0, tag: 1, tag_var: 1 }
        );
        // board 3 + pos 1 + player 1 + goals 2 + visible 2.
        assert_eq!(s.state_slots, Some(9));
        assert_eq!((s.unique_nodes, s.branching_nodes), (2, 1));
    }
}

//! Tag depths: per node, the number of tags every move-search path from a start to it has
//! pushed, where that number is the same on every such path.
//!
//! A move search starts with no tag (at `begin` or at the target of an edge assigning
//! `player`) and follows the edges within one move (not those assigning `player`); each tag
//! edge adds one tag. So a node's depth is fixed when all its walked in-edges bring the same
//! count, and a cycle keeps its nodes' depths fixed exactly when it carries no tag (a tag on a
//! cycle gives its nodes depth `d` and `d + 1`). A move search whose every node has a fixed
//! depth pushes at most the largest depth tags, cycle or not: amazons' and chess's slides carry
//! no tag, so their moves have three and two tags however long the slide. Cost: one pass over
//! the edges per change of a node's depth (each node changes at most twice).

use regula_runtime::automaton::Automaton;
use regula_runtime::compiled::{Plan, PlanOp};

/// The tags on the paths reaching one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Depth {
    /// No move-search path reaches the node.
    Unreached,
    /// Every path reaching the node pushed this many tags.
    Fixed(u32),
    /// Two paths pushed different numbers of tags.
    Varies,
}

impl Depth {
    /// The depth after an edge from a node of this depth (one more tag on a tag edge).
    fn after(self, tag: bool) -> Depth {
        match self {
            Depth::Fixed(depth) => Depth::Fixed(depth + u32::from(tag)),
            other => other,
        }
    }

    /// The depth of a node reached with `self` and with `other`.
    fn join(self, other: Depth) -> Depth {
        match (self, other) {
            (Depth::Unreached, depth) | (depth, Depth::Unreached) => depth,
            (Depth::Fixed(a), Depth::Fixed(b)) if a == b => Depth::Fixed(a),
            _ => Depth::Varies,
        }
    }
}

/// The [`Depth`] of every node (indexed by node id): `is_start[n]` marks where a move search
/// starts, `completes[e]` the edges assigning `player` (where a move ends: not followed).
pub(crate) fn tag_depths(automaton: &Automaton, plan: &Plan, completes: &[bool], is_start: &[bool]) -> Vec<Depth> {
    let count = automaton.nodes.len();
    let mut depths: Vec<Depth> =
        is_start.iter().map(|&start| if start { Depth::Fixed(0) } else { Depth::Unreached }).collect();
    let mut pending: Vec<usize> = (0..count).filter(|&n| is_start[n]).collect();
    while let Some(node) = pending.pop() {
        for edge in automaton.nodes[node].edges.clone() {
            let edge = edge as usize;
            if completes[edge] {
                continue;
            }
            let tag = matches!(plan.ops[edge], PlanOp::Tag(_) | PlanOp::TagExpr(_));
            let target = automaton.edges[edge].target as usize;
            let joined = depths[target].join(depths[node].after(tag));
            if joined != depths[target] {
                depths[target] = joined;
                pending.push(target);
            }
        }
    }
    depths
}

/// The most tags a move can have when every node a move search reaches has a fixed depth:
/// the largest depth. `None` when some node's depth varies.
pub(crate) fn max_fixed_depth(depths: &[Depth]) -> Option<u32> {
    depths.iter().try_fold(0, |max, depth| match depth {
        Depth::Unreached => Some(max),
        Depth::Fixed(depth) => Some(max.max(*depth)),
        Depth::Varies => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    /// The depths of the automaton with these edges (over one square variable `pos`, a step
    /// table `up` and a board), by node name.
    fn depths_of(edges: &[(&str, &str, &str)]) -> Vec<(String, Depth)> {
        let mut builder = AutomatonBuilder::new();
        builder.typedef("Player", "{x}").typedef("Score", "{0, 100}").typedef("Sq", "{s1, s2, s3, off}");
        builder.typedef("Content", "{empty, wall}").typedef("Board", "Sq -> Content").typedef("Step", "Sq -> Sq");
        builder.constant("up", "Step", "{s1: s2, s2: s3, :off}");
        builder.variable("pos", "Sq", "s1").variable("board", "Board", "{off: wall, :empty}");
        for (from, to, label) in edges {
            builder.edge(from, to, label);
        }
        let automaton = builder.build().expect("the test automaton builds");
        let plan = Plan::new(&automaton).expect("the test automaton lowers");
        let completes: Vec<bool> =
            plan.ops.iter().map(|op| matches!(op, PlanOp::Assign { sets_player: true, .. })).collect();
        let mut is_start = vec![false; automaton.nodes.len()];
        is_start[automaton.begin as usize] = true;
        for (edge, &completing) in automaton.edges.iter().zip(&completes) {
            if completing {
                is_start[edge.target as usize] = true;
            }
        }
        let depths = tag_depths(&automaton, &plan, &completes, &is_start);
        automaton.nodes.iter().map(|n| n.name.clone()).zip(depths).collect()
    }

    fn depth(depths: &[(String, Depth)], node: &str) -> Depth {
        depths.iter().find(|(name, _)| name == node).expect("the node exists").1
    }

    /// A slide (`pos = up[pos]` while free) between two tags: a cycle without a tag.
    const SLIDE: [(&str, &str, &str); 6] = [
        ("begin", "choose", "player = x"),
        ("choose", "walk", "$$ pos"),
        ("walk", "free", "pos = up[pos]"),
        ("free", "walk", "board[pos] == empty"),
        ("free", "done", "$$ pos"),
        ("done", "end", "player = keeper"),
    ];

    #[test]
    fn a_cycle_without_tags_keeps_its_depths_fixed() {
        let depths = depths_of(&SLIDE);
        assert_eq!(depth(&depths, "choose"), Depth::Fixed(0));
        assert_eq!(depth(&depths, "walk"), Depth::Fixed(1));
        assert_eq!(depth(&depths, "free"), Depth::Fixed(1));
        assert_eq!(depth(&depths, "done"), Depth::Fixed(2));
        // `end` starts the keeper's search, which the `player = keeper` edge does not enter.
        assert_eq!(depth(&depths, "end"), Depth::Fixed(0));
        let values: Vec<Depth> = depths.iter().map(|(_, d)| *d).collect();
        assert_eq!(max_fixed_depth(&values), Some(2));
    }

    #[test]
    fn a_tag_on_a_cycle_or_paths_with_different_tag_counts_make_depths_vary() {
        // The slide tags every square it passes: the cycle carries a tag.
        let mut tagged_cycle = SLIDE.to_vec();
        tagged_cycle[3] = ("free", "tagged", "board[pos] == empty");
        tagged_cycle.push(("tagged", "walk", "$$ pos"));
        let depths = depths_of(&tagged_cycle);
        assert_eq!(depth(&depths, "walk"), Depth::Varies);
        assert_eq!(depth(&depths, "done"), Depth::Varies);
        let values: Vec<Depth> = depths.iter().map(|(_, d)| *d).collect();
        assert_eq!(max_fixed_depth(&values), None);
        // No cycle, but `done` is reached after one tag or after none.
        let merge = [
            ("begin", "choose", "player = x"),
            ("choose", "tagged", "$$ pos"),
            ("tagged", "done", "board[pos] == empty"),
            ("choose", "done", "board[pos] == wall"),
            ("done", "end", "player = keeper"),
        ];
        let depths = depths_of(&merge);
        assert_eq!(depth(&depths, "tagged"), Depth::Fixed(1));
        assert_eq!(depth(&depths, "done"), Depth::Varies);
    }
}

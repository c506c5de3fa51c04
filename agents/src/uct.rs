//! UCT: Monte Carlo tree search with UCB1 selection and uniformly random rollouts.
//!
//! Each simulation walks down the tree from the root: at a player node it first tries the
//! children never visited (in random order), then the child maximising
//! `mean return of the node's mover + c·sqrt(ln N / n)`; at a chance node it samples an outcome
//! by its probability. The first node reached that had never been visited is scored by a random
//! rollout ([`SearchModel::random_rollout`]) and the return vector (one entry per player, in
//! `[0, 1]`) is added to every node on the path. The move played is the root's most visited
//! child (ties: the better mean, then the engine's order). Nodes are expanded (all successors
//! generated at once) on their second visit, so leaves cost a rollout only.
//!
//! A perfect-information agent: it searches from the true state, so in hidden-information games
//! it sees the hidden moves (use [`crate::ismcts::IsMcts`] there).

use crate::{options, sample_weighted, Agent, AgentError, Options, Returns, SearchConfig, SearchModel, Turn};
use regula_runtime::engine::{ForwardModel, Move, Mover};
use regula_runtime::playout::Xoshiro256;

/// The UCT agent.
#[derive(Clone, Debug)]
pub struct Uct {
    config: SearchConfig,
}

struct Node<S> {
    state: S,
    mover: Mover,
    visits: u32,
    /// Sum of the returns of the simulations through this node, per player.
    totals: Vec<f64>,
    /// Generated on the node's second visit.
    children: Option<Vec<Child>>,
}

struct Child {
    tags: Move,
    node: usize,
    /// The outcome's probability at a chance node (unused elsewhere).
    probability: f64,
}

/// The search tree of one decision: nodes in an arena, the root at index 0.
pub struct Tree<S> {
    nodes: Vec<Node<S>>,
    players: usize,
}

impl<S: Clone> Tree<S> {
    fn new<M: ForwardModel<State = S>>(model: &M, root: &S) -> Self {
        let players = model.automaton().players.len();
        let mut tree = Tree { nodes: Vec::new(), players };
        tree.add(model, root.clone());
        tree
    }

    fn add<M: ForwardModel<State = S>>(&mut self, model: &M, state: S) -> usize {
        let mover = model.to_move(&state);
        self.nodes.push(Node { state, mover, visits: 0, totals: vec![0.0; self.players], children: None });
        self.nodes.len() - 1
    }

    fn expand<M: ForwardModel<State = S>>(&mut self, model: &M, index: usize) -> Result<(), AgentError> {
        let state = &self.nodes[index].state;
        let successors = model.successors(state)?;
        let probabilities: Vec<f64> = if self.nodes[index].mover == Mover::Random {
            let outcomes = model.chance_outcomes(state)?;
            successors
                .iter()
                .map(|(tags, _)| outcomes.iter().find(|(m, _)| m == tags).map_or(0.0, |(_, p)| *p))
                .collect()
        } else {
            vec![0.0; successors.len()]
        };
        let mut children = Vec::with_capacity(successors.len());
        for ((tags, state), probability) in successors.into_iter().zip(probabilities) {
            let node = self.add(model, state);
            children.push(Child { tags, node, probability });
        }
        self.nodes[index].children = Some(children);
        Ok(())
    }

    /// The child to descend into from an expanded node.
    fn select(&self, index: usize, exploration: f64, rng: &mut Xoshiro256) -> usize {
        let node = &self.nodes[index];
        let children = node.children.as_deref().unwrap_or_default();
        match node.mover {
            Mover::Random => {
                let weights: Vec<f64> = children.iter().map(|c| c.probability).collect();
                children[sample_weighted(&weights, rng)].node
            }
            Mover::Player(player) => {
                let unvisited: Vec<usize> =
                    children.iter().map(|c| c.node).filter(|&n| self.nodes[n].visits == 0).collect();
                if !unvisited.is_empty() {
                    return unvisited[rng.below(unvisited.len() as u64) as usize];
                }
                let log_visits = (node.visits.max(1) as f64).ln();
                let ucb = |n: usize| {
                    let child = &self.nodes[n];
                    let visits = child.visits as f64;
                    child.totals[player] / visits + exploration * (log_visits / visits).sqrt()
                };
                children
                    .iter()
                    .map(|c| (c.node, ucb(c.node)))
                    .fold((children[0].node, f64::NEG_INFINITY), |best, c| if c.1 > best.1 { c } else { best })
                    .0
            }
            // Terminal and keeper nodes have no children to select from.
            Mover::Terminal | Mover::Keeper => index,
        }
    }

    /// The root's children: (move, visits, mean return for `player`).
    pub fn root_statistics(&self, player: usize) -> Vec<(Move, u32, f64)> {
        let children = self.nodes[0].children.as_deref().unwrap_or_default();
        children
            .iter()
            .map(|c| {
                let node = &self.nodes[c.node];
                let mean = if node.visits == 0 { 0.0 } else { node.totals[player] / node.visits as f64 };
                (c.tags.clone(), node.visits, mean)
            })
            .collect()
    }

    /// How many nodes the tree holds.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }
}

impl Uct {
    pub fn new(config: SearchConfig) -> Self {
        Uct { config }
    }

    /// Runs the configured simulations from `root` and returns the tree (for tools and tests).
    pub fn search<M: SearchModel>(
        &self,
        model: &M,
        root: &M::State,
        rng: &mut Xoshiro256,
    ) -> Result<Tree<M::State>, AgentError> {
        let returns = Returns::new(model.automaton());
        let mut tree = Tree::new(model, root);
        let mut path = Vec::new();
        for _ in 0..self.config.simulations {
            path.clear();
            let mut index = 0;
            path.push(index);
            let result = loop {
                let node = &tree.nodes[index];
                if node.mover == Mover::Terminal {
                    break returns.of_state(model, &node.state);
                }
                // A keeper node cannot occur (states are settled), but it would have no children to select.
                if (node.visits == 0 && index != 0) || node.mover == Mover::Keeper {
                    let end = model.random_rollout(&node.state, rng, self.config.max_rollout_moves)?;
                    break returns.of_state(model, &end);
                }
                if node.children.is_none() {
                    tree.expand(model, index)?;
                }
                index = tree.select(index, self.config.exploration, rng);
                path.push(index);
            };
            for &index in &path {
                let node = &mut tree.nodes[index];
                node.visits += 1;
                for (total, value) in node.totals.iter_mut().zip(&result) {
                    *total += value;
                }
            }
        }
        Ok(tree)
    }
}

impl<M: SearchModel> Agent<M> for Uct {
    fn name(&self) -> String {
        format!("uct:{}", self.config.simulations)
    }

    fn choose(&mut self, model: &M, turn: &Turn<'_, M::State>, rng: &mut Xoshiro256) -> Result<Move, AgentError> {
        if let Options::Forced(only) = options(model.moves(turn.state)?)? {
            return Ok(only);
        }
        let tree = self.search(model, turn.state, rng)?;
        best_move(tree.root_statistics(turn.player))
            .ok_or_else(|| AgentError::Unsupported("the search generated no move".into()))
    }
}

/// The most visited move; ties go to the better mean, then to the first in the engine's order.
pub(crate) fn best_move(statistics: Vec<(Move, u32, f64)>) -> Option<Move> {
    let mut best: Option<(Move, u32, f64)> = None;
    for candidate in statistics {
        let better = match &best {
            None => true,
            Some((_, visits, mean)) => candidate.1 > *visits || (candidate.1 == *visits && candidate.2 > *mean),
        };
        if better {
            best = Some(candidate);
        }
    }
    best.map(|(tags, _, _)| tags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flat::FlatMonteCarlo;
    use regula_runtime::automaton::builder::AutomatonBuilder;
    use regula_runtime::fast::FastEngine;

    /// x takes a sure 1 (`safe`) or rolls a three-sided die (`gamble`) that pays 2 on the faces
    /// listed in `paying` and 0 otherwise.
    fn gamble(paying: &str) -> FastEngine {
        let automaton = AutomatonBuilder::new()
            .typedef("Player", "{x}")
            .typedef("Score", "{0, 1, 2}")
            .typedef("Die", "{a, b, c}")
            .variable("die", "Die", "a")
            .edge("begin", "turn", "player = x")
            .edge("turn", "safe", "$ safe")
            .edge("safe", "paid", "goals[x] = 1")
            .edge("paid", "end", "player = keeper")
            .edge("turn", "gamble", "$ gamble")
            .edge("gamble", "roll", "player = random")
            .edge("roll", "rolled", "die = Die(*)")
            .edge("rolled", "shown", "$$ die")
            .edge("shown", "lucky", paying)
            .edge("lucky", "won", "goals[x] = 2")
            .edge("won", "end", "player = keeper")
            .edge("shown", "unlucky", &paying.replace("!=", "=!").replace("==", "!=").replace("=!", "=="))
            .edge("unlucky", "end", "player = keeper")
            .build()
            .unwrap();
        FastEngine::new(automaton).unwrap()
    }

    fn choice(engine: &FastEngine, agent: &mut dyn Agent<FastEngine>, seed: u64) -> String {
        let start = engine.start().unwrap();
        let turn = Turn { state: &start, history: &[], player: 0 };
        engine.format_move(&agent.choose(engine, &turn, &mut Xoshiro256::from_seed(seed)).unwrap())
    }

    #[test]
    fn search_weighs_chance_outcomes_by_their_probability() {
        let config = SearchConfig { simulations: 600, ..SearchConfig::default() };
        // Pays on two faces of three: worth 4/3 > 1. On one face: worth 2/3 < 1.
        let good = gamble("die != c");
        let bad = gamble("die == c");
        for seed in 0..3 {
            assert_eq!(choice(&good, &mut Uct::new(config), seed), "gamble");
            assert_eq!(choice(&bad, &mut Uct::new(config), seed), "safe");
            assert_eq!(choice(&good, &mut FlatMonteCarlo::new(config), seed), "gamble");
            assert_eq!(choice(&bad, &mut FlatMonteCarlo::new(config), seed), "safe");
        }
    }

    #[test]
    fn the_tree_averages_the_chance_node_to_its_expected_value() {
        let engine = gamble("die != c");
        let start = engine.start().unwrap();
        let config = SearchConfig { simulations: 3000, ..SearchConfig::default() };
        let tree = Uct::new(config).search(&engine, &start, &mut Xoshiro256::from_seed(4)).unwrap();
        let statistics = tree.root_statistics(0);
        let named = |name: &str| statistics.iter().find(|(m, _, _)| engine.format_move(m) == name).unwrap().clone();
        let ((_, gamble_visits, gamble_mean), (_, safe_visits, safe_mean)) = (named("gamble"), named("safe"));
        // Returns are halved scores: the gamble is worth (2/3)·1 = 0.667, the sure 1 is 0.5.
        assert!(gamble_visits > 2 * safe_visits, "{statistics:?}");
        assert_eq!(safe_mean, 0.5);
        // About 2,000 visits of a 0-or-1 return with p = 2/3: the standard error is about 0.011.
        assert!((gamble_mean - 2.0 / 3.0).abs() < 0.05, "{statistics:?}");
    }
}

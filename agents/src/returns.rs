//! Returns: every player's score normalised to `[0, 1]` over the game's `Score` type.

use regula_runtime::automaton::Automaton;
use regula_runtime::engine::{ForwardModel, Score};

/// Maps scores to returns in `[0, 1]`: the lowest value of the `Score` type is 0, the highest 1.
/// A game whose `Score` type has a single value gives every player 0.5.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Returns {
    lowest: f64,
    span: f64,
}

impl Returns {
    /// The scale of `automaton`'s `Score` type (values read as [`Score::value`] reads them).
    pub fn new(automaton: &Automaton) -> Returns {
        let values: Vec<f64> = automaton
            .scores
            .iter()
            .enumerate()
            .map(|(index, &symbol)| automaton.symbol_name(symbol).parse::<i64>().unwrap_or(index as i64) as f64)
            .collect();
        let lowest = values.iter().copied().fold(f64::INFINITY, f64::min);
        let highest = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if values.is_empty() || highest <= lowest {
            Returns { lowest: 0.0, span: 0.0 }
        } else {
            Returns { lowest, span: highest - lowest }
        }
    }

    /// One score's return (a value outside the type, which loose typing allows, is clamped).
    pub fn of(&self, score: Score) -> f64 {
        if self.span == 0.0 {
            0.5
        } else {
            ((score.value as f64 - self.lowest) / self.span).clamp(0.0, 1.0)
        }
    }

    /// Every player's return in `state`, in `Player` order.
    pub fn of_state<M: ForwardModel + ?Sized>(&self, model: &M, state: &M::State) -> Vec<f64> {
        model.scores(state).into_iter().map(|score| self.of(score)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regula_runtime::automaton::builder::AutomatonBuilder;

    fn game(scores: &str) -> Automaton {
        AutomatonBuilder::new()
            .typedef("Player", "{x}")
            .typedef("Score", scores)
            .edge("begin", "end", "player = keeper")
            .build()
            .unwrap()
    }

    #[test]
    fn integer_scores_scale_from_lowest_to_highest() {
        let automaton = game("{10, 20, 50}");
        let returns = Returns::new(&automaton);
        let score = |name: &str| Score { symbol: automaton.symbol_id(name).unwrap(), value: name.parse().unwrap() };
        assert_eq!(returns.of(score("10")), 0.0);
        assert_eq!(returns.of(score("20")), 0.25);
        assert_eq!(returns.of(score("50")), 1.0);
    }

    #[test]
    fn named_scores_use_their_order_and_a_single_score_is_neutral() {
        let automaton = game("{lose, draw, win}");
        let returns = Returns::new(&automaton);
        let draw = Score { symbol: automaton.symbol_id("draw").unwrap(), value: 1 };
        assert_eq!(returns.of(draw), 0.5);
        let single = Returns::new(&game("{0}"));
        assert_eq!(single.of(Score { symbol: 0, value: 0 }), 0.5);
    }

    #[test]
    fn negative_scores_scale_from_the_lowest() {
        // Zero-sum card games name negative scores `-48`; the builder cannot, so rename.
        let mut automaton = game("{m4, m1, 0, 2, 4}");
        for (from, to) in [("m4", "-4"), ("m1", "-1")] {
            let id = automaton.symbol_id(from).unwrap();
            automaton.symbols[id as usize] = to.to_string();
        }
        let returns = Returns::new(&automaton);
        let score = |value: i64| Score { symbol: 0, value };
        assert_eq!(returns.of(score(-4)), 0.0);
        assert_eq!(returns.of(score(-1)), 0.375);
        assert_eq!(returns.of(score(0)), 0.5);
        assert_eq!(returns.of(score(4)), 1.0);
    }
}

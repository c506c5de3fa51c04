//! Shared code of Regula's benchmark suite and engine-equivalence tests: loading the game corpus.

pub mod compiled;
pub mod corpus;

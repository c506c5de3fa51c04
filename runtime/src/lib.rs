//! Regula's runtime: the executable game automaton and the engines that turn it into a forward model.
//!
//! This crate depends on nothing else of Regula's: the compiler produces an [`automaton::Automaton`]
//! and every engine here consumes it.
//!
//! - [`agent`]: the agent-facing API (OpenSpiel conventions, hidden information);
//! - [`automaton`]: the tables (and [`automaton::builder`] to make them by hand);
//! - [`compiled`]: the trait generated per-game code implements, and its adapter;
//! - [`fast`]: the fast engine, the default for users;
//! - [`engine`]: the [`engine::ForwardModel`] trait, moves, histories, errors, observations;
//! - [`mod@reference`]: the reference engine every other engine is checked against;
//! - [`perft`] and [`playout`]: counting and random play over any forward model.

pub mod agent;
pub mod automaton;
pub mod compiled;
pub mod engine;
pub mod fast;
mod keyset;
pub mod perft;
pub mod playout;
pub mod reference;

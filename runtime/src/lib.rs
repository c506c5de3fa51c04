//! Regula's runtime: the executable game automaton and the engines that turn it into a forward model.
//!
//! This crate depends on nothing else of Regula's: the compiler produces an [`automaton::Automaton`]
//! and every engine here consumes it.

pub mod automaton;

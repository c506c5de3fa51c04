//! The oracles' integration tests, linked into one test binary (`cargo test -p regula-oracles
//! --test integration`; one game's tests alone: add its module name as a filter, e.g. `chess`).
//!
//! One binary instead of one per file: each file used to be a separate crate linked on its own,
//! which cost CI more than running its tests. Every file below checks one oracle against its
//! game's `independent:` perft entries.
//!
//! Every file of this folder must be declared here (or be a `[[test]]` of its own): the check is
//! `every_test_file_is_compiled_into_a_test_binary` in cli/tests/main.rs, one for the workspace.

mod amazons;
mod blocks;
mod breakthrough;
mod chess;
mod connect4;
mod dice;
mod draughts;
mod foxgeese;
mod gomoku;
mod hex;
mod hidden;
mod morris;
mod pentago;
mod reversi;
mod rules;
mod stochastic;
mod tictactoe;

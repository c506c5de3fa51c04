//! Independent implementations of corpus games in plain Rust, used only to cross-check perft counts.
//!
//! Each module is written from the game rules, not from our automata, and exposes
//! `pub fn perft(depth: usize) -> Vec<u64>` (counts at depths 0..=depth, with the conventions of
//! `spec/perft.md`: chance outcomes cost a depth, terminal states stop counting).

pub mod amazons;
pub mod blocks;
pub mod breakthrough;
pub mod chess;
pub mod connect4;
pub mod dice;
pub mod doudizhu;
pub mod draughts;
pub mod foxgeese;
pub mod gomoku;
pub mod hex;
pub mod hidden;
pub mod morris;
pub mod pentago;
pub mod perft_file;
pub mod reversi;
pub mod rules;
pub mod stochastic;
pub mod tictactoe;
pub mod tree;

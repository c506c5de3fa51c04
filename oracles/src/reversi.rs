//! Independent reversi implementation (not yet written).

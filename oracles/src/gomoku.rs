//! Independent gomoku implementation (not yet written).

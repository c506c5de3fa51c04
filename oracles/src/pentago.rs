//! Independent pentago implementation (not yet written).

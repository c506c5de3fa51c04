//! Independent breakthrough implementation (not yet written).

//! Independent amazons implementation (not yet written).

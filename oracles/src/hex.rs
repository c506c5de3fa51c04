//! Independent hex implementation (not yet written).

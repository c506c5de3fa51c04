//! Independent hidden implementation (not yet written).

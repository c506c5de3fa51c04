//! Independent dice implementation (not yet written).

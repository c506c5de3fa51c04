//! Independent morris implementation (not yet written).

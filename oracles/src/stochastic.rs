//! Independent stochastic implementation (not yet written).

//! Independent chess implementation (not yet written).

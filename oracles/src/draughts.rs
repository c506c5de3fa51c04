//! Independent draughts implementation (not yet written).

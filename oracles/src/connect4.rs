//! Independent connect4 implementation (not yet written).

//! Independent foxgeese implementation (not yet written).

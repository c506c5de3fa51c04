//! Independent tictactoe implementation (not yet written).

//! The blocks-language games' oracle (oracles/src/blocks/) against hand-worked cases and the
//! corpus's perft.toml files.

use regula_oracles::blocks::{games, Move};
use regula_oracles::perft_file;

#[test]
fn tictactoe_matches_the_published_counts() {
    assert_eq!(games::tictactoe().perft(9), vec![1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
}

#[test]
fn print_perft() {
    for name in ["blocks-alquerque", "blocks-gun-cannon", "blocks-othello5", "blocks-fantian", "blocks-fourchess"] {
        println!("{name} {:?}", games::by_folder(name).unwrap().perft(5));
    }
}

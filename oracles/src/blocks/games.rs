//! The six example games of the blocks seed as hand-written [`Rules`], each read from the seed's
//! description (spec/blocks.md), not from the `.blocks` files or their translation.

use super::*;

/// Points of a row-major board given as (column, row) pairs.
fn pieces(side: u8, points: &[(usize, usize)]) -> Vec<(u8, usize, usize)> {
    points.iter().map(|&(column, row)| (side, column, row)).collect()
}

fn stage(actions: [Vec<Action>; 2], lines: Lines, end: Vec<Condition>) -> Stage {
    Stage {
        order: [RED, GREEN],
        first_moves: None,
        actions,
        lines,
        capture_compulsory: false,
        no_backward: false,
        no_return: false,
        jump_takes: [false, false],
        flip_bracketed: false,
        flip_orthogonal_neighbours: false,
        end,
    }
}

/// 3 x 3, place on empty points; a line of three wins, a full board draws.
pub fn tictactoe() -> Rules {
    Rules {
        size: 3,
        initial: Vec::new(),
        stages: vec![stage(
            [vec![Action::Place], vec![Action::Place]],
            Lines::All,
            vec![Condition::EitherStuck, Condition::Line(3)],
        )],
        wins: [vec![Win::Line(3)], vec![Win::Line(3)]],
    }
}

/// Alquerque on the 5 x 5 lattice: steps forward or sideways, capturing chains compulsory, no
/// stepping straight back; the side with more pieces when one side is stuck wins.
pub fn alquerque() -> Rules {
    let mut red = Vec::new();
    let mut green = Vec::new();
    for row in 0..5 {
        for column in 0..5 {
            if row < 2 || (row == 2 && column < 2) {
                red.push((column, row));
            } else if row > 2 || column > 2 {
                green.push((column, row));
            }
        }
    }
    let mut initial = pieces(RED, &red);
    initial.extend(pieces(GREEN, &green));
    let mut only = stage(
        [vec![Action::Step, Action::ChainJump], vec![Action::Step, Action::ChainJump]],
        Lines::EvenDiagonals,
        vec![Condition::EitherStuck],
    );
    only.capture_compulsory = true;
    only.no_backward = true;
    only.no_return = true;
    only.jump_takes = [true, true];
    Rules { size: 5, initial, stages: vec![only], wins: [vec![Win::MorePieces], vec![Win::MorePieces]] }
}

/// Three cannons (red, top row) against fifteen soldiers (green, rows 1-3), orthogonal lines;
/// red moves three times first; cannons take by a single jump; 8 captures win for red, a stuck
/// red loses.
pub fn gun_cannon() -> Rules {
    let mut initial = pieces(RED, &[(1, 4), (2, 4), (3, 4)]);
    initial.extend(pieces(GREEN, &(0..3).flat_map(|row| (0..5).map(move |column| (column, row))).collect::<Vec<_>>()));
    let mut only = stage(
        [vec![Action::Step, Action::Jump { own: false, enemy: true }], vec![Action::Step]],
        Lines::Orthogonal,
        vec![Condition::Stuck(RED), Condition::Captured(RED, 8)],
    );
    only.first_moves = Some((RED, 3));
    only.jump_takes = [true, false];
    Rules { size: 5, initial, stages: vec![only], wins: [vec![Win::Captured(8)], vec![Win::OpponentStuck]] }
}

/// Othello on 5 x 5 from the seed's off-centre start (red c2 d3, green d2 c3).
pub fn othello5() -> Rules {
    let mut initial = pieces(RED, &[(2, 1), (3, 2)]);
    initial.extend(pieces(GREEN, &[(3, 1), (2, 2)]));
    let mut only =
        stage([vec![Action::PlaceFlipping], vec![Action::PlaceFlipping]], Lines::All, vec![Condition::BothStuck]);
    only.flip_bracketed = true;
    Rules { size: 5, initial, stages: vec![only], wins: [vec![Win::MorePieces], vec![Win::MorePieces]] }
}

/// Fantian on 3 x 3: orthogonal steps or jumps over any piece; enemies orthogonally next to the
/// moved piece turn over.
pub fn fantian() -> Rules {
    let mut initial = pieces(RED, &[(0, 0), (1, 0), (2, 0)]);
    initial.extend(pieces(GREEN, &[(0, 2), (1, 2), (2, 2)]));
    let jump = Action::Jump { own: true, enemy: true };
    let mut only =
        stage([vec![Action::Step, jump], vec![Action::Step, jump]], Lines::Orthogonal, vec![Condition::EitherStuck]);
    only.flip_orthogonal_neighbours = true;
    Rules { size: 3, initial, stages: vec![only], wins: [vec![Win::MorePieces], vec![Win::MorePieces]] }
}

/// Four chess on the 4 x 4 lattice: place four each, then step orthogonally; four in a line wins.
pub fn fourchess() -> Rules {
    let placing =
        stage([vec![Action::Place], vec![Action::Place]], Lines::All, vec![Condition::EachHas(4), Condition::Line(4)]);
    let moving = stage([vec![Action::Step], vec![Action::Step]], Lines::Orthogonal, vec![Condition::Line(4)]);
    Rules {
        size: 4,
        initial: Vec::new(),
        stages: vec![placing, moving],
        wins: [vec![Win::Line(4)], vec![Win::Line(4)]],
    }
}

/// The games by folder name under `games/`.
pub fn by_folder(folder: &str) -> Option<Rules> {
    Some(match folder {
        "blocks-tictactoe" => tictactoe(),
        "blocks-alquerque" => alquerque(),
        "blocks-gun-cannon" => gun_cannon(),
        "blocks-othello5" => othello5(),
        "blocks-fantian" => fantian(),
        "blocks-fourchess" => fourchess(),
        _ => return None,
    })
}

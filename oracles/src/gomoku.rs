//! Independent gomoku oracle: freestyle gomoku on 15x15, black first, five or more in a row wins, full board draws.

const SIZE: i32 = 15;
const CELLS: usize = (SIZE * SIZE) as usize;

/// Whether the stone just placed at `cell` makes a line of five or more of its colour.
fn makes_five(cells: &[u8; CELLS], cell: usize) -> bool {
    let colour = cells[cell];
    let (row, col) = (cell as i32 / SIZE, cell as i32 % SIZE);
    let same = |r: i32, c: i32| {
        (0..SIZE).contains(&r) && (0..SIZE).contains(&c) && cells[(r * SIZE + c) as usize] == colour
    };
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
        let mut length = 1;
        for sign in [1, -1] {
            let mut step = 1;
            while same(row + sign * step * dr, col + sign * step * dc) {
                length += 1;
                step += 1;
            }
        }
        length >= 5
    })
}

fn count(
    cells: &mut [u8; CELLS],
    mover: u8,
    placed: usize,
    depth: usize,
    level: usize,
    counts: &mut [u64],
) {
    counts[level] += 1;
    if level == depth || placed == CELLS {
        return;
    }
    for cell in 0..CELLS {
        if cells[cell] != 0 {
            continue;
        }
        cells[cell] = mover;
        if makes_five(cells, cell) {
            counts[level + 1] += 1;
        } else {
            count(cells, 3 - mover, placed + 1, depth, level + 1, counts);
        }
        cells[cell] = 0;
    }
}

/// Perft counts at depths 0..=depth from the empty board.
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&mut [0; CELLS], 1, 0, depth, 0, &mut counts);
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_in_a_diagonal_wins_and_four_does_not() {
        let mut cells = [0u8; CELLS];
        for i in 0..4 {
            cells[(i * SIZE as usize) + i + 3] = 1;
        }
        assert!(!makes_five(&cells, 3));
        cells[4 * SIZE as usize + 7] = 1;
        assert!(makes_five(&cells, 3));
        assert!(makes_five(&cells, 4 * SIZE as usize + 7));
    }

    #[test]
    fn a_line_does_not_wrap_around_the_edge() {
        let mut cells = [0u8; CELLS];
        // Columns 12, 13, 14 of row 0 and columns 0, 1 of row 1.
        cells[12..17].fill(2);
        assert!(!makes_five(&cells, 14));
        assert!(!makes_five(&cells, 15));
    }
}

//! Board geometry of the 6 x 6 Rule Game board: cell numbering, the four buckets, `Nearby` /
//! `Remotest`, and the built-in orders (L1-L4, T, B, R, L, NearestObject, Farthest).

/// Side of the board.
pub const SIDE: i64 = 6;

/// The built-in order names.
pub const BUILTIN: &[&str] = &["L1", "L2", "L3", "L4", "T", "B", "R", "L", "NearestObject", "Farthest"];

/// (row, column) of a cell 1..=36, both 1-based, row 1 at the bottom.
pub fn row_col(cell: u8) -> (i64, i64) {
    let index = i64::from(cell) - 1;
    (index / SIDE + 1, index % SIDE + 1)
}

/// The cell at (row, column).
pub fn cell_at(row: i64, col: i64) -> u8 {
    ((row - 1) * SIDE + col) as u8
}

/// (row, column) of bucket 0..=3, numbered clockwise from the top-left corner.
pub fn bucket_position(bucket: i64) -> (i64, i64) {
    match bucket {
        0 => (SIDE + 1, 0),
        1 => (SIDE + 1, SIDE + 1),
        2 => (0, SIDE + 1),
        _ => (0, 0),
    }
}

fn squared_distances(cell: u8) -> [i64; 4] {
    let (row, col) = row_col(cell);
    [0, 1, 2, 3].map(|b| {
        let (br, bc) = bucket_position(b);
        (row - br).pow(2) + (col - bc).pow(2)
    })
}

/// The buckets nearest to a cell (one on an even board; several on a middle line of an odd one).
pub fn nearby(cell: u8) -> Vec<i64> {
    let d = squared_distances(cell);
    let best = *d.iter().min().expect("four buckets");
    (0..4).filter(|&b| d[b as usize] == best).collect()
}

/// The buckets farthest from a cell.
pub fn remotest(cell: u8) -> Vec<i64> {
    let d = squared_distances(cell);
    let worst = *d.iter().max().expect("four buckets");
    (0..4).filter(|&b| d[b as usize] == worst).collect()
}

/// The tiers of a built-in order (cells ranked first come first; cells in one tier are tied).
pub fn builtin(name: &str) -> Option<Vec<Vec<u8>>> {
    let rows_top_down = (1..=SIDE).rev();
    let singles = |cells: Vec<u8>| cells.into_iter().map(|c| vec![c]).collect::<Vec<_>>();
    Some(match name {
        "L1" => singles(rows_top_down.flat_map(|r| (1..=SIDE).map(move |c| cell_at(r, c))).collect()),
        "L2" => singles(rows_top_down.flat_map(|r| (1..=SIDE).rev().map(move |c| cell_at(r, c))).collect()),
        "L3" => singles((1..=SIDE).rev().flat_map(|c| (1..=SIDE).rev().map(move |r| cell_at(r, c))).collect()),
        "L4" => singles((1..=SIDE).flat_map(|c| (1..=SIDE).rev().map(move |r| cell_at(r, c))).collect()),
        "T" => rows_top_down.map(|r| (1..=SIDE).map(|c| cell_at(r, c)).collect()).collect(),
        "B" => (1..=SIDE).map(|r| (1..=SIDE).map(|c| cell_at(r, c)).collect()).collect(),
        "R" => (1..=SIDE).rev().map(|c| (1..=SIDE).map(|r| cell_at(r, c)).collect()).collect(),
        "L" => (1..=SIDE).map(|c| (1..=SIDE).map(|r| cell_at(r, c)).collect()).collect(),
        "NearestObject" | "Farthest" => {
            let nearest = |cell: u8| *squared_distances(cell).iter().min().expect("four buckets");
            let mut distances: Vec<i64> = (1..=36u8).map(nearest).collect();
            distances.sort_unstable();
            distances.dedup();
            if name == "Farthest" {
                distances.reverse();
            }
            distances.into_iter().map(|d| (1..=36u8).filter(|&c| nearest(c) == d).collect()).collect()
        }
        _ => return None,
    })
}

/// The tiers of an order given as a user definition: listed tiers, then every unlisted cell tied last.
pub fn complete(listed: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut tiers: Vec<Vec<u8>> = listed.iter().filter(|t| !t.is_empty()).cloned().collect();
    let rest: Vec<u8> = (1..=36u8).filter(|c| !listed.iter().flatten().any(|l| l == c)).collect();
    if !rest.is_empty() {
        tiers.push(rest);
    }
    tiers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrants_map_to_their_corner_buckets() {
        assert_eq!(nearby(1), [3]);
        assert_eq!(remotest(1), [1]);
        assert_eq!(nearby(36), [1]);
        assert_eq!(nearby(31), [0]);
        assert_eq!(nearby(6), [2]);
        assert_eq!(nearby(15), [3]); // row 3, column 3
        assert_eq!(nearby(16), [2]); // row 3, column 4
    }

    #[test]
    fn reading_orders_start_where_the_documentation_says() {
        let first = |name: &str| builtin(name).unwrap().iter().take(7).map(|t| t[0]).collect::<Vec<_>>();
        assert_eq!(first("L1"), [31, 32, 33, 34, 35, 36, 25]);
        assert_eq!(first("L2"), [36, 35, 34, 33, 32, 31, 30]);
        assert_eq!(first("L3"), [36, 30, 24, 18, 12, 6, 35]);
        assert_eq!(first("L4"), [31, 25, 19, 13, 7, 1, 32]);
        assert_eq!(builtin("T").unwrap()[0], [31, 32, 33, 34, 35, 36]);
        assert_eq!(builtin("R").unwrap()[0], [6, 12, 18, 24, 30, 36]);
        assert_eq!(builtin("NearestObject").unwrap()[0], [1, 6, 31, 36]);
        assert_eq!(builtin("Farthest").unwrap()[0], [15, 16, 21, 22]);
        assert_eq!(complete(&[vec![5], vec![6, 7]]).len(), 3);
    }
}

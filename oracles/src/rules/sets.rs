//! The rule sets of `games/rules-*`, coded by hand: each bucket expression is read and written as
//! a Rust closure, each order as a rank function. Names are the game folders without `rules-`.

use super::{Atom, Ctx, Line, Place, RuleSet, Start};

fn row(cell: u8) -> u32 {
    u32::from((cell - 1) / 6 + 1)
}

fn col(cell: u8) -> u32 {
    u32::from((cell - 1) % 6 + 1)
}

/// Rows from the top, tied within a row.
fn top(cell: u8) -> u32 {
    6 - row(cell)
}

/// Rows from the bottom.
fn bottom(cell: u8) -> u32 {
    row(cell)
}

/// Columns from the left.
fn left(cell: u8) -> u32 {
    col(cell)
}

/// English reading order: top row first, left to right.
fn reading(cell: u8) -> u32 {
    (6 - row(cell)) * 6 + col(cell)
}

/// Squared distance to the closest corner bucket (buckets sit at rows/columns 0 and 7).
fn corner_distance(cell: u8) -> u32 {
    let (r, c) = (row(cell) as i32, col(cell) as i32);
    [(7, 0), (7, 7), (0, 7), (0, 0)].iter().map(|&(br, bc)| ((r - br).pow(2) + (c - bc).pow(2)) as u32).min().unwrap()
}

fn farthest(cell: u8) -> u32 {
    1000 - corner_distance(cell)
}

/// The file's own order: the four corners, then the eight cells next to them, then the rest.
fn corners(cell: u8) -> u32 {
    match cell {
        1 | 6 | 31 | 36 => 0,
        2 | 5 | 7 | 12 | 25 | 30 | 32 | 35 => 1,
        _ => 2,
    }
}

fn atom(count: Option<u32>, buckets: Option<fn(Ctx) -> Vec<i32>>) -> Atom {
    Atom { count, shapes: None, colors: None, places: None, buckets }
}

fn line(count: Option<u32>, atoms: Vec<Atom>) -> Line {
    Line { count, atoms }
}

fn fixed(pieces: &[(u8, &'static str, &'static str)]) -> Start {
    Start::Fixed(pieces.to_vec())
}

/// Every rule set, by game name.
pub const NAMES: &[&str] = &[
    "arithmetic-example",
    "color-rows",
    "counter-clockwise",
    "position-a",
    "shape-sort",
    "same-edge",
    "metered-order",
    "random-board",
    "nearest-farthest",
    "stalemate",
];

pub fn by_name(name: &str) -> Option<RuleSet> {
    let legal = None;
    Some(match name {
        "arithmetic-example" => RuleSet {
            lines: vec![
                // first move: any bucket; later: the bucket counter-clockwise from the last one
                line(None, vec![atom(Some(1), Some(|c| c.p.map_or(vec![0, 1, 2, 3], |p| vec![p - 1])))]),
                // a piece whose nearest bucket is the last one used goes there
                line(None, vec![atom(None, Some(|c| if c.p == Some(c.nearby()) { vec![c.nearby()] } else { vec![] }))]),
            ],
            start: fixed(&[
                (1, "circle", "red"),
                (6, "square", "blue"),
                (16, "star", "red"),
                (31, "triangle", "blue"),
                (36, "circle", "blue"),
            ]),
            attempts: legal,
        },
        "color-rows" => {
            let top_row = |colors: &'static str, bucket: fn(Ctx) -> Vec<i32>| Atom {
                colors: Some(vec![colors]),
                places: Some(vec![Place::Ranked(top)]),
                ..atom(None, Some(bucket))
            };
            RuleSet {
                lines: vec![
                    line(Some(1), vec![top_row("red", |_| vec![0]), top_row("green", |_| vec![1])]),
                    line(Some(1), vec![top_row("black", |_| vec![2]), top_row("yellow", |_| vec![3])]),
                ],
                start: fixed(&[
                    (31, "circle", "red"),
                    (33, "square", "green"),
                    (20, "star", "black"),
                    (22, "triangle", "yellow"),
                    (9, "circle", "black"),
                    (4, "square", "red"),
                ]),
                attempts: legal,
            }
        }
        "counter-clockwise" => RuleSet {
            lines: vec![
                line(None, vec![atom(Some(1), Some(|_| vec![0, 1, 2, 3]))]),
                line(None, vec![atom(None, Some(|c| c.p.map_or(vec![], |p| vec![(p + 3) % 4])))]),
            ],
            start: fixed(&[
                (2, "circle", "red"),
                (11, "square", "blue"),
                (17, "star", "red"),
                (26, "triangle", "blue"),
                (35, "circle", "yellow"),
            ]),
            attempts: legal,
        },
        "position-a" => RuleSet {
            lines: vec![line(
                None,
                vec![Atom { places: Some(vec![Place::Ranked(reading)]), ..atom(None, Some(|c| vec![c.nearby()])) }],
            )],
            start: fixed(&[
                (3, "circle", "red"),
                (8, "star", "blue"),
                (14, "square", "red"),
                (21, "triangle", "yellow"),
                (29, "circle", "blue"),
                (34, "star", "red"),
            ]),
            attempts: legal,
        },
        "shape-sort" => {
            let of_shape = |shape: &'static str, bucket: fn(Ctx) -> Vec<i32>| Atom {
                shapes: Some(vec![shape]),
                ..atom(None, Some(bucket))
            };
            RuleSet {
                lines: vec![line(
                    None,
                    vec![
                        of_shape("circle", |_| vec![0]),
                        of_shape("square", |_| vec![1]),
                        of_shape("star", |_| vec![2]),
                        of_shape("triangle", |_| vec![3]),
                    ],
                )],
                start: fixed(&[(7, "circle", "red"), (12, "square", "blue"), (30, "star", "yellow")]),
                attempts: Some(3),
            }
        }
        "same-edge" => RuleSet {
            lines: vec![
                line(Some(1), vec![atom(None, None)]),
                line(
                    None,
                    vec![
                        // [(p/2)*2, (p/2)*2+1]: both buckets of the last bucket's horizontal edge
                        Atom {
                            shapes: Some(vec!["circle"]),
                            ..atom(None, Some(|c| c.p.map_or(vec![], |p| vec![p / 2 * 2, p / 2 * 2 + 1])))
                        },
                        // [(p==[0,1])*[0,1], (p==[2,3])*[2,3]]: the same, written with ==
                        Atom {
                            shapes: Some(vec!["square"]),
                            ..atom(
                                None,
                                Some(|c| match c.p {
                                    Some(0 | 1) => vec![0, 1],
                                    Some(_) => vec![2, 3],
                                    None => vec![],
                                }),
                            )
                        },
                    ],
                ),
            ],
            start: fixed(&[
                (1, "circle", "red"),
                (5, "square", "blue"),
                (19, "circle", "blue"),
                (24, "square", "red"),
                (32, "star", "red"),
            ]),
            attempts: legal,
        },
        "metered-order" => RuleSet {
            lines: vec![
                line(
                    Some(2),
                    vec![
                        // [pc+1, !pc*Remotest]: after the last red, else the remotest bucket
                        Atom {
                            colors: Some(vec!["red"]),
                            places: Some(vec![Place::Ranked(corners)]),
                            ..atom(None, Some(|c| c.pc.map_or(vec![c.remotest()], |pc| vec![pc + 1])))
                        },
                        // once: a star where the last star went
                        Atom { shapes: Some(vec!["star"]), ..atom(Some(1), Some(|c| c.ps.into_iter().collect())) },
                    ],
                ),
                line(
                    None,
                    vec![Atom {
                        places: Some(vec![Place::Ranked(bottom)]),
                        ..atom(None, Some(|c| vec![c.remotest()]))
                    }],
                ),
            ],
            start: fixed(&[
                (1, "circle", "red"),
                (6, "star", "red"),
                (31, "square", "blue"),
                (36, "star", "blue"),
                (15, "circle", "red"),
                (22, "triangle", "red"),
            ]),
            attempts: legal,
        },
        "random-board" => RuleSet {
            lines: vec![line(
                None,
                vec![
                    Atom { shapes: Some(vec!["circle"]), ..atom(None, Some(|_| vec![0, 3])) },
                    Atom {
                        shapes: Some(vec!["square"]),
                        colors: Some(vec!["blue"]),
                        places: Some(vec![Place::Ranked(left)]),
                        ..atom(None, Some(|_| vec![1, 2]))
                    },
                    Atom {
                        shapes: Some(vec!["square"]),
                        colors: Some(vec!["red"]),
                        ..atom(None, Some(|c| vec![c.nearby()]))
                    },
                ],
            )],
            start: Start::Random {
                count: 2,
                cells: vec![1, 2, 7, 8],
                shapes: vec!["circle", "square"],
                colors: vec!["red", "blue"],
            },
            attempts: legal,
        },
        "nearest-farthest" => RuleSet {
            lines: vec![
                line(
                    Some(1),
                    vec![Atom {
                        places: Some(vec![Place::Ranked(corner_distance)]),
                        ..atom(None, Some(|c| vec![c.nearby()]))
                    }],
                ),
                line(
                    Some(1),
                    vec![Atom {
                        places: Some(vec![Place::Ranked(farthest)]),
                        ..atom(None, Some(|c| vec![c.remotest()]))
                    }],
                ),
            ],
            start: fixed(&[
                (1, "circle", "red"),
                (15, "square", "blue"),
                (22, "star", "red"),
                (36, "triangle", "blue"),
            ]),
            attempts: Some(2),
        },
        "stalemate" => RuleSet {
            lines: vec![
                line(None, vec![Atom { colors: Some(vec!["red"]), ..atom(None, Some(|_| vec![0, 1])) }]),
                line(
                    Some(1),
                    vec![Atom {
                        shapes: Some(vec!["square"]),
                        colors: Some(vec!["blue"]),
                        ..atom(None, Some(|c| c.p.into_iter().collect()))
                    }],
                ),
            ],
            start: fixed(&[
                (1, "circle", "red"),
                (8, "square", "red"),
                (15, "square", "blue"),
                (22, "circle", "blue"),
                (29, "star", "blue"),
            ]),
            attempts: legal,
        },
        _ => return None,
    })
}

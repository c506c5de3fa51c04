//! The perft count shared by the deterministic oracles: every position at each depth of the tree.

/// perft counts at depths 0..=depth below `root`, where `children` lists a position's successors
/// (empty for a finished game, which then stops counting).
pub fn perft<P>(root: &P, depth: usize, children: &impl Fn(&P) -> Vec<P>) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(root, 0, &mut counts, children);
    counts
}

fn count<P>(position: &P, depth: usize, counts: &mut [u64], children: &impl Fn(&P) -> Vec<P>) {
    counts[depth] += 1;
    if depth + 1 == counts.len() {
        return;
    }
    for child in children(position) {
        count(&child, depth + 1, counts, children);
    }
}

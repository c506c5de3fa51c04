//! Branch-free delta dispatch: `delta_start` and `apply_delta` of a game with several delta
//! starts or several completion sites, as table lookups instead of matches (spec/codegen.md,
//! "Deltas").
//!
//! Why: a two-player game whose turns stand on two start nodes (one per player, e.g. connect
//! four .hrg's `turn(red)` / `turn(yellow)`) alternates between them every ply. A `match` on the
//! node compiles to compare-and-branch chains that alternate too, and mispredict about every
//! other ply. A lookup in a static table costs a load and a predictable bounds test instead.
//!
//! Exact: `delta_start(node)` reads `true` at exactly the listed starts (the table has one entry
//! per automaton node; any other node reads `false`, as the `matches!` did). `apply_delta` takes
//! the table form only where every site writes the same slots at the same word offsets, so the
//! sites differ only in their target node; a site id outside the table does nothing, as the
//! match's `_` arm did. A game with one start or one site keeps the `match` (one compare, already
//! predictable), so its generated module is unchanged.

/// The body of `delta_start` (inside the function): a `matches!` for one start, else a lookup in
/// a static table with one entry per node (`nodes` of them).
pub(crate) fn delta_start_body(starts: &[usize], nodes: usize) -> String {
    if starts.len() < 2 {
        let list: Vec<String> = starts.iter().map(|node| node.to_string()).collect();
        return format!("matches!(node, {})", list.join(" | "));
    }
    let mut table = vec!["false"; nodes];
    for &node in starts {
        table[node] = "true";
    }
    format!(
        "static DELTA_STARTS: [bool; {nodes}] = [{}];\n        DELTA_STARTS.get(node as usize).copied().unwrap_or(false)",
        table.join(", ")
    )
}

/// The body of `apply_delta` as one table lookup, where there are at least two sites and every
/// site's writes (`writes[site]`, the statements after `let v = &mut state.values;`) are the
/// same text: then the sites differ only in `targets[site]`. `None` where the match stays.
pub(crate) fn shared_apply_delta_body(targets: &[u32], writes: &[String]) -> Option<String> {
    let first = writes.first()?;
    if writes.len() < 2 || writes.iter().any(|w| w != first) {
        return None;
    }
    let list: Vec<String> = targets.iter().map(|t| t.to_string()).collect();
    Some(format!(
        "static DELTA_TARGETS: [u32; {}] = [{}];\n        if let Some(&target) = DELTA_TARGETS.get(delta as u16 as usize) {{ state.node = target; let v = &mut state.values;{first} }}",
        targets.len(),
        list.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_start_keeps_the_match_and_two_read_a_table() {
        assert_eq!(delta_start_body(&[2], 5), "matches!(node, 2)");
        let two = delta_start_body(&[1, 3], 5);
        assert!(two.contains("static DELTA_STARTS: [bool; 5] = [false, true, false, true, false];"), "{two}");
        assert!(two.contains("DELTA_STARTS.get(node as usize).copied().unwrap_or(false)"), "{two}");
    }

    #[test]
    fn sites_share_one_lookup_only_where_their_writes_agree() {
        let same = vec![" v[52] = (delta >> 16) as Sym;".to_string(); 2];
        let shared = shared_apply_delta_body(&[6, 27], &same).expect("shared writes");
        assert!(shared.contains("static DELTA_TARGETS: [u32; 2] = [6, 27];"), "{shared}");
        assert!(shared.contains("state.node = target; let v = &mut state.values; v[52] = (delta >> 16) as Sym; }"));
        let differ = vec![" v[52] = (delta >> 16) as Sym;".to_string(), " v[53] = (delta >> 16) as Sym;".to_string()];
        assert_eq!(shared_apply_delta_body(&[6, 27], &differ), None);
        assert_eq!(shared_apply_delta_body(&[6], &same[..1]), None);
    }
}

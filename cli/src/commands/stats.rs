//! `regula stats FILE [--passes a,b]`: the game's size before and after optimisation.

use super::compile::optimized;
use crate::failure::Failure;
use crate::source::{write_output, SourceFile};
use regula_compiler::optimize::{stats as measure, GameStats, Pass, PassSet};
use std::fmt::Write;
use std::path::Path;

/// Bytes a state slot takes in the reference engine (one symbol id).
const REFERENCE_SLOT_BYTES: u64 = 4;

pub fn stats(file: Option<&Path>, passes: PassSet, list_passes: bool) -> Result<(), Failure> {
    if list_passes {
        let names: Vec<&str> = Pass::ALL.iter().map(|pass| pass.name()).collect();
        return write_output(None, &format!("{}\n", names.join("\n")));
    }
    let Some(path) = file else { return Err(Failure::new("a game file is needed")) };
    let source = SourceFile::read(path)?;
    let loaded = source.load()?;
    let before = measure(&loaded.rg);
    let after = measure(&optimized(&source, loaded.rg, &passes)?);
    write_output(None, &table(&before, &after))
}

fn table(before: &GameStats, after: &GameStats) -> String {
    let slots = |s: &GameStats| s.state_slots.map_or("unknown".to_string(), |n| n.to_string());
    let bytes = |s: &GameStats| s.state_slots.map_or("unknown".to_string(), |n| (n * REFERENCE_SLOT_BYTES).to_string());
    let rows: Vec<(&str, String, String)> = vec![
        ("nodes", before.nodes.to_string(), after.nodes.to_string()),
        ("edges", before.edges.to_string(), after.edges.to_string()),
        ("  skip", before.edge_kinds.skip.to_string(), after.edge_kinds.skip.to_string()),
        ("  assign", before.edge_kinds.assign.to_string(), after.edge_kinds.assign.to_string()),
        ("  assign any", before.edge_kinds.assign_any.to_string(), after.edge_kinds.assign_any.to_string()),
        ("  compare", before.edge_kinds.compare.to_string(), after.edge_kinds.compare.to_string()),
        ("  reachability", before.edge_kinds.reach.to_string(), after.edge_kinds.reach.to_string()),
        ("  tag", before.edge_kinds.tag.to_string(), after.edge_kinds.tag.to_string()),
        ("  tag variable", before.edge_kinds.tag_var.to_string(), after.edge_kinds.tag_var.to_string()),
        ("branching nodes", before.branching_nodes.to_string(), after.branching_nodes.to_string()),
        ("variables", before.variables.to_string(), after.variables.to_string()),
        ("constants", before.constants.to_string(), after.constants.to_string()),
        ("typedefs", before.typedefs.to_string(), after.typedefs.to_string()),
        ("state slots", slots(before), slots(after)),
        ("state bytes (reference)", bytes(before), bytes(after)),
        ("pragmas", before.pragmas.to_string(), after.pragmas.to_string()),
        ("unique nodes", before.unique_nodes.to_string(), after.unique_nodes.to_string()),
    ];
    let mut out = format!("{:<24} {:>10} {:>10}\n", "", "lowered", "optimised");
    for (name, b, a) in rows {
        let _ = writeln!(out, "{name:<24} {b:>10} {a:>10}");
    }
    out
}

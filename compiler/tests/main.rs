//! The compiler's integration tests, linked into one test binary (`cargo test -p regula-compiler
//! --test integration`; a file's tests alone: add its module name as a filter, e.g. `rg_fuzz`).
//!
//! One binary instead of one per file: every file used to be a separate crate that linked the
//! compiler, the runtime and the test dependencies again, which cost CI more than running the tests.
//! The files stay where they were, so paths in them (`include_str!`, insta's `snapshot_path`)
//! keep their meaning; shared helpers are the `common` and `fuzzing` modules below.
//!
//! Every file of this folder must be declared here (or be a `[[test]]` of its own): the check is
//! `every_test_file_is_compiled_into_a_test_binary` in cli/tests/main.rs, one for the workspace.

mod common;
mod fuzzing;

mod blocks_errors;
mod blocks_fuzz;
mod blocks_games;
mod blocks_hrg_print;
mod blocks_ok;
mod cards_doudizhu;
mod cards_errors;
mod cards_fuzz;
mod cards_patterns;
mod cards_trumps;
mod hrg_errors;
mod hrg_fuzz;
mod hrg_lowering;
mod hrg_ok;
mod optimize_equivalence;
mod rg_errors;
mod rg_fuzz;
mod rg_negative;
mod rg_ok;
mod rg_perft;
mod rules_buckets;
mod rules_errors;
mod rules_moves;
mod rules_ok;

//! The runtime's integration tests, linked into one test binary (`cargo test -p regula-runtime
//! --test integration`; a file's tests alone: add its module name as a filter, e.g. `semantics`).
//!
//! One binary instead of one per file: every file used to be a separate crate that linked the
//! runtime, the compiler and the test dependencies again, and the harness ran the binaries one
//! after another, each leaving a core idle while its one long test ran; in one binary the long
//! tests of every file share the harness's threads. The files stay where they were. `fast_profile`
//! stays a binary of its own (`--test fast_profile`): it is a profiling driver that callgrind runs
//! by its file name, not part of the test run.
//!
//! Every file of this folder must be declared here (or be a `[[test]]` of its own): the check is
//! `every_test_file_is_compiled_into_a_test_binary` in cli/tests/main.rs, one for the workspace.

// The whole-corpus helpers shared by the fast-engine checks.
mod corpus;

mod agent_api;
mod agent_conformance;
mod agent_deal;
mod breakthrough;
mod chess;
mod connect4;
mod fast_keeper_in_place;
mod fast_random_automata;
mod fast_reach_plans;
mod fast_tree_leaf;
mod random_automata;
mod semantics;
mod tictactoe;

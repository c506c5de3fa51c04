//! The corpus crate's integration tests, linked into one test binary (`cargo test -p
//! regula-compiled --test integration`; a file's tests alone: add its module name as a filter, e.g.
//! `equivalence`).
//!
//! One binary instead of one per file: each file used to be a separate crate that linked the
//! generated models, the compiler and the runtime again.
//!
//! Every file of this folder must be declared here (or be a `[[test]]` of its own): the check is
//! `every_test_file_is_compiled_into_a_test_binary` in cli/tests/main.rs, one for the workspace.

mod bit_listing;
mod codegen_up_to_date;
mod equivalence;

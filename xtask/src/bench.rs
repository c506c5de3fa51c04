//! `cargo xtask bench`: builds the benchmark suite in release mode and runs it over the corpus
//! (arguments are passed on: `--quick`, `--runs N`, `--seconds S`, `--game FILTER`).

use std::process::Command;

pub fn run(args: &[String]) -> Result<(), String> {
    super::run(
        Command::new("cargo")
            .args(["run", "--release", "-p", "regula-benches", "--bin", "regula-bench", "--"])
            .args(args),
    )
}

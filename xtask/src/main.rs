//! `cargo xtask`: project automation — `ci`, `perft`, `tidy` (and `bench` once the benchmark suite lands).
//!
//! Each task shells out to cargo so that it runs exactly what a developer would type.

mod bench;
mod codegen;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("bench") => bench::run(&args[1..]),
        Some("ci") => ci(),
        Some("codegen") => codegen::run(&args[1..]),
        Some("perft") => perft(),
        Some("tidy") => tidy(),
        Some("help") | Some("--help") | Some("-h") | None => {
            print_help();
            Ok(())
        }
        Some(other) => Err(format!("unknown task `{other}`; run `cargo xtask help`")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn print_help() {
    println!(
        "cargo xtask <task>\n\n\
         tasks:\n  \
         bench  engine benchmarks over the corpus in release mode (--quick for a short run)\n  \
         ci     tidy, then the test command of .ci/run\n  \
         codegen  regenerate the compiled corpus models in compiled/src/games (--check: only compare)\n  \
         perft  the corpus perft runner in release mode, slow entries included (REGULA_SLOW=1)\n  \
         tidy   repository invariants: `//!` headers, rustfmt, runtime dependency rules"
    );
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives one level below the root").to_path_buf()
}

fn run(command: &mut Command) -> Result<(), String> {
    let status = command.current_dir(workspace_root()).status().map_err(|e| format!("{command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed with {status}"))
    }
}

fn ci() -> Result<(), String> {
    tidy()?;
    run(Command::new("bash").arg(".ci/run"))
}

fn perft() -> Result<(), String> {
    run(Command::new("cargo")
        .args(["test", "--release", "-p", "regula", "--test", "integration", "corpus_perft", "--", "--nocapture"])
        .env("REGULA_SLOW", "1"))
}

/// Checks the invariants that are cheap to state and easy to break without noticing.
fn tidy() -> Result<(), String> {
    let root = workspace_root();
    let mut problems = Vec::new();

    // Every Rust file says what it is in its first line.
    let mut files = Vec::new();
    collect_rust_files(&root, &mut files);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if !text.starts_with("//!") {
            problems.push(format!("{}: first line is not a `//!` module doc", relative(&root, file)));
        }
    }

    // The runtime never depends on the compiler or on the compiler's parsing/graph crates. Its
    // integration tests may (`[dev-dependencies]`: they load corpus games), the library may not.
    let runtime_manifest = std::fs::read_to_string(root.join("runtime/Cargo.toml")).map_err(|e| e.to_string())?;
    let mut section = String::new();
    let library_lines: Vec<&str> = runtime_manifest
        .lines()
        .filter(|l| {
            if l.trim_start().starts_with('[') {
                section = l.trim().to_string();
            }
            !section.starts_with("[dev-dependencies")
        })
        .collect();
    for forbidden in ["regula-compiler", "petgraph", "logos", "chumsky", "ariadne"] {
        if library_lines.iter().any(|l| l.trim_start().starts_with(forbidden)) {
            problems.push(format!("runtime/Cargo.toml depends on `{forbidden}`"));
        }
    }

    // The compiler is pure: no process exits, no file system access.
    for file in files.iter().filter(|f| f.starts_with(root.join("compiler/src"))) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for forbidden in ["std::process::exit", "std::fs::", "fs::read", "fs::write"] {
            if text.contains(forbidden) {
                problems.push(format!("{}: the compiler must stay pure (`{forbidden}`)", relative(&root, file)));
            }
        }
    }

    if let Err(e) = run(Command::new("cargo").args(["fmt", "--all", "--", "--check"])) {
        problems.push(format!("rustfmt: {e}"));
    }

    if problems.is_empty() {
        println!("tidy: ok ({} Rust files)", files.len());
        Ok(())
    } else {
        Err(format!("tidy found {} problem(s):\n  {}", problems.len(), problems.join("\n  ")))
    }
}

fn collect_rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "target" | ".git" | "fuzz" | "generated") && !name.starts_with('.') {
                collect_rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

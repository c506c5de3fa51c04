//! Helpers shared by the end-to-end tests: running the `regula` binary from the repository root,
//! its output as text, and scratch directories that remove themselves.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root: games are named relative to it, as a user at the root would.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `regula` with `args` from the repository root, with nothing on standard input.
pub fn regula(args: &[&str]) -> Output {
    regula_with_input(args, "")
}

/// Runs `regula` with `input` piped to standard input.
pub fn regula_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(args)
        .current_dir(repository())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the regula binary runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    // The program may quit before reading everything: a broken pipe here is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("regula finishes")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// An empty directory under the system's temporary folder, unique to this test process and
/// `name`, removed when dropped. A failing test keeps its directory (the panic message names it
/// through the paths in its assertions) so the files that made it fail can be looked at.
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("regula-cli-tests-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("scratch directory");
        Scratch { path }
    }

    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

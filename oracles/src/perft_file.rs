//! Reading `games/<name>/perft.toml`: expected perft counts, each with the source it came from.
//!
//! Format (see `spec/games.md`):
//! ```toml
//! sources = ["chess.hrg"]            # game files in this folder; every one must give these counts
//!
//! [[counts]]
//! expected = [1, 20, 400, 8902, 197281]   # perft at depths 0, 1, 2, ...
//! source = "published: Chess Programming Wiki, Perft Results, initial position"
//! run = "default"                      # "default" (every test run) or "slow" (only with REGULA_SLOW=1)
//! ```
//! A `source` is either `published: <citation>` or `independent: <path of the implementation>`.

use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerftFile {
    /// Game files (relative to the folder) that must all give these counts.
    pub sources: Vec<String>,
    #[serde(default)]
    pub counts: Vec<Counts>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// perft(0), perft(1), ...
    pub expected: Vec<u64>,
    /// Where the numbers come from: `published: ...` or `independent: ...`.
    pub source: String,
    /// `default` or `slow`.
    #[serde(default = "default_run")]
    pub run: String,
}

fn default_run() -> String {
    "default".to_string()
}

impl Counts {
    pub fn is_slow(&self) -> bool {
        self.run == "slow"
    }
}

/// The `games/` folder of this repository.
pub fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("games")
}

/// Reads and parses one `perft.toml`.
pub fn read(path: &Path) -> Result<PerftFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Whether slow entries should run (`REGULA_SLOW=1`).
pub fn slow_enabled() -> bool {
    std::env::var("REGULA_SLOW").is_ok_and(|v| v == "1")
}

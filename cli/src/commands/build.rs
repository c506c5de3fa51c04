//! `regula build FILE --out DIR [--runtime PATH]`: writes a crate holding the game's compiled
//! forward model (generated Rust, spec/codegen.md) with a binary that runs playouts and perft.

use crate::failure::Failure;
use crate::source::SourceFile;
use std::path::Path;

/// The runtime crate of the checkout this program was built from.
fn default_runtime() -> String {
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("runtime");
    runtime.canonicalize().unwrap_or(runtime).display().to_string()
}

pub fn build(path: &Path, out: &Path, runtime: Option<&Path>) -> Result<(), Failure> {
    let source = SourceFile::read(path)?;
    let automaton = regula_compiler::codegen::optimized_automaton(&source.name, &source.text)
        .map_err(|diagnostics| source.diagnostics_failure(&diagnostics))?;
    let module = regula_compiler::codegen::generate(&automaton, &source.name)
        .map_err(|e| Failure::new(format!("cannot generate code for `{}`: {e}", source.name)))?;
    let stem = path.file_stem().map_or_else(|| "game".to_string(), |s| s.to_string_lossy().into_owned());
    let runtime = runtime.map_or_else(default_runtime, |p| p.display().to_string());
    for file in regula_compiler::codegen::crate_files(&stem, &module, &runtime) {
        let target = out.join(&file.path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Failure::io(parent, e))?;
        }
        std::fs::write(&target, &file.contents).map_err(|e| Failure::io(&target, e))?;
    }
    eprintln!(
        "wrote {}; run it with: cargo run --release --manifest-path {} -- playouts 100000",
        out.display(),
        out.join("Cargo.toml").display()
    );
    Ok(())
}

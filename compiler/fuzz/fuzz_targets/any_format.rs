//! cargo-fuzz target: any bytes through any front end. The first byte picks the format (RG, HRG,
//! blocks, rules, cards), the rest is the source; `load` must never panic, every rejection must be
//! located inside the source, and the printed RG of an accepted program must compile again.
//! Run from `compiler/fuzz` with `RUSTC_BOOTSTRAP=1 cargo fuzz run any_format corpus/any`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use regula_compiler::diagnostics::render;
use regula_compiler::rg;

const FILE_NAMES: [&str; 5] = ["fuzz.rg", "fuzz.hrg", "fuzz.blocks", "fuzz.rules", "fuzz.cards"];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let file_name = FILE_NAMES[selector as usize % FILE_NAMES.len()];
    let source = String::from_utf8_lossy(rest);
    match regula_compiler::load(file_name, &source) {
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "rejected without a diagnostic");
            for diagnostic in &diagnostics {
                assert!(diagnostic.primary.span.end <= source.len(), "span past the end: {diagnostic:?}");
            }
            let _ = render(&diagnostics, file_name, &source);
        }
        Ok(loaded) => {
            let printed = rg::print(&loaded.rg);
            assert!(rg::compile(&printed).is_ok(), "printed RG of an accepted {file_name} does not compile:\n{printed}");
        }
    }
});

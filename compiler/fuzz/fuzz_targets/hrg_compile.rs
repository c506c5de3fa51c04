//! cargo-fuzz target: any bytes through the high-level front end (parse, check, lower, RG
//! validation, print) must never panic, and the printed RG of a compiled program must compile.
//! Run from `compiler/fuzz` with `RUSTC_BOOTSTRAP=1 cargo fuzz run hrg_compile corpus/hrg ../test_data/hrg/ok`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use regula_compiler::diagnostics::render;
use regula_compiler::{hrg, rg};

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    match hrg::compile(&source) {
        Err(diagnostics) => {
            let _ = render(&diagnostics, "fuzz.hrg", &source);
        }
        Ok(loaded) => {
            let printed = rg::print(&loaded.rg);
            assert!(rg::compile(&printed).is_ok(), "printed RG of a compiled program does not compile:\n{printed}");
        }
    }
});

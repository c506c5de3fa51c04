//! cargo-fuzz target: any bytes through the RG front end (parse, check, lower, print, render)
//! must neither panic nor break the print/parse round trip.
//! Run from `compiler/fuzz` with `RUSTC_BOOTSTRAP=1 cargo fuzz run rg_compile corpus/rg ../test_data/rg/ok`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use regula_compiler::diagnostics::render;
use regula_compiler::rg;

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    match rg::parse(&source) {
        Err(diagnostics) => {
            let _ = render(&diagnostics, "fuzz.rg", &source);
        }
        Ok(game) => {
            let diagnostics = rg::check(&game);
            let _ = render(&diagnostics, "fuzz.rg", &source);
            let _ = rg::lower(&game);
            let printed = rg::print(&game);
            assert_eq!(rg::parse(&printed).as_ref(), Ok(&game));
        }
    }
});

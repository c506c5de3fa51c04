//! Build script: detects whether the compiler has `core::hint::select_unpredictable` (stable since
//! Rust 1.88; the workspace's minimum is 1.85) and sets `cfg(regula_select_unpredictable)` when it
//! does, so `compiled::rays::select_unpredictable` uses it there and a plain `if` elsewhere.

use std::process::Command;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(regula_select_unpredictable)");
    println!("cargo:rerun-if-env-changed=RUSTC");
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    // `rustc 1.95.0 (59807616e 2026-04-14)`: the minor version is the second number.
    let minor = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .and_then(|text| text.split_whitespace().nth(1)?.split('.').nth(1)?.parse::<u32>().ok());
    if minor.is_some_and(|minor| minor >= 88) {
        println!("cargo:rustc-cfg=regula_select_unpredictable");
    }
}

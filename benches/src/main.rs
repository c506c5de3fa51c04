//! `regula-bench`: placeholder replaced below.
fn main() {}

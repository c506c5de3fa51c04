//! `cargo xtask`: project automation (ci, bench, perft, tidy).

fn main() {
    eprintln!("xtask: not yet");
    std::process::exit(2);
}

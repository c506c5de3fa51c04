//! The `regula` command-line program.

fn main() {
    println!("regula: not yet");
}

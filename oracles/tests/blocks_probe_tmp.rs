use regula_oracles::blocks::games;
#[test]
fn probe() {
    for (name, depth) in [("blocks-alquerque", 12), ("blocks-gun-cannon", 8), ("blocks-othello5", 10)] {
        let t = std::time::Instant::now();
        println!("{name} {:?} {:?}", games::by_folder(name).unwrap().perft(depth), t.elapsed());
    }
}

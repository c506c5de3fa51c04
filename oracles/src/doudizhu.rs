//! Independent Dou Dizhu play rules in plain Rust: classify a set of cards, compare two plays and
//! list every legal play from a hand, written from the standard rules with DouZero/RLCard's
//! kicker conventions (not from the card rule language), to cross-check `games/doudizhu`.
//!
//! Hands are counts per rank: index 0..=12 are 3 4 5 6 7 8 9 10 J Q K A 2, 13 the small joker,
//! 14 the big joker.

pub const RANKS: usize = 15;
pub type Hand = [u8; RANKS];

/// Chains use the ranks 3..=A only.
const CHAIN_TOP: usize = 11;
const SMALL_JOKER: usize = 13;
const BIG_JOKER: usize = 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    Rocket,
    Bomb,
    Solo,
    Pair,
    Trio,
    TrioSolo,
    TrioPair,
    SoloChain,
    PairChain,
    Airplane,
    AirplaneSolos,
    AirplanePairs,
    FourTwoSolos,
    FourTwoPairs,
}

/// A classified play: its category, its size and its primal rank (lowest chain rank, or the rank
/// of the trio or quad).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    pub category: Category,
    pub size: usize,
    pub key: usize,
}

fn total(hand: &Hand) -> usize {
    hand.iter().map(|&c| c as usize).sum()
}

/// Ranks with a given count, ascending.
fn ranks_with(hand: &Hand, count: u8) -> Vec<usize> {
    (0..RANKS).filter(|&r| hand[r] == count).collect()
}

/// Every reading of a card set as a legal play (usually one; a few sets have several).
pub fn readings(hand: &Hand) -> Vec<Play> {
    let n = total(hand);
    let mut out = Vec::new();
    let play = |category, key| Play { category, size: n, key };
    if n == 0 {
        return out;
    }
    let distinct: Vec<usize> = (0..RANKS).filter(|&r| hand[r] > 0).collect();
    if n == 2 && hand[SMALL_JOKER] == 1 && hand[BIG_JOKER] == 1 {
        out.push(play(Category::Rocket, BIG_JOKER));
        return out;
    }
    if distinct.len() == 1 {
        let r = distinct[0];
        match n {
            1 => out.push(play(Category::Solo, r)),
            2 => out.push(play(Category::Pair, r)),
            3 => out.push(play(Category::Trio, r)),
            4 => out.push(play(Category::Bomb, r)),
            _ => {}
        }
        return out;
    }
    let consecutive =
        |ranks: &[usize]| ranks.windows(2).all(|w| w[1] == w[0] + 1) && ranks.last().is_some_and(|&r| r <= CHAIN_TOP);
    // Chains where every rank has the same count.
    if distinct.iter().all(|&r| hand[r] == 1) && n >= 5 && consecutive(&distinct) {
        out.push(play(Category::SoloChain, distinct[0]));
    }
    if distinct.iter().all(|&r| hand[r] == 2) && distinct.len() >= 3 && consecutive(&distinct) {
        out.push(play(Category::PairChain, distinct[0]));
    }
    if distinct.iter().all(|&r| hand[r] == 3) && distinct.len() >= 2 && consecutive(&distinct) {
        out.push(play(Category::Airplane, distinct[0]));
    }
    // Trio with a kicker.
    if n == 4 && ranks_with(hand, 3).len() == 1 {
        out.push(play(Category::TrioSolo, ranks_with(hand, 3)[0]));
    }
    if n == 5 && ranks_with(hand, 3).len() == 1 && ranks_with(hand, 2).len() == 1 {
        out.push(play(Category::TrioPair, ranks_with(hand, 3)[0]));
    }
    // Four with two.
    for quad in ranks_with(hand, 4) {
        let mut rest = *hand;
        rest[quad] = 0;
        let rocket = rest[SMALL_JOKER] == 1 && rest[BIG_JOKER] == 1;
        if n == 6 && !rocket {
            out.push(play(Category::FourTwoSolos, quad));
        }
        let pairs = ranks_with(&rest, 2);
        if n == 8 && pairs.len() == 2 {
            out.push(play(Category::FourTwoPairs, quad));
        }
    }
    // Airplanes with wings: a run of k >= 2 trios (exactly 3 of each) and k wings.
    for start in 0..=CHAIN_TOP {
        for len in 2..=(CHAIN_TOP + 1 - start) {
            let chain = start..start + len;
            if chain.clone().any(|r| hand[r] != 3) {
                break;
            }
            let mut wings = *hand;
            for r in chain.clone() {
                wings[r] = 0;
            }
            let wing_count = total(&wings);
            // Solo wings: no bomb among them, not both jokers, no trio right next to the chain.
            let next_trio = |r: Option<usize>| r.is_some_and(|r| r <= CHAIN_TOP && wings[r] == 3);
            if wing_count == len
                && wings.iter().all(|&c| c < 4)
                && !(wings[SMALL_JOKER] == 1 && wings[BIG_JOKER] == 1)
                && !next_trio(start.checked_sub(1))
                && !next_trio(Some(start + len))
            {
                out.push(play(Category::AirplaneSolos, start));
            }
            // Pair wings: k distinct pairs.
            if wing_count == 2 * len && (0..RANKS).all(|r| wings[r] == 0 || wings[r] == 2) {
                out.push(play(Category::AirplanePairs, start));
            }
        }
    }
    out
}

/// The reading a player makes of a card set: the first category in rule-book order, and within
/// it the highest key.
pub fn classify(hand: &Hand) -> Option<Play> {
    let all = readings(hand);
    all.iter().copied().min_by_key(|p| (p.category, std::cmp::Reverse(p.key)))
}

/// Whether `new` may be played on `old` (`None`: the player leads).
pub fn beats(new: &Play, old: Option<&Play>) -> bool {
    let Some(old) = old else { return true };
    match (new.category, old.category) {
        (Category::Rocket, _) => true,
        (_, Category::Rocket) => false,
        (Category::Bomb, Category::Bomb) => new.key > old.key,
        (Category::Bomb, _) => true,
        (a, b) => a == b && new.size == old.size && new.key > old.key,
    }
}

/// Every legal play (as card counts) from `hand` on `old`; passing is not included.
pub fn legal_plays(hand: &Hand, old: Option<&Play>) -> Vec<Hand> {
    let mut out = Vec::new();
    let mut current = [0u8; RANKS];
    fn walk(rank: usize, hand: &Hand, current: &mut Hand, old: Option<&Play>, out: &mut Vec<Hand>) {
        if rank == RANKS {
            if let Some(play) = classify(current) {
                if beats(&play, old) {
                    out.push(*current);
                }
            }
            return;
        }
        for count in 0..=hand[rank] {
            current[rank] = count;
            walk(rank + 1, hand, current, old, out);
        }
        current[rank] = 0;
    }
    walk(0, hand, &mut current, old, &mut out);
    out
}

/// The number of distinct plays from a full deck (every category, without pass).
pub fn action_space_size() -> usize {
    let mut deck = [4u8; RANKS];
    deck[SMALL_JOKER] = 1;
    deck[BIG_JOKER] = 1;
    let mut count = 0;
    let mut current = [0u8; RANKS];
    fn walk(rank: usize, deck: &Hand, left: usize, current: &mut Hand, count: &mut usize) {
        if rank == RANKS {
            if classify(current).is_some() {
                *count += 1;
            }
            return;
        }
        for c in 0..=deck[rank].min(left as u8) {
            current[rank] = c;
            walk(rank + 1, deck, left - c as usize, current, count);
        }
        current[rank] = 0;
    }
    walk(0, &deck, 20, &mut current, &mut count);
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(text: &str) -> Hand {
        let mut h = [0u8; RANKS];
        for c in text.chars() {
            let r = "3456789TJQKA2wW".find(c).expect("rank");
            h[r] += 1;
        }
        h
    }

    #[test]
    fn hand_worked_categories_and_comparisons() {
        let p = |t: &str| classify(&hand(t)).map(|p| p.category);
        assert_eq!(p("wW"), Some(Category::Rocket));
        assert_eq!(p("7777"), Some(Category::Bomb));
        assert_eq!(p("34567"), Some(Category::SoloChain));
        assert_eq!(p("JQKA2"), None);
        assert_eq!(p("334455"), Some(Category::PairChain));
        assert_eq!(p("333444"), Some(Category::Airplane));
        assert_eq!(p("33344459"), Some(Category::AirplaneSolos));
        assert_eq!(p("33344455"), Some(Category::AirplaneSolos));
        assert_eq!(p("3334445599"), Some(Category::AirplanePairs));
        assert_eq!(p("333344"), Some(Category::FourTwoSolos));
        assert_eq!(p("33334455"), Some(Category::FourTwoPairs));
        assert_eq!(p("33334444"), None);
        assert_eq!(p("3335"), Some(Category::TrioSolo));
        assert_eq!(p("33355"), Some(Category::TrioPair));
        let c = |t: &str| classify(&hand(t)).unwrap();
        assert!(beats(&c("wW"), Some(&c("2222"))));
        assert!(beats(&c("3333"), Some(&c("AAA2"))));
        assert!(!beats(&c("45678"), Some(&c("456789"))));
        assert!(beats(&c("56789"), Some(&c("45678"))));
        assert!(!beats(&c("333444"), Some(&c("444555"))));
        assert!(beats(&c("KKK3"), Some(&c("QQQA"))));
        assert!(!beats(&c("KKKK33"), Some(&c("3333"))), "four with two is not a bomb");
    }

    /// Walks every card set of at most 20 cards (about 4 minutes in debug builds):
    /// `cargo test -p regula-oracles -- --ignored full_deck`.
    #[test]
    #[ignore]
    fn the_full_deck_has_the_published_27471_plays() {
        assert_eq!(action_space_size() + 1, 27_472);
    }
}

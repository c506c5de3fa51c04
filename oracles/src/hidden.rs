//! Independent Goofspiel with four cards, the hidden-move game of `games/hidden`, in plain Rust.
//!
//! Rules (also in `spec/games.md`): each player holds the cards 1..=4; the prize deck holds
//! 1..=4. For four rounds: a prize card is drawn uniformly at random from the deck (a chance
//! move, seen by both); `first` bids a card from their hand (hidden from `second`); `second`
//! bids a card (seen by `first`); the higher bid wins points equal to the prize, equal bids win
//! nothing; both bids are discarded. After four rounds the higher total wins. Scores: winner 100,
//! loser 0, equal totals 50 each.
//!
//! Perft conventions: draws and bids each cost one depth; distinct prizes give distinct states.

/// Cards per hand and in the prize deck.
pub const CARDS: u8 = 4;

/// A state between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Bit c-1 set when card c is still in the deck / hand.
    pub deck: u8,
    pub hands: [u8; 2],
    pub prize: u8,
    /// The first player's hidden bid in the current round (0 when none).
    pub bid: u8,
    pub points: [u8; 2],
    /// 0: draw a prize, 1: first bids, 2: second bids, 3: over.
    pub step: u8,
}

impl State {
    pub fn start() -> State {
        let all = (1u8 << CARDS) - 1;
        State { deck: all, hands: [all, all], prize: 0, bid: 0, points: [0, 0], step: 0 }
    }

    /// The cards (1..=CARDS) available to the one who moves next.
    pub fn moves(&self) -> Vec<u8> {
        let pool = match self.step {
            0 => self.deck,
            1 => self.hands[0],
            2 => self.hands[1],
            _ => 0,
        };
        (1..=CARDS).filter(|c| pool & (1 << (c - 1)) != 0).collect()
    }

    pub fn play(&self, card: u8) -> State {
        let mut next = *self;
        let bit = 1 << (card - 1);
        match self.step {
            0 => {
                next.deck &= !bit;
                next.prize = card;
                next.step = 1;
            }
            1 => {
                next.hands[0] &= !bit;
                next.bid = card;
                next.step = 2;
            }
            _ => {
                next.hands[1] &= !bit;
                match self.bid.cmp(&card) {
                    std::cmp::Ordering::Greater => next.points[0] += self.prize,
                    std::cmp::Ordering::Less => next.points[1] += self.prize,
                    std::cmp::Ordering::Equal => {}
                }
                next.bid = 0;
                next.step = if next.deck == 0 { 3 } else { 0 };
            }
        }
        next
    }

    /// Scores (first, second) of a finished game.
    pub fn scores(&self) -> (u32, u32) {
        match self.points[0].cmp(&self.points[1]) {
            std::cmp::Ordering::Greater => (100, 0),
            std::cmp::Ordering::Less => (0, 100),
            std::cmp::Ordering::Equal => (50, 50),
        }
    }
}

/// Number of states at each depth 0..=depth.
pub fn perft(depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    count(&State::start(), 0, &mut counts);
    counts
}

fn count(state: &State, ply: usize, counts: &mut [u64]) {
    counts[ply] += 1;
    if ply + 1 < counts.len() {
        for card in state.moves() {
            count(&state.play(card), ply + 1, counts);
        }
    }
}

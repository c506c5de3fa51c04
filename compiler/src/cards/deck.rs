//! The deck of a card program: its physical cards and the *kinds* hands are counted in.
//!
//! When no pattern or list of the program tells suits apart (beyond telling jokers from the
//! rest), cards of one rank are one kind and hands are rank-count maps; otherwise every distinct
//! card is its own kind.

/// A class of cards that no pattern or list of the program tells apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// The name used in move tags and in the generated RG text (`3`, `0`, `JB`, `HA`).
    pub name: String,
    /// A representative suit character (the real one when suits matter, `J` for jokers).
    pub suit: char,
    pub rank: char,
    /// Copies of the kind in the full deck.
    pub copies: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// Every physical card as its two characters (suit, rank), in deck order.
    pub cards: Vec<(char, char)>,
    /// The kind of each physical card.
    pub card_kind: Vec<usize>,
    pub kinds: Vec<Kind>,
    pub suits_matter: bool,
}

impl Deck {
    /// Builds the deck: `packs` copies of every suit x rank, plus the jokers `JS` and `JB`.
    pub fn new(suits: &[char], ranks: &[char], jokers: bool, packs: u8, suits_matter: bool) -> Deck {
        let mut one_pack: Vec<(char, char)> = Vec::new();
        for &suit in suits {
            for &rank in ranks {
                one_pack.push((suit, rank));
            }
        }
        if jokers {
            one_pack.push(('J', 'S'));
            one_pack.push(('J', 'B'));
        }
        let mut kinds: Vec<Kind> = Vec::new();
        let mut card_kind = Vec::new();
        let mut cards = Vec::new();
        // Kinds are listed rank by rank (in `ranks` order, jokers last) so that tables read well.
        let kind_of = |card: (char, char), kinds: &mut Vec<Kind>| -> usize {
            let joker = card.0 == 'J' && (card.1 == 'S' || card.1 == 'B') && jokers;
            let name = if suits_matter || joker { format!("{}{}", card.0, card.1) } else { card.1.to_string() };
            if let Some(i) = kinds.iter().position(|k| k.name == name) {
                kinds[i].copies += 1;
                return i;
            }
            kinds.push(Kind { name, suit: card.0, rank: card.1, copies: 1 });
            kinds.len() - 1
        };
        let mut ordered = one_pack.clone();
        ordered.sort_by_key(|&(s, r)| {
            let joker = s == 'J' && jokers && (r == 'S' || r == 'B');
            (joker, ranks.iter().position(|&x| x == r).unwrap_or(usize::MAX), r, suits.iter().position(|&x| x == s))
        });
        for card in &ordered {
            kind_of(*card, &mut kinds);
        }
        for kind in &mut kinds {
            kind.copies = 0;
        }
        for _ in 0..packs.max(1) {
            for &card in &one_pack {
                let k = kind_of(card, &mut kinds);
                cards.push(card);
                card_kind.push(k);
            }
        }
        Deck { cards, card_kind, kinds, suits_matter }
    }

    /// The copies of every kind, indexed by kind.
    pub fn copies(&self) -> Vec<u8> {
        self.kinds.iter().map(|k| k.copies).collect()
    }

    /// The name of a physical card (`H3`, `JB`); with several packs, later copies get a suffix.
    pub fn card_name(&self, index: usize) -> String {
        let (s, r) = self.cards[index];
        let copy = self.cards[..index].iter().filter(|&&c| c == (s, r)).count();
        if copy == 0 {
            format!("{s}{r}")
        } else {
            format!("{s}{r}_{copy}")
        }
    }

    /// The kind of a card written as two characters, if the deck has it.
    pub fn kind_of_text(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let (s, r) = (chars.next()?, chars.next()?);
        let index = self.cards.iter().position(|&c| c == (s, r))?;
        Some(self.card_kind[index])
    }
}

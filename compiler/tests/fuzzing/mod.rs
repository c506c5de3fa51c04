//! Test support shared by the no-panic property tests of the front ends: byte-level mutations of
//! valid programs (delete, insert a vocabulary word, swap, truncate) and the case count knob.

#![allow(dead_code)]

use proptest::prelude::*;

/// One edit of a source text; positions are taken modulo the text's length when applied.
#[derive(Clone, Debug)]
pub enum Mutation {
    Delete(usize, usize),
    Insert(usize, String),
    Swap(usize, usize),
    Truncate(usize),
}

/// Applies `mutations` in order to `source`'s bytes, then makes the result valid UTF-8 again.
pub fn apply(source: &str, mutations: &[Mutation]) -> String {
    let mut bytes = source.as_bytes().to_vec();
    for mutation in mutations {
        let len = bytes.len().max(1);
        match mutation {
            Mutation::Delete(at, count) => {
                let at = at % len;
                let stop = (at + count).min(bytes.len());
                if at < stop {
                    bytes.drain(at..stop);
                }
            }
            Mutation::Insert(at, text) => {
                let at = (at % len).min(bytes.len());
                bytes.splice(at..at, text.bytes());
            }
            Mutation::Swap(i, j) => {
                if !bytes.is_empty() {
                    let (i, j) = (i % bytes.len(), j % bytes.len());
                    bytes.swap(i, j);
                }
            }
            Mutation::Truncate(at) => bytes.truncate(at % len),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A random mutation; insertions pick a word of `vocabulary` (the format's keywords and punctuation).
pub fn mutation(vocabulary: &'static [&'static str]) -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(at, n)| Mutation::Delete(at, n)),
        (any::<usize>(), prop::sample::select(vocabulary)).prop_map(|(at, t)| Mutation::Insert(at, format!(" {t} "))),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::Swap(i, j)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

/// Cases per property: `REGULA_FUZZ_CASES` when set, else `default`.
pub fn fuzz_cases(default: u32) -> u32 {
    std::env::var("REGULA_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

/// Calls `exercise` on every `step`-th prefix (cut at a character boundary) of every source.
pub fn every_prefix(sources: &[&str], step: usize, mut exercise: impl FnMut(&str)) {
    for source in sources {
        for cut in (0..=source.len()).step_by(step.max(1)).filter(|&cut| source.is_char_boundary(cut)) {
            exercise(&source[..cut]);
        }
    }
}

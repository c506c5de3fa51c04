//! Affine key offsets: a map access `m[k]` whose offsets, over every symbol the key `k` can
//! hold, are `stride * k + shift` is emitted as that arithmetic instead of a lookup `OFF[k]`
//! (spec/codegen.md, "Affine key offsets").
//!
//! Symbols of one domain are numbered consecutively in declaration order and maps lay their
//! keys' blocks out in the same order, so a board's offsets usually are affine in the key
//! symbol: connect four .hrg's `height[column]` is `v[44 + (column - 9)]`, `board[last]` is
//! `v[last - 23]`. The table lookup is a dependent load (about four cycles on the benchmark
//! machine) on the path from the key to the slot; the arithmetic is one `lea` or a shift and an
//! add. Exact: the formula gives the table's entry for every symbol the value sets
//! ([`super::values`], sound over every reachable state) allow the key, and the offsets are not
//! negative, so `stride * k + shift` never underflows for those symbols (the shift is added
//! last, after the product, when it is negative). Not taken where the key can hold fewer than
//! two symbols, or the offsets over its symbols are not of that form with a stride of at
//! least 1.

/// The stride and shift with `offsets[k] == stride * k + shift` for every `k` in `keys`, if
/// there are two keys or more and the stride is at least 1.
pub(crate) fn affine(offsets: &[u64], keys: &[u32]) -> Option<(u64, i64)> {
    let mut sorted: Vec<u32> = keys.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let (&first, &second) = (sorted.first()?, sorted.get(1)?);
    let at = |k: u32| offsets.get(k as usize).map(|&o| o as i64);
    let (first_offset, second_offset) = (at(first)?, at(second)?);
    let rise = second_offset - first_offset;
    let run = (second - first) as i64;
    if rise <= 0 || rise % run != 0 {
        return None;
    }
    let stride = rise / run;
    let shift = first_offset - stride * first as i64;
    sorted.iter().all(|&k| at(k) == Some(stride * k as i64 + shift)).then_some((stride as u64, shift))
}

/// The offset `stride * key + shift` as a `usize` expression, `key` a `usize` expression.
pub(crate) fn expression(key: &str, stride: u64, shift: i64) -> String {
    let product = if stride == 1 { key.to_string() } else { format!("{key} * {stride}") };
    match shift {
        0 => format!("({product})"),
        s if s > 0 => format!("({product} + {s})"),
        s => format!("({product} - {})", -s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_in_step_with_the_keys_are_affine_and_others_are_not() {
        // Symbols 9..=15 at offsets 0, 8, ..., 48 (a column's block of eight slots).
        let mut offsets = vec![56u64; 256];
        for k in 9..=15u32 {
            offsets[k as usize] = 8 * (k as u64 - 9);
        }
        let keys: Vec<u32> = (9..=15).collect();
        assert_eq!(affine(&offsets, &keys), Some((8, -72)));
        assert_eq!(expression("(v[52] as usize)", 8, -72), "((v[52] as usize) * 8 - 72)");
        // A key that may also hold a symbol outside the map (the default block's offset 56,
        // off the line for symbol 20; for symbol 16 it happens to be on it, `8 * 16 - 72`, and
        // the formula gives the table's entry there too).
        assert_eq!(affine(&offsets, &[9, 10, 20]), None);
        assert_eq!(affine(&offsets, &[9, 10, 16]), Some((8, -72)));
        // One symbol only: nothing to say.
        assert_eq!(affine(&offsets, &[12]), None);
        // Gaps between the key's symbols keep the formula.
        assert_eq!(affine(&offsets, &[9, 15]), Some((8, -72)));
        // Decreasing offsets are not taken.
        let mut reversed = vec![0u64; 256];
        reversed[3] = 5;
        reversed[4] = 4;
        assert_eq!(affine(&reversed, &[3, 4]), None);
        // A positive shift.
        let shifted: Vec<u64> = (0..10).map(|k| 2 * k + 3).collect();
        assert_eq!(affine(&shifted, &[0, 1, 5]), Some((2, 3)));
        assert_eq!(expression("k", 2, 3), "(k * 2 + 3)");
        assert_eq!(expression("k", 1, 0), "(k)");
    }

    #[test]
    fn the_formula_never_underflows_for_the_key_s_symbols() {
        // Symbols 23..=65 at offsets 0..=42: `k - 23` is at least 0 for each.
        let offsets: Vec<u64> = (0..256u64).map(|k| if (23..=65).contains(&k) { k - 23 } else { 43 }).collect();
        let keys: Vec<u32> = (23..=65).collect();
        let (stride, shift) = affine(&offsets, &keys).expect("affine");
        for k in keys {
            assert_eq!((k as u64 * stride).checked_add_signed(shift), Some(offsets[k as usize]));
        }
    }
}

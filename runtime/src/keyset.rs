//! An exact set of variable-length `u32` keys, shared by the engines' visited sets.
//!
//! Keys live back to back in one arena and are found through an open-addressing table (linear
//! probing) stamped with a generation, so `clear` is O(1) and no key costs an allocation. The
//! caller supplies each key's hash (the engines maintain state hashes incrementally), a comparison
//! of a stored key with its own, and a writer that appends its key, so a key is never built in a
//! temporary buffer and each engine compares in its own encoding with slice comparisons (an
//! iterator-based comparison measured 8-15 % slower playouts). Membership is exact: a hash match
//! is confirmed by the comparison.

/// Tables larger than this are dropped on clear, so one huge search does not pin its memory for
/// the rest of the thread's life.
const KEEP_TABLE_AT_MOST: usize = 1 << 16;

#[derive(Default)]
pub(crate) struct KeySet {
    /// `(generation, index into entries)`; a slot whose generation is not the current one is empty.
    table: Vec<(u32, u32)>,
    generation: u32,
    /// Per key: its hash, where it starts in `arena`, and its length in words.
    entries: Vec<(u64, u32, u32)>,
    arena: Vec<u32>,
}

impl KeySet {
    // Inline in every codegen unit: the move search clears its visited set on entry, and a
    // function without `#[inline]` is inlined only into callers of its own unit. Commit c1adf48
    // changed the release build's unit split and left this call out of line in
    // `Scratch::explore` (about 1.5 % of breakthrough's wall time; spec/engines.md, "the
    // search's hot layout is pinned").
    #[inline]
    pub fn clear(&mut self) {
        if self.table.len() > KEEP_TABLE_AT_MOST {
            *self = KeySet::default();
            return;
        }
        self.entries.clear();
        self.arena.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Stamps wrapped around: old slots could look current, so empty them for real.
            self.table.fill((0, 0));
            self.generation = 1;
        }
    }

    fn grow(&mut self) {
        let size = (self.table.len() * 2).max(64);
        self.generation = 1;
        self.table = vec![(0, 0); size];
        let mask = size - 1;
        for (index, &(hash, _, _)) in self.entries.iter().enumerate() {
            let mut position = hash as usize & mask;
            while self.table[position].0 == self.generation {
                position = (position + 1) & mask;
            }
            self.table[position] = (self.generation, index as u32);
        }
    }

    /// Records a key of `len` words; `false` when it was already present. `is_key` tells whether a
    /// stored key (exactly `len` words) equals it; `write` appends its `len` words to the arena.
    #[inline]
    pub fn insert(
        &mut self,
        hash: u64,
        len: usize,
        is_key: impl Fn(&[u32]) -> bool,
        write: impl FnOnce(&mut Vec<u32>),
    ) -> bool {
        if (self.entries.len() + 1) * 2 > self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut position = hash as usize & mask;
        loop {
            let (generation, entry) = self.table[position];
            if generation != self.generation {
                break;
            }
            let (entry_hash, start, entry_len) = self.entries[entry as usize];
            if entry_hash == hash
                && entry_len as usize == len
                && is_key(&self.arena[start as usize..start as usize + len])
            {
                return false;
            }
            position = (position + 1) & mask;
        }
        self.table[position] = (self.generation, self.entries.len() as u32);
        self.entries.push((hash, self.arena.len() as u32, len as u32));
        write(&mut self.arena);
        debug_assert_eq!(self.arena.len(), self.entries.last().map_or(0, |e| (e.1 + e.2) as usize));
        true
    }
}

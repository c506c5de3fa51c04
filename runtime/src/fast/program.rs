//! The fast engine's instruction set: every edge label lowered to one table-driven instruction over
//! the flat state buffer, with constant parts folded away at construction.
//!
//! Lowering starts from the reference engine's compiled labels (same slot layout, same checks), so
//! both engines agree on where every value lives. It then:
//! - turns constants without accesses into literals and folds literal keys into base offsets;
//! - turns a constant map indexed by one state slot into a direct table `symbol -> value`;
//! - turns a state map indexed by one state slot into `values[base + table[key]]`;
//! - replaces the reference engine's per-access key search with a per-symbol offset table;
//! - precomputes the slot pairs of map copies and comparisons between differently ordered maps.

use crate::automaton::{Automaton, SymbolId, TypeId};
pub(crate) use crate::reference::layout::{set_members, type_name};
use crate::reference::layout::{Layout, Op, Operand, Place, Transfer};

/// Two-level constant maps become one table when it has at most this many entries.
const MAX_PAIR_TABLE: usize = 1 << 16;

/// Offset tables mark symbols outside a key type with the default block's offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub key: Val,
    /// `offsets[symbol]`: the block of `symbol` times the stride (the default block for non-keys).
    pub offsets: Box<[u32]>,
    /// The default block's offset: a write through it is a key outside the map's domain.
    pub default_offset: u32,
    pub map_type: TypeId,
}

/// A run of slots found by following accesses from a base offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Path {
    pub in_state: bool,
    pub base: u32,
    pub steps: Box<[Step]>,
}

/// A set-valued read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    Lit(SymbolId),
    /// `values[slot]`.
    Slot(u32),
    /// `table[values[key]]`: a constant map read with a key held in one slot.
    Lookup {
        key: u32,
        table: Box<[u32]>,
    },
    /// `table[value of key]`: a constant map read with a computed key.
    LookupOf {
        key: Box<Val>,
        table: Box<[u32]>,
    },
    /// `values[base + offsets[values[key]]]`: a state map read with a key held in one slot.
    Indexed {
        base: u32,
        key: u32,
        offsets: Box<[u32]>,
    },
    /// `values[base + offsets[value of key]]`: a state map read with a computed key.
    IndexedBy {
        base: u32,
        key: Box<Val>,
        offsets: Box<[u32]>,
    },
    /// `table[values[first] * width + values[second]]`: a two-level constant map read with both
    /// keys held in slots (a ray step `next[dir][cell]`).
    Lookup2Slots {
        first: u32,
        second: u32,
        width: u32,
        table: Box<[u32]>,
    },
    /// `values[base + offsets[values[first] * width + values[second]]]`: a state map read with
    /// the key `c[first][second]` of a two-level constant map `c` (`board[next[dir][cell]]`),
    /// the offsets composed with `c` at construction.
    Indexed2 {
        base: u32,
        first: u32,
        second: u32,
        width: u32,
        offsets: Box<[u32]>,
    },
    /// `table[first * width + second]`: a two-level constant map read with two computed keys.
    Lookup2 {
        first: Box<Val>,
        second: Box<Val>,
        width: u32,
        table: Box<[u32]>,
    },
    /// Anything else.
    Path(Box<Path>),
}

/// Where an assignment writes one slot.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    Fixed(u32),
    /// `base + offsets[values[key]]`, an error when the key is outside the map's key type.
    Indexed {
        base: u32,
        key: u32,
        offsets: Box<[u32]>,
        default_offset: u32,
        map_type: TypeId,
    },
    Path(Box<Path>),
}

/// How the slots of two map values correspond.
#[derive(Clone, Debug)]
pub(crate) enum Pairs {
    /// Same shape: slot `i` to slot `i` for `i < size`.
    Same(u32),
    /// Different key orders: `(lhs slot, rhs slot)` relative to each value's first slot.
    Mapped(Box<[(u32, u32)]>),
}

/// One edge's instruction.
#[derive(Clone, Debug)]
pub(crate) enum Ins {
    Skip,
    Set {
        target: Target,
        value: Val,
    },
    SetBlock {
        target: Target,
        source: Path,
        pairs: Pairs,
    },
    SetAny {
        target: Target,
        members: Box<[SymbolId]>,
    },
    Compare {
        lhs: Val,
        rhs: Val,
        equal: bool,
    },
    CompareBlock {
        lhs: Path,
        rhs: Path,
        pairs: Pairs,
        equal: bool,
    },
    /// `context`: index of the check's graph analysis in `FastEngine::contexts` (set after lowering).
    Reach {
        from: u32,
        to: u32,
        negated: bool,
        context: u32,
    },
    Tag(SymbolId),
    TagVal(Val),
}

/// The commonest instruction shapes with their operands inline, so that running one takes a
/// single dispatch (the general [`Ins`] dispatches on the instruction, then on each operand).
/// An edge's `hot` form and its `ins` do the same thing; analyses look at `ins` only.
#[derive(Clone, Debug)]
pub(crate) enum Hot {
    /// No flat form: run the edge's [`Ins`].
    General,
    /// `values[slot] = lit`.
    SetSlotLit { slot: u32, lit: SymbolId },
    /// `values[slot] = values[from]`.
    SetSlotSlot { slot: u32, from: u32 },
    /// `values[slot] = table[values[key]]`.
    SetSlotLookup { slot: u32, key: u32, table: Box<[u32]> },
    /// `values[slot] = values[base + offsets[values[key]]]`.
    SetSlotIndexed { slot: u32, base: u32, key: u32, offsets: Box<[u32]> },
    /// `values[slot] = table[values[first] * width + values[second]]`.
    SetSlotLookup2 { slot: u32, first: u32, second: u32, width: u32, table: Box<[u32]> },
    /// `values[slot] = members[member]`.
    SetAnySlot { slot: u32, members: Box<[SymbolId]> },
    /// The tag `lit`.
    TagLit { lit: SymbolId },
    /// The tag `values[slot]`.
    TagSlot { slot: u32 },
    /// `(values[slot] == lit) == equal`.
    CompareSlotLit { slot: u32, lit: SymbolId, equal: bool },
    /// `(values[base + offsets[values[key]]] == lit) == equal`: a state map entry against a
    /// constant (`board[to] == empty`).
    CompareIndexedLit { base: u32, key: u32, offsets: Box<[u32]>, lit: SymbolId, equal: bool },
    /// `pass[values[slot]]`: a comparison whose operands read one slot only, through constant
    /// maps (`kindOf[piece] == pawn`, `slides[piece][n] == yes`), tabulated over the slot's
    /// values ([`Hot::compare_table`]).
    CompareSlotIn { slot: u32, pass: Box<[bool]> },
    /// `pass[values[first] * width + values[second]]`: a comparison whose operands read two
    /// slots only (`pawnHome[me][from] == yes`, `to == ep`), tabulated over both.
    CompareSlotPair { first: u32, second: u32, width: u32, pass: Box<[bool]> },
    /// `pass[values[slot] * width + values[cells[values[key]]]]`: a comparison whose operands
    /// read one state map cell keyed by a slot (`cells[symbol]` is the cell's slot) and at most
    /// one other slot (`ownerOf[board[from]] == me`, `landable[me][board[to]] == yes`); with no
    /// other slot, `width` is 0 and `slot` is `key`.
    CompareSlotCell { slot: u32, key: u32, width: u32, cells: Box<[u32]>, pass: Box<[bool]> },
    /// `values[cells[values[key]]] = lit` (`board[from] = empty`) when `cells[values[key]] !=
    /// outside`; a key outside the map's domain runs the general instruction, which reports it.
    SetCellLit { key: u32, lit: SymbolId, outside: u32, cells: Box<[u32]> },
    /// `values[cells[values[key]]] = values[from]` (`board[to] = piece`), as [`Hot::SetCellLit`].
    SetCellSlot { key: u32, from: u32, outside: u32, cells: Box<[u32]> },
}

/// The out-edges of a node that are all comparisons reading one slot only ([`Hot::CompareSlotIn`],
/// [`Hot::CompareSlotLit`]), tabulated: `masks[value]` has bit `i` set when out-edge `i` holds
/// while the slot holds `value` (`kindOf[piece] == pawn`, `kindOf[piece] == knight`,
/// `slides[piece][n] == yes`, ... at the node where a chess move's piece is known). A search
/// frame at the node then takes only the edges that hold, without running them (they are pure
/// guards: every out-edge of a frame runs on the state the frame started with, so the mask
/// worked out when the frame is pushed is what each guard would give).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Switch {
    pub slot: u32,
    pub masks: Box<[u32]>,
}

/// Out-edges a [`Switch`] may have (the bits of its masks).
pub(crate) const MAX_SWITCH_EDGES: usize = 32;

impl Switch {
    /// The switch of a node with these out-edges' flat forms, if they are 2 to
    /// [`MAX_SWITCH_EDGES`] comparisons of one slot.
    pub fn of<'h>(out_edges: impl ExactSizeIterator<Item = &'h Hot> + Clone, symbols: usize) -> Option<Switch> {
        if !(2..=MAX_SWITCH_EDGES).contains(&out_edges.len()) {
            return None;
        }
        let slot_of = |hot: &Hot| match hot {
            Hot::CompareSlotIn { slot, .. } | Hot::CompareSlotLit { slot, .. } => Some(*slot),
            _ => None,
        };
        let slot = slot_of(out_edges.clone().next()?)?;
        if !out_edges.clone().all(|hot| slot_of(hot) == Some(slot)) {
            return None;
        }
        let holds = |hot: &Hot, value: u32| match hot {
            Hot::CompareSlotIn { pass, .. } => pass[value as usize],
            Hot::CompareSlotLit { lit, equal, .. } => (value == *lit) == *equal,
            _ => unreachable!("checked above"),
        };
        let masks = (0..symbols as u32)
            .map(|value| {
                out_edges.clone().enumerate().filter(|(_, hot)| holds(hot, value)).fold(0, |mask, (i, _)| mask | 1 << i)
            })
            .collect();
        Some(Switch { slot, masks })
    }
}

/// A value a tabulated comparison reads: a slot, or a state map cell keyed by a slot.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Atom<'a> {
    Slot(u32),
    Cell { base: u32, key: u32, offsets: &'a [u32] },
}

/// Collects the atoms `value` reads (deduplicated); `false` when it reads something else (a
/// computed state map key, a path).
fn collect_atoms<'a>(value: &'a Val, atoms: &mut Vec<Atom<'a>>) -> bool {
    let mut add = |atom: Atom<'a>| {
        if !atoms.contains(&atom) {
            atoms.push(atom);
        }
    };
    match value {
        Val::Lit(_) => true,
        Val::Slot(slot) | Val::Lookup { key: slot, .. } => {
            add(Atom::Slot(*slot));
            true
        }
        Val::Lookup2Slots { first, second, .. } => {
            add(Atom::Slot(*first));
            add(Atom::Slot(*second));
            true
        }
        Val::Indexed { base, key, offsets } => {
            add(Atom::Cell { base: *base, key: *key, offsets });
            true
        }
        Val::LookupOf { key, .. } => collect_atoms(key, atoms),
        Val::Lookup2 { first, second, .. } => collect_atoms(first, atoms) && collect_atoms(second, atoms),
        Val::IndexedBy { .. } | Val::Indexed2 { .. } | Val::Path(_) => false,
    }
}

/// `value` when atom `i` holds `atom_values[i]` (the value reads nothing else, see
/// [`collect_atoms`]). Every table is indexed by symbols (or by `symbol * width + symbol`),
/// so any atom values below the symbol count stay inside them.
fn eval_atoms(value: &Val, atoms: &[Atom], atom_values: &[u32]) -> u32 {
    let of = |atom: Atom| atom_values[atoms.iter().position(|a| *a == atom).expect("collected")];
    match value {
        Val::Lit(symbol) => *symbol,
        Val::Slot(slot) => of(Atom::Slot(*slot)),
        Val::Lookup { key, table } => table[of(Atom::Slot(*key)) as usize],
        Val::Lookup2Slots { first, second, width, table } => {
            table[(of(Atom::Slot(*first)) * *width + of(Atom::Slot(*second))) as usize]
        }
        Val::Indexed { base, key, offsets } => of(Atom::Cell { base: *base, key: *key, offsets }),
        Val::LookupOf { key, table } => table[eval_atoms(key, atoms, atom_values) as usize],
        Val::Lookup2 { first, second, width, table } => {
            let (x, y) = (eval_atoms(first, atoms, atom_values), eval_atoms(second, atoms, atom_values));
            table[(x * *width + y) as usize]
        }
        Val::IndexedBy { .. } | Val::Indexed2 { .. } | Val::Path(_) => unreachable!("not collected"),
    }
}

impl Hot {
    /// The flat form of `ins`, if it has one.
    pub fn of(ins: &Ins, symbols: usize) -> Hot {
        match ins {
            Ins::Set { target: Target::Fixed(slot), value } => {
                let slot = *slot;
                match value {
                    Val::Lit(lit) => Hot::SetSlotLit { slot, lit: *lit },
                    Val::Slot(from) => Hot::SetSlotSlot { slot, from: *from },
                    Val::Lookup { key, table } => Hot::SetSlotLookup { slot, key: *key, table: table.clone() },
                    Val::Indexed { base, key, offsets } => {
                        Hot::SetSlotIndexed { slot, base: *base, key: *key, offsets: offsets.clone() }
                    }
                    Val::Lookup2Slots { first, second, width, table } => Hot::SetSlotLookup2 {
                        slot,
                        first: *first,
                        second: *second,
                        width: *width,
                        table: table.clone(),
                    },
                    _ => Hot::General,
                }
            }
            Ins::SetAny { target: Target::Fixed(slot), members } => {
                Hot::SetAnySlot { slot: *slot, members: members.clone() }
            }
            Ins::Tag(lit) => Hot::TagLit { lit: *lit },
            Ins::TagVal(Val::Slot(slot)) => Hot::TagSlot { slot: *slot },
            Ins::Compare { lhs, rhs, equal } => match (lhs, rhs) {
                (Val::Slot(slot), Val::Lit(lit)) | (Val::Lit(lit), Val::Slot(slot)) => {
                    Hot::CompareSlotLit { slot: *slot, lit: *lit, equal: *equal }
                }
                (Val::Indexed { base, key, offsets }, Val::Lit(lit))
                | (Val::Lit(lit), Val::Indexed { base, key, offsets }) => Hot::CompareIndexedLit {
                    base: *base,
                    key: *key,
                    offsets: offsets.clone(),
                    lit: *lit,
                    equal: *equal,
                },
                _ => Hot::compare_table(lhs, rhs, *equal, symbols).unwrap_or(Hot::General),
            },
            Ins::Set { target: Target::Indexed { base, key, offsets, default_offset, .. }, value } => {
                let cells: Box<[u32]> = offsets.iter().map(|&offset| base + offset).collect();
                let (key, outside) = (*key, base + default_offset);
                match value {
                    Val::Lit(lit) => Hot::SetCellLit { key, lit: *lit, outside, cells },
                    Val::Slot(from) => Hot::SetCellSlot { key, from: *from, outside, cells },
                    _ => Hot::General,
                }
            }
            _ => Hot::General,
        }
    }

    /// A comparison tabulated over the values of what it reads: one slot, two slots, or a state
    /// map cell keyed by a slot and at most one other slot, through constant maps (see
    /// [`Hot::CompareSlotIn`], [`Hot::CompareSlotPair`], [`Hot::CompareSlotCell`]); `None` for
    /// other shapes, for a comparison that reads nothing, and when a two-value table would
    /// exceed [`MAX_PAIR_TABLE`] entries.
    ///
    /// Exact: every atom takes each symbol in turn and the operands are evaluated as
    /// [`Val`]s are read at run time (the same tables), so `pass` is the comparison's outcome
    /// for every state; the cell is read as `values[base + offsets[values[key]]]`, as
    /// [`Val::Indexed`] is.
    fn compare_table(lhs: &Val, rhs: &Val, equal: bool, symbols: usize) -> Option<Hot> {
        let mut atoms = Vec::new();
        if !(collect_atoms(lhs, &mut atoms) && collect_atoms(rhs, &mut atoms)) {
            return None;
        }
        let holds = |atom_values: &[u32]| {
            (eval_atoms(lhs, &atoms, atom_values) == eval_atoms(rhs, &atoms, atom_values)) == equal
        };
        let count = symbols as u32;
        match *atoms.as_slice() {
            [Atom::Slot(slot)] => Some(Hot::CompareSlotIn { slot, pass: (0..count).map(|v| holds(&[v])).collect() }),
            [Atom::Cell { base, key, offsets }] => Some(Hot::CompareSlotCell {
                slot: key,
                key,
                width: 0,
                cells: offsets.iter().map(|&offset| base + offset).collect(),
                pass: (0..count).map(|v| holds(&[v])).collect(),
            }),
            _ if symbols * symbols > MAX_PAIR_TABLE => None,
            [Atom::Slot(first), Atom::Slot(second)] => Some(Hot::CompareSlotPair {
                first,
                second,
                width: count,
                pass: (0..count).flat_map(|a| (0..count).map(move |b| (a, b))).map(|(a, b)| holds(&[a, b])).collect(),
            }),
            [Atom::Slot(slot), Atom::Cell { base, key, offsets }]
            | [Atom::Cell { base, key, offsets }, Atom::Slot(slot)] => {
                let slot_first = matches!(atoms[0], Atom::Slot(_));
                let pass = (0..count)
                    .flat_map(|s| (0..count).map(move |c| (s, c)))
                    .map(|(s, c)| if slot_first { holds(&[s, c]) } else { holds(&[c, s]) })
                    .collect();
                Some(Hot::CompareSlotCell {
                    slot,
                    key,
                    width: count,
                    cells: offsets.iter().map(|&offset| base + offset).collect(),
                    pass,
                })
            }
            _ => None,
        }
    }
}

/// Lowers the reference engine's ops against its layout.
pub(crate) struct Lowering<'a> {
    pub automaton: &'a Automaton,
    pub layout: &'a Layout,
}

impl Lowering<'_> {
    /// `offsets[symbol]` for one access into a map with key type `key_type`.
    fn offsets(&self, key_type: TypeId, key_count: u32, stride: u32) -> Box<[u32]> {
        (0..self.automaton.symbols.len() as u32)
            .map(|symbol| self.layout.block_of(key_type, symbol, key_count) * stride)
            .collect()
    }

    fn path(&self, place: &Place, for_write: bool) -> Path {
        let mut base = place.base;
        let mut steps = Vec::new();
        for step in place.steps.iter() {
            let key = self.val(&step.key);
            let offsets = self.offsets(step.key_type, step.key_count, step.stride);
            let default_offset = step.key_count * step.stride;
            if let Val::Lit(symbol) = key {
                // A literal key is folded unless a write through it must fail at run time.
                let offset = offsets[symbol as usize];
                if !(for_write && offset == default_offset) {
                    base += offset;
                    continue;
                }
            }
            steps.push(Step { key, offsets, default_offset, map_type: step.map_type });
        }
        Path { in_state: place.in_state, base, steps: steps.into() }
    }

    /// A set-valued operand.
    pub fn val(&self, operand: &Operand) -> Val {
        match operand {
            Operand::Literal(symbol) => Val::Lit(*symbol),
            Operand::Place(place) => {
                let path = self.path(place, false);
                let constants = &self.layout.const_values;
                match (path.in_state, path.steps.len()) {
                    (true, 0) => Val::Slot(path.base),
                    (false, 0) => Val::Lit(constants[path.base as usize]),
                    (true, 1) => match &path.steps[0].key {
                        Val::Slot(key) => {
                            Val::Indexed { base: path.base, key: *key, offsets: path.steps[0].offsets.clone() }
                        }
                        // `m[c[k]]` with `c` constant: one composed table `symbol -> offset`.
                        Val::Lookup { key, table } => {
                            let offsets = &path.steps[0].offsets;
                            Val::Indexed {
                                base: path.base,
                                key: *key,
                                offsets: table.iter().map(|&symbol| offsets[symbol as usize]).collect(),
                            }
                        }
                        // `m[c[a][b]]` with `c` constant: one composed table `(a, b) -> offset`.
                        Val::Lookup2Slots { first, second, width, table } => {
                            let offsets = &path.steps[0].offsets;
                            Val::Indexed2 {
                                base: path.base,
                                first: *first,
                                second: *second,
                                width: *width,
                                offsets: table.iter().map(|&symbol| offsets[symbol as usize]).collect(),
                            }
                        }
                        other => Val::IndexedBy {
                            base: path.base,
                            key: Box::new(other.clone()),
                            offsets: path.steps[0].offsets.clone(),
                        },
                    },
                    (false, 2) if self.automaton.symbols.len().pow(2) <= MAX_PAIR_TABLE => {
                        let width = self.automaton.symbols.len() as u32;
                        let (a, b) = (&path.steps[0], &path.steps[1]);
                        let table = (0..width)
                            .flat_map(|x| (0..width).map(move |y| (x, y)))
                            .map(|(x, y)| {
                                constants[(path.base + a.offsets[x as usize] + b.offsets[y as usize]) as usize]
                            })
                            .collect();
                        match (&a.key, &b.key) {
                            (Val::Slot(first), Val::Slot(second)) => {
                                Val::Lookup2Slots { first: *first, second: *second, width, table }
                            }
                            _ => Val::Lookup2 {
                                first: Box::new(a.key.clone()),
                                second: Box::new(b.key.clone()),
                                width,
                                table,
                            },
                        }
                    }
                    (false, 1) => {
                        let step = &path.steps[0];
                        let table: Box<[u32]> =
                            step.offsets.iter().map(|&offset| constants[(path.base + offset) as usize]).collect();
                        match &step.key {
                            Val::Slot(key) => Val::Lookup { key: *key, table },
                            // `c1[c2[k]]`: the composition of two constant tables.
                            Val::Lookup { key, table: inner } => Val::Lookup {
                                key: *key,
                                table: inner.iter().map(|&symbol| table[symbol as usize]).collect(),
                            },
                            other => Val::LookupOf { key: Box::new(other.clone()), table },
                        }
                    }
                    _ => Val::Path(Box::new(path)),
                }
            }
        }
    }

    fn target(&self, place: &Place) -> Target {
        let path = self.path(place, true);
        match &*path.steps {
            [] => Target::Fixed(path.base),
            [Step { key: Val::Slot(key), offsets, default_offset, map_type }] => Target::Indexed {
                base: path.base,
                key: *key,
                offsets: offsets.clone(),
                default_offset: *default_offset,
                map_type: *map_type,
            },
            _ => Target::Path(Box::new(path)),
        }
    }

    fn place_of(operand: &Operand) -> &Place {
        match operand {
            Operand::Place(place) => place,
            Operand::Literal(_) => unreachable!("map transfers are compiled only between places"),
        }
    }

    fn pairs(&self, transfer: Transfer, lhs_ty: TypeId, rhs_ty: TypeId) -> Pairs {
        match transfer {
            Transfer::Block(size) => Pairs::Same(size),
            _ => {
                let mut pairs = Vec::new();
                self.layout.map_pairs(self.automaton, lhs_ty, 0, rhs_ty, 0, &mut pairs);
                Pairs::Mapped(pairs.into())
            }
        }
    }

    pub fn ins(&self, op: &Op) -> Ins {
        match op {
            Op::Skip => Ins::Skip,
            Op::Assign { lhs, rhs, transfer: Transfer::Slot, .. } => {
                Ins::Set { target: self.target(lhs), value: self.val(rhs) }
            }
            Op::Assign { lhs, rhs, transfer, .. } => {
                let source = Self::place_of(rhs);
                Ins::SetBlock {
                    target: self.target(lhs),
                    source: self.path(source, false),
                    pairs: self.pairs(*transfer, lhs.ty, source.ty),
                }
            }
            Op::AssignAny { lhs, members, .. } => Ins::SetAny { target: self.target(lhs), members: members.clone() },
            Op::Compare { lhs, rhs, transfer: Transfer::Slot, equal } => {
                Ins::Compare { lhs: self.val(lhs), rhs: self.val(rhs), equal: *equal }
            }
            Op::Compare { lhs, rhs, transfer, equal } => {
                let (a, b) = (Self::place_of(lhs), Self::place_of(rhs));
                Ins::CompareBlock {
                    lhs: self.path(a, false),
                    rhs: self.path(b, false),
                    pairs: self.pairs(*transfer, a.ty, b.ty),
                    equal: *equal,
                }
            }
            Op::Reach { from, to, negated } => Ins::Reach { from: *from, to: *to, negated: *negated, context: 0 },
            Op::Tag(symbol) => Ins::Tag(*symbol),
            Op::TagExpr(operand) => match self.val(operand) {
                Val::Lit(symbol) => Ins::Tag(symbol),
                value => Ins::TagVal(value),
            },
        }
    }
}

/// Whether at most one of two guards can hold in any state: `a == b` against `a != b`, `x == c1`
/// against `x == c2` for distinct literals, `? a -> b` against `! a -> b`. Both are pure, so a
/// search may try them in order and follow only the first that holds.
pub(crate) fn exclusive(first: &Ins, second: &Ins) -> bool {
    match (first, second) {
        (Ins::Compare { lhs: a, rhs: b, equal: e1 }, Ins::Compare { lhs: c, rhs: d, equal: e2 }) => {
            let same_operands = (a == c && b == d) || (a == d && b == c);
            if same_operands && e1 != e2 {
                return true;
            }
            let distinct_literals = |x: &Val, y: &Val| matches!((x, y), (Val::Lit(p), Val::Lit(q)) if p != q);
            *e1 && *e2
                && ((a == c && distinct_literals(b, d))
                    || (a == d && distinct_literals(b, c))
                    || (b == c && distinct_literals(a, d))
                    || (b == d && distinct_literals(a, c)))
        }
        (Ins::Reach { from: f1, to: t1, negated: n1, .. }, Ins::Reach { from: f2, to: t2, negated: n2, .. }) => {
            f1 == f2 && t1 == t2 && n1 != n2
        }
        _ => false,
    }
}

/// The half-open slot ranges an instruction may write (a whole variable when the slot is chosen
/// at run time).
pub(crate) fn writes(ins: &Ins, layout: &Layout) -> Vec<(u32, u32)> {
    let variable_of = |slot: u32| {
        let index = layout.var_offsets.partition_point(|&offset| offset <= slot);
        let start = layout.var_offsets[index.saturating_sub(1)];
        let end = layout.var_offsets.get(index).copied().unwrap_or(layout.state_len as u32);
        (start, end)
    };
    let base = |target: &Target| match target {
        Target::Fixed(slot) => *slot,
        Target::Indexed { base, .. } => *base,
        Target::Path(path) => path.base,
    };
    match ins {
        Ins::Set { target: Target::Fixed(slot), .. } | Ins::SetAny { target: Target::Fixed(slot), .. } => {
            vec![(*slot, *slot + 1)]
        }
        Ins::Set { target, .. } | Ins::SetAny { target, .. } | Ins::SetBlock { target, .. } => {
            vec![variable_of(base(target))]
        }
        _ => Vec::new(),
    }
}

/// `slot = T[slot]` or `slot = T[other][slot]` with a constant table `T`.
pub(crate) fn advance(ins: &Ins) -> Option<super::graph::Advance<'_>> {
    use super::graph::Advance;
    match ins {
        Ins::Set { target: Target::Fixed(slot), value: Val::Lookup { key, table } } if key == slot => {
            Some(Advance { slot: *slot, other: None, width: 0, table })
        }
        Ins::Set { target: Target::Fixed(slot), value: Val::Lookup2Slots { first, second, width, table } }
            if second == slot && first != slot =>
        {
            Some(Advance { slot: *slot, other: Some(*first), width: *width, table })
        }
        _ => None,
    }
}

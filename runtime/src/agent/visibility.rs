//! Which parts of a state each player sees, and the observation tensor and string built from that
//! (spec/agents.md, "Observations").
//!
//! The automaton says only who sees each *move* (`visible`, spec/visibility.md). The slots a
//! player sees are derived from that by an information-flow analysis (module `flow`): a slot is
//! hidden from `p` at a node when its value there may depend on the choices of a move hidden from
//! `p`.

use super::flow;
use crate::automaton::{Automaton, NodeId, SymbolId, Type, TypeId};
use crate::engine::EngineError;
use crate::reference::layout::Layout;

/// The observation layout of a game: every slot's one-hot block, the node block, and which slots
/// each player sees at each node.
#[derive(Clone, Debug)]
pub struct ObservationLayout {
    /// Per slot: the set type of the values stored there.
    slot_types: Vec<TypeId>,
    /// Per slot: where its one-hot block starts in the tensor.
    slot_offsets: Vec<usize>,
    /// Per set type used by a slot: symbol -> position in the type (`u32::MAX` when absent).
    positions: Vec<Option<Box<[u32]>>>,
    /// Per node: its position in the node block (`u32::MAX` for nodes where no state rests).
    node_positions: Vec<u32>,
    node_offset: usize,
    size: usize,
    /// Per variable: its first slot.
    var_offsets: Vec<u32>,
    /// Sizes of types in slots.
    type_sizes: Vec<u32>,
    /// The information-flow result: who cannot see what.
    hidden: flow::Hidden,
    hidden_information: bool,
}

impl ObservationLayout {
    /// Lays out the tensor and runs the visibility analysis.
    pub fn new(automaton: &Automaton) -> Result<ObservationLayout, EngineError> {
        let layout = Layout::new(automaton)?;
        let mut slot_types = Vec::with_capacity(layout.state_len);
        for variable in &automaton.variables {
            push_slot_types(automaton, variable.ty, &mut slot_types);
        }
        debug_assert_eq!(slot_types.len(), layout.state_len);
        let mut positions: Vec<Option<Box<[u32]>>> = vec![None; automaton.types.len()];
        let mut slot_offsets = Vec::with_capacity(slot_types.len());
        let mut size = 0;
        for &ty in &slot_types {
            slot_offsets.push(size);
            let Type::Set(members) = &automaton.types[ty as usize] else { unreachable!("slots hold set values") };
            size += members.len();
            positions[ty as usize].get_or_insert_with(|| {
                let mut table = vec![u32::MAX; automaton.symbols.len()].into_boxed_slice();
                for (i, &m) in members.iter().enumerate() {
                    if table[m as usize] == u32::MAX {
                        table[m as usize] = i as u32;
                    }
                }
                table
            });
        }
        // States rest where a move starts (or at `end`).
        let mut node_positions = vec![u32::MAX; automaton.nodes.len()];
        let mut resting = super::action_space::move_starts(automaton);
        resting.push(automaton.end);
        resting.sort_unstable();
        resting.dedup();
        for (i, &node) in resting.iter().enumerate() {
            node_positions[node as usize] = i as u32;
        }
        let node_offset = size;
        size += resting.len();
        let hidden_information = flow::may_hide_moves(automaton, &layout);
        let hidden = flow::Hidden::analyse(automaton, &layout, hidden_information);
        Ok(ObservationLayout {
            slot_types,
            slot_offsets,
            positions,
            node_positions,
            node_offset,
            size,
            var_offsets: layout.var_offsets.clone(),
            type_sizes: layout.sizes.clone(),
            hidden,
            hidden_information,
        })
    }

    /// The number of tensor entries.
    pub fn tensor_size(&self) -> usize {
        self.size
    }

    /// Whether a move may be hidden from some player.
    pub fn hidden_information(&self) -> bool {
        self.hidden_information
    }

    /// Whether player `p` sees slot `slot` of a state resting at `node`.
    pub fn sees_slot(&self, player: usize, node: NodeId, slot: usize) -> bool {
        !self.hidden.slot_hidden(player, node, slot)
    }

    /// Whether player `p` may know which node the state rests at.
    pub fn sees_node(&self, player: usize, node: NodeId) -> bool {
        !self.hidden.node_hidden(player, node)
    }

    /// Writes player `p`'s tensor for a state at `node` with slot values `slots`.
    pub fn write_tensor(&self, player: usize, node: NodeId, slots: &[SymbolId], tensor: &mut [f32]) {
        tensor.fill(0.0);
        for (slot, &value) in slots.iter().enumerate() {
            if !self.sees_slot(player, node, slot) {
                continue;
            }
            let ty = self.slot_types[slot] as usize;
            let table = self.positions[ty].as_ref().expect("every slot type has a position table");
            // A symbol outside the slot's type (loose typing) leaves the block all zero.
            if let Some(&position) = table.get(value as usize).filter(|&&p| p != u32::MAX) {
                tensor[self.slot_offsets[slot] + position as usize] = 1.0;
            }
        }
        let position = self.node_positions.get(node as usize).copied().unwrap_or(u32::MAX);
        if position != u32::MAX && self.sees_node(player, node) {
            tensor[self.node_offset + position as usize] = 1.0;
        }
    }

    /// Player `p`'s view of a state as text: the node, then every variable as `name = value`
    /// with `?` for what `p` does not see.
    pub fn render(&self, automaton: &Automaton, player: usize, node: NodeId, slots: &[SymbolId]) -> String {
        let node_name = if self.sees_node(player, node) { automaton.nodes[node as usize].name.as_str() } else { "?" };
        let mut text = format!("node: {node_name}\n");
        for (id, variable) in automaton.variables.iter().enumerate() {
            let offset = self.var_offsets[id] as usize;
            let value = self.value_text(automaton, player, node, slots, offset, variable.ty);
            text.push_str(&format!("{} = {}\n", variable.name, value));
        }
        text
    }

    fn range_hidden(&self, player: usize, node: NodeId, offset: usize, len: usize) -> (bool, bool) {
        let hidden = (offset..offset + len).filter(|&s| !self.sees_slot(player, node, s)).count();
        (hidden == len, hidden > 0)
    }

    fn value_text(
        &self,
        automaton: &Automaton,
        player: usize,
        node: NodeId,
        slots: &[SymbolId],
        offset: usize,
        ty: TypeId,
    ) -> String {
        let len = self.type_sizes[ty as usize] as usize;
        let (all_hidden, _) = self.range_hidden(player, node, offset, len);
        if all_hidden {
            return "?".to_string();
        }
        match &automaton.types[ty as usize] {
            Type::Set(_) => automaton.symbol_name(slots[offset]).to_string(),
            Type::Map { key, value } => {
                let Type::Set(members) = &automaton.types[*key as usize] else { return "?".into() };
                let size = self.type_sizes[*value as usize] as usize;
                let default_at = offset + members.len() * size;
                let (_, default_partly_hidden) = self.range_hidden(player, node, default_at, size);
                let default = &slots[default_at..default_at + size];
                let mut parts = Vec::new();
                for (i, &member) in members.iter().enumerate() {
                    let at = offset + i * size;
                    let (_, partly_hidden) = self.range_hidden(player, node, at, size);
                    // Which entries are listed must not depend on hidden values.
                    if partly_hidden || default_partly_hidden || slots[at..at + size] != *default {
                        let entry = self.value_text(automaton, player, node, slots, at, *value);
                        parts.push(format!("{}: {}", automaton.symbol_name(member), entry));
                    }
                }
                parts.push(format!(":{}", self.value_text(automaton, player, node, slots, default_at, *value)));
                format!("{{{}}}", parts.join(", "))
            }
        }
    }
}

/// The set type of every slot of a value of type `ty`, in layout order.
fn push_slot_types(automaton: &Automaton, ty: TypeId, out: &mut Vec<TypeId>) {
    match &automaton.types[ty as usize] {
        Type::Set(_) => out.push(ty),
        Type::Map { key, value } => {
            let count = match &automaton.types[*key as usize] {
                Type::Set(members) => members.len(),
                Type::Map { .. } => 0,
            };
            for _ in 0..=count {
                push_slot_types(automaton, *value, out);
            }
        }
    }
}

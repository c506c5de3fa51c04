//! The one thing the agent API needs from an engine beyond [`ForwardModel`]: a state's variable
//! values in the reference slot layout, for observation tensors and strings.

use crate::automaton::SymbolId;
use crate::engine::ForwardModel;
use crate::fast::FastEngine;
use crate::reference::ReferenceEngine;
use std::borrow::Cow;

/// A forward model whose states can be read slot by slot, in the layout of the reference engine
/// (module `reference::layout`: variables one after another, a set value one slot, a map
/// `K -> V` one block per key of `K` plus a default block). Engines with another representation
/// convert (hence the [`Cow`]).
pub trait AgentModel: ForwardModel {
    /// Every variable's slots, laid out as the reference engine lays them out.
    fn state_slots<'a>(&self, state: &'a Self::State) -> Cow<'a, [SymbolId]>;
}

impl AgentModel for ReferenceEngine {
    fn state_slots<'a>(&self, state: &'a Self::State) -> Cow<'a, [SymbolId]> {
        Cow::Borrowed(state.values())
    }
}

impl AgentModel for FastEngine {
    fn state_slots<'a>(&self, state: &'a Self::State) -> Cow<'a, [SymbolId]> {
        Cow::Borrowed(state.values())
    }
}

//! Slot layout of values and the compiled form of expressions and labels for the reference engine.
//!
//! Every value is a run of `u32` slots holding symbol ids. A set-typed value is one slot. A map
//! `K -> V` is `(|K| + 1) × size(V)` slots: one block of `size(V)` per member of `K` in
//! declaration order, then one block for the default (which answers keys outside `K`). Variables
//! sit one after another in the state buffer, constants likewise in a constant buffer, so an
//! expression compiles to a base offset plus one `index(key) × stride` term per access.
//!
//! Two map types with the same nested key lists (in the same order) have the same *shape*: values
//! copy and compare as whole blocks. Map types whose key sets are ordered differently are still
//! assignable and comparable (the validator allows it); they go through a slower per-key
//! conversion that looks every key up in the other map.

use crate::automaton::{Automaton, Expr, Label, NodeId, SymbolId, Type, TypeId, Value};
use crate::engine::EngineError;
use std::collections::HashMap;

/// Marks a symbol that is not a member of a key type in [`Layout::key_index`].
pub(crate) const NOT_A_KEY: u32 = u32::MAX;

fn malformed<T>(message: impl Into<String>) -> Result<T, EngineError> {
    Err(EngineError::Malformed { message: message.into() })
}

/// Where every type, variable and constant lives.
#[derive(Debug)]
pub(crate) struct Layout {
    /// Slots per type.
    pub sizes: Vec<u32>,
    /// Canonical shape per type: equal shapes have identical slot layouts.
    pub shapes: Vec<u32>,
    /// For set types that key a map: symbol id -> position in the set ([`NOT_A_KEY`] when absent).
    /// Empty for every other type.
    pub key_index: Vec<Box<[u32]>>,
    pub var_offsets: Vec<u32>,
    pub state_len: usize,
    pub const_values: Vec<SymbolId>,
    pub const_offsets: Vec<u32>,
    pub initial_values: Vec<SymbolId>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum ShapeKey {
    Slot,
    Map(Vec<SymbolId>, u32),
}

impl Layout {
    pub fn new(automaton: &Automaton) -> Result<Self, EngineError> {
        let type_count = automaton.types.len();
        let symbol_count = automaton.symbols.len();
        let mut sizes = vec![0u32; type_count];
        let mut shapes = vec![u32::MAX; type_count];
        let mut shape_ids: HashMap<ShapeKey, u32> = HashMap::new();
        // Resolve types in dependency order; a map's parts may come later in the table.
        fn resolve(
            t: usize,
            automaton: &Automaton,
            sizes: &mut [u32],
            shapes: &mut [u32],
            shape_ids: &mut HashMap<ShapeKey, u32>,
            depth: usize,
        ) -> Result<(), EngineError> {
            if shapes[t] != u32::MAX {
                return Ok(());
            }
            if depth > automaton.types.len() {
                return malformed("a map type contains itself");
            }
            let (size, key) = match automaton.types.get(t) {
                None => return malformed(format!("type {t} does not exist")),
                Some(Type::Set(members)) => {
                    if members.iter().any(|&s| s as usize >= automaton.symbols.len()) {
                        return malformed(format!("set type {t} names a symbol that does not exist"));
                    }
                    (1u64, ShapeKey::Slot)
                }
                Some(Type::Map { key, value }) => {
                    let members = match automaton.types.get(*key as usize) {
                        Some(Type::Set(members)) => members.clone(),
                        _ => return malformed(format!("map type {t} has a key type that is not a set")),
                    };
                    resolve(*value as usize, automaton, sizes, shapes, shape_ids, depth + 1)?;
                    let size = (members.len() as u64 + 1) * sizes[*value as usize] as u64;
                    (size, ShapeKey::Map(members, shapes[*value as usize]))
                }
            };
            if size > u32::MAX as u64 / 4 {
                return malformed(format!("type {t} needs {size} slots, too many for one state"));
            }
            sizes[t] = size as u32;
            let next = shape_ids.len() as u32;
            shapes[t] = *shape_ids.entry(key).or_insert(next);
            Ok(())
        }
        for t in 0..type_count {
            resolve(t, automaton, &mut sizes, &mut shapes, &mut shape_ids, 0)?;
        }
        // Lookup tables only for types that key some map: one table is as long as the symbol list.
        let mut is_key_type = vec![false; type_count];
        for ty in &automaton.types {
            if let Type::Map { key, .. } = ty {
                is_key_type[*key as usize] = true;
            }
        }
        let key_index = automaton
            .types
            .iter()
            .zip(&is_key_type)
            .map(|(ty, &is_key)| match ty {
                Type::Set(members) if is_key => {
                    let mut index = vec![NOT_A_KEY; symbol_count];
                    for (position, &symbol) in members.iter().enumerate() {
                        index[symbol as usize] = position as u32;
                    }
                    index.into_boxed_slice()
                }
                _ => Box::default(),
            })
            .collect();
        let mut layout = Layout {
            sizes,
            shapes,
            key_index,
            var_offsets: Vec::new(),
            state_len: 0,
            const_values: Vec::new(),
            const_offsets: Vec::new(),
            initial_values: Vec::new(),
        };
        let declared_types = automaton.constants.iter().map(|c| (&c.name, c.ty));
        for (name, ty) in declared_types.chain(automaton.variables.iter().map(|v| (&v.name, v.ty))) {
            if ty as usize >= type_count {
                return malformed(format!("`{name}` has a type that does not exist"));
            }
        }
        for constant in &automaton.constants {
            layout.const_offsets.push(layout.const_values.len() as u32);
            let mut buffer = std::mem::take(&mut layout.const_values);
            layout.flatten(automaton, &constant.value, constant.ty, &mut buffer, &constant.name)?;
            layout.const_values = buffer;
        }
        for variable in &automaton.variables {
            layout.var_offsets.push(layout.initial_values.len() as u32);
            let mut buffer = std::mem::take(&mut layout.initial_values);
            layout.flatten(automaton, &variable.initial, variable.ty, &mut buffer, &variable.name)?;
            layout.initial_values = buffer;
        }
        layout.state_len = layout.initial_values.len();
        Ok(layout)
    }

    pub fn size(&self, ty: TypeId) -> u32 {
        self.sizes[ty as usize]
    }

    /// Appends the slots of `value` read as type `ty`.
    fn flatten(
        &self,
        automaton: &Automaton,
        value: &Value,
        ty: TypeId,
        out: &mut Vec<SymbolId>,
        owner: &str,
    ) -> Result<(), EngineError> {
        match (&automaton.types[ty as usize], value) {
            (Type::Set(_), Value::Symbol(s)) if (*s as usize) < automaton.symbols.len() => out.push(*s),
            (Type::Map { key, value: value_ty }, Value::Map { entries, default }) => {
                let Type::Set(members) = &automaton.types[*key as usize] else {
                    return malformed("map key type is not a set");
                };
                for (k, _) in entries {
                    if !members.contains(k) {
                        return malformed(format!("the value of `{owner}` has a key outside its map type"));
                    }
                }
                for member in members {
                    let entry = entries.iter().find(|(k, _)| k == member).map_or(&**default, |(_, v)| v);
                    self.flatten(automaton, entry, *value_ty, out, owner)?;
                }
                self.flatten(automaton, default, *value_ty, out, owner)?;
            }
            _ => return malformed(format!("the value of `{owner}` does not fit its type")),
        }
        Ok(())
    }

    /// For every key of `a`'s type (and the default), the slot of `b` holding the same key's value:
    /// the slot pairs a map-to-map conversion copies (used by the fast engine and the code generator).
    pub(crate) fn map_pairs(
        &self,
        automaton: &Automaton,
        a_ty: TypeId,
        a: u32,
        b_ty: TypeId,
        b: u32,
        out: &mut Vec<(u32, u32)>,
    ) {
        let types = &automaton.types;
        match (&types[a_ty as usize], &types[b_ty as usize]) {
            (Type::Map { key: ak, value: av }, Type::Map { key: bk, value: bv }) => {
                let (a_size, b_size) = (self.size(*av), self.size(*bv));
                let a_members = set_members(automaton, *ak);
                let b_count = set_members(automaton, *bk).len() as u32;
                for (i, &key) in a_members.iter().enumerate() {
                    let block = self.block_of(*bk, key, b_count);
                    self.map_pairs(automaton, *av, a + i as u32 * a_size, *bv, b + block * b_size, out);
                }
                let a_default = a + a_members.len() as u32 * a_size;
                self.map_pairs(automaton, *av, a_default, *bv, b + b_count * b_size, out);
            }
            _ => out.push((a, b)),
        }
    }

    /// The position of `symbol` among the keys of the set type `key_type`, or the default block.
    #[inline]
    pub fn block_of(&self, key_type: TypeId, symbol: SymbolId, key_count: u32) -> u32 {
        match self.key_index[key_type as usize].get(symbol as usize) {
            Some(&position) if position != NOT_A_KEY => position,
            _ => key_count,
        }
    }
}

/// A value source: a symbol literal or a place in the state or constant buffer.
#[derive(Clone, Debug)]
pub(crate) enum Operand {
    Literal(SymbolId),
    Place(Place),
}

/// A run of slots: `base + Σ index(key_i) × stride_i` in the state (or constant) buffer.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub in_state: bool,
    pub base: u32,
    /// The type of the value stored here.
    pub ty: TypeId,
    pub steps: Box<[Step]>,
}

/// One map access `[key]` of a [`Place`].
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub key: Operand,
    /// The accessed map's key type, and how many keys it has.
    pub key_type: TypeId,
    pub key_count: u32,
    pub map_type: TypeId,
    /// Slots per value block of the accessed map.
    pub stride: u32,
}

/// How two values of the compiled types move or compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Transfer {
    /// Both set-valued: one slot.
    Slot,
    /// Maps of the same shape: a block of this many slots.
    Block(u32),
    /// Maps of different key orders: key by key.
    Convert,
}

/// A label ready to run.
#[derive(Clone, Debug)]
pub(crate) enum Op {
    Skip,
    Assign { lhs: Place, rhs: Operand, transfer: Transfer, sets_player: bool },
    AssignAny { lhs: Place, members: Box<[SymbolId]>, sets_player: bool },
    Compare { lhs: Operand, rhs: Operand, transfer: Transfer, equal: bool },
    Reach { from: NodeId, to: NodeId, negated: bool },
    Tag(SymbolId),
    TagExpr(Operand),
}

/// Compiles expressions and labels against a layout.
pub(crate) struct Compiler<'a> {
    pub automaton: &'a Automaton,
    pub layout: &'a Layout,
}

impl Compiler<'_> {
    /// The type of an operand, `None` for a literal (a singleton set).
    fn operand_type(operand: &Operand) -> Option<TypeId> {
        match operand {
            Operand::Literal(_) => None,
            Operand::Place(place) => Some(place.ty),
        }
    }

    fn is_set(&self, ty: Option<TypeId>) -> bool {
        ty.is_none_or(|t| matches!(self.automaton.types[t as usize], Type::Set(_)))
    }

    pub fn operand(&self, expr: &Expr) -> Result<Operand, EngineError> {
        let automaton = self.automaton;
        match expr {
            Expr::Symbol(s) if (*s as usize) < automaton.symbols.len() => Ok(Operand::Literal(*s)),
            Expr::Symbol(s) => malformed(format!("symbol {s} does not exist")),
            Expr::Const(c) => match automaton.constants.get(*c as usize) {
                Some(constant) => Ok(Operand::Place(Place {
                    in_state: false,
                    base: self.layout.const_offsets[*c as usize],
                    ty: constant.ty,
                    steps: Box::default(),
                })),
                None => malformed(format!("constant {c} does not exist")),
            },
            Expr::Var(v) => match automaton.variables.get(*v as usize) {
                Some(variable) => Ok(Operand::Place(Place {
                    in_state: true,
                    base: self.layout.var_offsets[*v as usize],
                    ty: variable.ty,
                    steps: Box::default(),
                })),
                None => malformed(format!("variable {v} does not exist")),
            },
            Expr::Access { map, key } => {
                let Operand::Place(map) = self.operand(map)? else {
                    return malformed("a symbol literal indexed as a map");
                };
                let Type::Map { key: key_type, value } = automaton.types[map.ty as usize] else {
                    return malformed("an access into a value that is not a map");
                };
                let key = self.operand(key)?;
                if !self.is_set(Self::operand_type(&key)) {
                    return malformed("a map used as a map key");
                }
                let key_count = match &automaton.types[key_type as usize] {
                    Type::Set(members) => members.len() as u32,
                    Type::Map { .. } => return malformed("a map type whose key type is not a set"),
                };
                let mut steps = map.steps.into_vec();
                steps.push(Step { key, key_type, key_count, map_type: map.ty, stride: self.layout.size(value) });
                Ok(Operand::Place(Place { in_state: map.in_state, base: map.base, ty: value, steps: steps.into() }))
            }
        }
    }

    /// Whether values of the two types can be converted key by key (same nesting of maps).
    fn compatible(&self, a: TypeId, b: TypeId) -> bool {
        match (&self.automaton.types[a as usize], &self.automaton.types[b as usize]) {
            (Type::Set(_), Type::Set(_)) => true,
            (Type::Map { value: va, .. }, Type::Map { value: vb, .. }) => self.compatible(*va, *vb),
            _ => false,
        }
    }

    fn transfer(&self, lhs: Option<TypeId>, rhs: Option<TypeId>, what: &str) -> Result<Transfer, EngineError> {
        if self.is_set(lhs) && self.is_set(rhs) {
            return Ok(Transfer::Slot);
        }
        match (lhs, rhs) {
            (Some(a), Some(b)) if self.layout.shapes[a as usize] == self.layout.shapes[b as usize] => {
                Ok(Transfer::Block(self.layout.size(a)))
            }
            (Some(a), Some(b)) if self.compatible(a, b) => Ok(Transfer::Convert),
            _ => malformed(format!("{what} between a map and a value of a different structure")),
        }
    }

    fn place(&self, expr: &Expr) -> Result<Place, EngineError> {
        match self.operand(expr)? {
            Operand::Place(place) if place.in_state => Ok(place),
            _ => malformed("the left side of an assignment is not a variable"),
        }
    }

    fn sets_player(&self, lhs: &Expr) -> bool {
        *lhs == Expr::Var(self.automaton.player_var)
    }

    pub fn label(&self, label: &Label) -> Result<Op, EngineError> {
        let automaton = self.automaton;
        let node_exists = |n: NodeId| (n as usize) < automaton.nodes.len();
        Ok(match label {
            Label::Skip => Op::Skip,
            Label::Assign { lhs, rhs } => {
                let sets_player = self.sets_player(lhs);
                let lhs = self.place(lhs)?;
                let rhs = self.operand(rhs)?;
                let transfer = self.transfer(Some(lhs.ty), Self::operand_type(&rhs), "an assignment")?;
                Op::Assign { lhs, rhs, transfer, sets_player }
            }
            Label::AssignAny { lhs, ty } => {
                let sets_player = self.sets_player(lhs);
                let lhs = self.place(lhs)?;
                let members = match automaton.types.get(*ty as usize) {
                    Some(Type::Set(members)) => members.clone().into_boxed_slice(),
                    _ => return malformed("`T(*)` with a type that is not a set"),
                };
                if !self.is_set(Some(lhs.ty)) {
                    return malformed("`x = T(*)` where `x` is a map");
                }
                Op::AssignAny { lhs, members, sets_player }
            }
            Label::Compare { lhs, rhs, equal } => {
                let lhs = self.operand(lhs)?;
                let rhs = self.operand(rhs)?;
                let transfer = self.transfer(Self::operand_type(&lhs), Self::operand_type(&rhs), "a comparison")?;
                Op::Compare { lhs, rhs, transfer, equal: *equal }
            }
            Label::Reach { from, to, negated } => {
                if !node_exists(*from) || !node_exists(*to) {
                    return malformed("a reachability check names a node that does not exist");
                }
                Op::Reach { from: *from, to: *to, negated: *negated }
            }
            Label::Tag(s) if (*s as usize) < automaton.symbols.len() => Op::Tag(*s),
            Label::Tag(s) => return malformed(format!("tag symbol {s} does not exist")),
            Label::TagExpr(expr) => {
                let operand = self.operand(expr)?;
                if !self.is_set(Self::operand_type(&operand)) {
                    return malformed("`$$` of a map");
                }
                Op::TagExpr(operand)
            }
        })
    }
}

/// The members of a set type (none for a map type).
pub(crate) fn set_members(automaton: &Automaton, ty: TypeId) -> &[SymbolId] {
    match &automaton.types[ty as usize] {
        Type::Set(members) => members,
        Type::Map { .. } => &[],
    }
}

/// A type's name as the source writes it (named types by name, others spelt out).
pub(crate) fn type_name(automaton: &Automaton, ty: TypeId) -> String {
    if let Some(Some(name)) = automaton.type_names.get(ty as usize) {
        return name.clone();
    }
    match &automaton.types[ty as usize] {
        Type::Set(members) => {
            let names: Vec<&str> = members.iter().map(|&s| automaton.symbol_name(s)).collect();
            format!("{{{}}}", names.join(", "))
        }
        Type::Map { key, value } => format!("{} -> {}", type_name(automaton, *key), type_name(automaton, *value)),
    }
}

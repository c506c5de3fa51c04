//! The compile-time side of HRG: domains, types, values, pattern matching, function evaluation
//! and tabulation into RG constant maps.

use super::ast::*;
use crate::diagnostics::Diagnostic;
use crate::rg::ast as rg;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

/// A compile-time value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Int(i64),
    Sym(String),
    /// `C(a, b)`, printed as the symbol `C__a_b`.
    Ctor(String, Vec<Term>),
    Bool(bool),
    /// A function, possibly applied to its first arguments.
    Func(String, Vec<Term>),
    Map(Rc<MapTerm>),
}

/// A map value from a literal: entries by printed key, and the default for the other keys.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MapTerm {
    pub entries: BTreeMap<String, Term>,
    pub default: Option<Term>,
}

impl Term {
    /// The term for a literal identifier: numerals are integers, anything else a symbol.
    pub fn literal(name: &str) -> Term {
        match name.parse::<i64>() {
            Ok(n) if name.bytes().all(|b| b.is_ascii_digit()) => Term::Int(n),
            _ => Term::Sym(name.to_string()),
        }
    }

    /// The RG symbol this value stands for, if it is symbol-like.
    pub fn render(&self) -> Option<String> {
        match self {
            Term::Int(n) => Some(n.to_string()),
            Term::Sym(s) => Some(s.clone()),
            Term::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
            Term::Ctor(name, args) => {
                let mut out = format!("{name}__");
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        out.push('_');
                    }
                    out.push_str(&arg.render()?);
                }
                Some(out)
            }
            Term::Func(..) | Term::Map(..) => None,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Term::Func(name, args) if args.is_empty() => format!("function `{name}`"),
            Term::Func(name, _) => format!("partially applied function `{name}`"),
            Term::Map(_) => "a map".to_string(),
            Term::Bool(b) => format!("`{b}`"),
            other => format!("`{}`", other.render().unwrap_or_default()),
        }
    }
}

fn is_valid_symbol(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A resolved type.
#[derive(Clone, Debug)]
pub enum Ty {
    Set(Rc<SetTy>),
    Map(Box<Ty>, Box<Ty>),
    /// Unknown because of an earlier error: compatible with everything.
    Unknown,
}

#[derive(Debug)]
pub struct SetTy {
    /// A domain name, or a description for anonymous sets.
    pub name: String,
    pub members: Vec<Term>,
    pub names: HashSet<String>,
}

impl Ty {
    pub fn set(name: impl Into<String>, members: Vec<Term>) -> Ty {
        let names = members.iter().filter_map(Term::render).collect();
        Ty::Set(Rc::new(SetTy { name: name.into(), members, names }))
    }

    pub fn singleton(term: Term) -> Ty {
        let name = format!("{{{}}}", term.render().unwrap_or_default());
        Ty::set(name, vec![term])
    }

    /// Loose RG compatibility: sets sharing a symbol; maps with the same keys and compatible values.
    pub fn compatible(&self, other: &Ty) -> bool {
        match (self, other) {
            (Ty::Unknown, _) | (_, Ty::Unknown) => true,
            (Ty::Set(a), Ty::Set(b)) => a.names.iter().any(|n| b.names.contains(n)),
            (Ty::Map(ka, va), Ty::Map(kb, vb)) => match (&**ka, &**kb) {
                (Ty::Set(a), Ty::Set(b)) => a.names == b.names && va.compatible(vb),
                _ => true,
            },
            _ => false,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Ty::Set(set) => set.name.clone(),
            Ty::Map(k, v) => format!("{} -> {}", k.describe(), v.describe()),
            Ty::Unknown => "?".to_string(),
        }
    }

    /// The default initial value: the first member, or a map of defaults.
    pub fn default_value(&self) -> Option<rg::ValueExpr> {
        match self {
            Ty::Set(set) => Some(rg::ValueExpr::Ident(rg::Ident::synthetic(set.members.first()?.render()?))),
            Ty::Map(_, v) => Some(rg::ValueExpr::Map {
                entries: Vec::new(),
                default: Some(Box::new(v.default_value()?)),
                span: rg::Span::default(),
            }),
            Ty::Unknown => None,
        }
    }
}

/// A domain after expansion of unions and generators.
#[derive(Debug)]
pub struct Domain {
    pub decl: DomainDecl,
    pub ty: Ty,
    /// `@integer` pragma: offset and symbols, for single-variable integer generators.
    pub integer: Option<(i64, Vec<String>)>,
}

/// A function: its signature and cases.
#[derive(Debug)]
pub struct Function {
    pub name: Ident,
    pub signature: TypeRef,
    pub ty: Ty,
    pub cases: Vec<FunctionCase>,
    pub span: Span,
}

#[derive(Debug)]
pub struct Variable {
    pub decl: TypedDecl,
    pub ty: Ty,
}

/// A compile-time evaluation error.
#[derive(Debug)]
pub enum EvalError {
    /// No case of the function matched (the tabulated map's default applies).
    NoMatch(String),
    Error(Diagnostic),
}

fn err(message: impl Into<String>, span: Span) -> EvalError {
    EvalError::Error(Diagnostic::error("E0407", message, span).label("cannot be evaluated at compile time"))
}

pub type Env = HashMap<String, Term>;

/// Everything declared at the top level, resolved.
pub struct World {
    pub domains: Vec<Domain>,
    pub domain_index: HashMap<String, usize>,
    /// Built-in set types: `Bool`, `PlayerOrSystem`.
    pub builtin_types: HashMap<String, Ty>,
    pub functions: BTreeMap<String, Function>,
    pub function_order: Vec<String>,
    pub variables: Vec<Variable>,
    pub variable_index: HashMap<String, usize>,
    pub graphs: Vec<GraphDecl>,
    pub graph_index: HashMap<String, usize>,
    /// Every symbol of every domain.
    pub symbols: HashSet<String>,
    pub diagnostics: RefCell<Vec<Diagnostic>>,
    memo: RefCell<HashMap<(String, Vec<Term>), Term>>,
    tables: RefCell<HashMap<String, Option<Term>>>,
    depth: RefCell<usize>,
}

const MAX_EVAL_DEPTH: usize = 200;

impl World {
    pub fn report(&self, diagnostic: Diagnostic) {
        self.diagnostics.borrow_mut().push(diagnostic);
    }

    /// Builds the world from a parsed program, reporting declaration errors.
    pub fn build(program: &Program) -> World {
        let mut world = World {
            domains: Vec::new(),
            domain_index: HashMap::new(),
            builtin_types: HashMap::new(),
            functions: BTreeMap::new(),
            function_order: Vec::new(),
            variables: Vec::new(),
            variable_index: HashMap::new(),
            graphs: Vec::new(),
            graph_index: HashMap::new(),
            symbols: HashSet::new(),
            diagnostics: RefCell::new(Vec::new()),
            memo: RefCell::new(HashMap::new()),
            tables: RefCell::new(HashMap::new()),
            depth: RefCell::new(0),
        };
        let mut declared: HashMap<String, Span> = HashMap::new();
        let mut declare = |world: &World, name: &Ident| -> bool {
            if let Some(previous) = declared.get(&name.name) {
                world.report(
                    Diagnostic::error("E0402", format!("`{}` is declared twice", name.name), name.span)
                        .label("second declaration")
                        .with_secondary(*previous, "first declared here")
                        .with_help("domains, functions, variables and graphs share one namespace; rename one"),
                );
                false
            } else {
                declared.insert(name.name.clone(), name.span);
                true
            }
        };
        // Functions are the typed declarations that have cases.
        let with_cases: HashSet<&str> = program
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Case(case) => Some(case.name.name.as_str()),
                _ => None,
            })
            .collect();
        let domain_decls: Vec<&DomainDecl> = program
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Domain(d) => Some(d),
                _ => None,
            })
            .collect();
        for decl in &domain_decls {
            if declare(&world, &decl.name) {
                world.domain_index.insert(decl.name.name.clone(), usize::MAX);
            }
        }
        for decl in &domain_decls {
            if world.domain_index.get(&decl.name.name) == Some(&usize::MAX) {
                world.build_domain(&domain_decls, &decl.name.name, &mut Vec::new());
            }
        }
        world.symbols = world
            .domains
            .iter()
            .flat_map(|d| match &d.ty {
                Ty::Set(set) => set.names.iter().cloned().collect::<Vec<_>>(),
                _ => Vec::new(),
            })
            .collect();
        world.add_builtin_types();
        for item in &program.items {
            match item {
                Item::Typed(decl) if with_cases.contains(decl.name.name.as_str()) => {
                    if !declare(&world, &decl.name) {
                        continue;
                    }
                    if let Some(init) = &decl.init {
                        world.report(
                            Diagnostic::error(
                                "E0404",
                                format!("function `{}` has both an initialiser and cases", decl.name.name),
                                init.span(),
                            )
                            .label("initialiser of a function")
                            .with_help("a signature line is `name : A -> B`; the cases follow on their own lines"),
                        );
                    }
                    let ty = world.resolve_type(&decl.ty);
                    world.function_order.push(decl.name.name.clone());
                    world.functions.insert(
                        decl.name.name.clone(),
                        Function {
                            name: decl.name.clone(),
                            signature: decl.ty.clone(),
                            ty,
                            cases: Vec::new(),
                            span: decl.span,
                        },
                    );
                }
                Item::Typed(decl) => {
                    if !declare(&world, &decl.name) {
                        continue;
                    }
                    let ty = world.resolve_type(&decl.ty);
                    world.variable_index.insert(decl.name.name.clone(), world.variables.len());
                    world.variables.push(Variable { decl: decl.clone(), ty });
                }
                Item::Graph(graph) => {
                    if !declare(&world, &graph.name) {
                        continue;
                    }
                    world.graph_index.insert(graph.name.name.clone(), world.graphs.len());
                    world.graphs.push(graph.clone());
                }
                _ => {}
            }
        }
        for item in &program.items {
            if let Item::Case(case) = item {
                match world.functions.get_mut(&case.name.name) {
                    Some(function) => {
                        function.span = function.span.join(case.span);
                        function.cases.push(case.clone());
                    }
                    None => {
                        let help = if world.graph_index.contains_key(&case.name.name)
                            || world.variable_index.contains_key(&case.name.name)
                        {
                            format!("`{}` is not a function; rename the case or the declaration", case.name.name)
                        } else {
                            format!("declare the function first: `{} : Domain -> Domain`", case.name.name)
                        };
                        world.report(
                            Diagnostic::error(
                                "E0404",
                                format!("case of `{}` has no signature", case.name.name),
                                case.name.span,
                            )
                            .label("no `name : Type` line declares this function")
                            .with_help(help),
                        );
                    }
                }
            }
        }
        let arities: Vec<(String, usize, Vec<(Span, usize)>)> = world
            .functions
            .values()
            .map(|f| {
                (f.name.name.clone(), arity(&f.signature), f.cases.iter().map(|c| (c.span, c.patterns.len())).collect())
            })
            .collect();
        for (name, arity, cases) in arities {
            for (span, count) in cases {
                if count > arity {
                    world.report(
                        Diagnostic::error(
                            "E0405",
                            format!("case of `{name}` has {count} patterns but the signature takes {arity} arguments"),
                            span,
                        )
                        .label("too many patterns")
                        .with_help("remove patterns or extend the signature with `->`"),
                    );
                }
            }
        }
        world
    }

    fn add_builtin_types(&mut self) {
        if !self.domain_index.contains_key("Bool") {
            self.builtin_types.insert("Bool".into(), Ty::set("Bool", vec![Term::Int(0), Term::Int(1)]));
        }
        if !self.domain_index.contains_key("PlayerOrSystem") {
            let mut members = match self.lookup_type("Player") {
                Some(Ty::Set(set)) => set.members.clone(),
                _ => Vec::new(),
            };
            for system in ["keeper", "random"] {
                if !members.iter().any(|m| m.render().as_deref() == Some(system)) {
                    members.push(Term::Sym(system.into()));
                }
            }
            self.builtin_types.insert("PlayerOrSystem".into(), Ty::set("PlayerOrSystem", members));
        }
        let player = self.lookup_type("Player").unwrap_or(Ty::Unknown);
        let score = self.lookup_type("Score").unwrap_or(Ty::Unknown);
        let bool_ty = self.lookup_type("Bool").unwrap_or(Ty::Unknown);
        if !self.domain_index.contains_key("Goals") {
            self.builtin_types.insert("Goals".into(), Ty::Map(Box::new(player.clone()), Box::new(score)));
        }
        if !self.domain_index.contains_key("Visibility") {
            self.builtin_types.insert("Visibility".into(), Ty::Map(Box::new(player), Box::new(bool_ty)));
        }
    }

    /// A domain or built-in type by name.
    pub fn lookup_type(&self, name: &str) -> Option<Ty> {
        match self.domain_index.get(name) {
            Some(&index) if index != usize::MAX => Some(self.domains[index].ty.clone()),
            Some(_) => Some(Ty::Unknown),
            None => self.builtin_types.get(name).cloned(),
        }
    }

    fn build_domain(&mut self, decls: &[&DomainDecl], name: &str, building: &mut Vec<String>) -> Ty {
        if let Some(&index) = self.domain_index.get(name) {
            if index != usize::MAX {
                return self.domains[index].ty.clone();
            }
        }
        let Some(decl) = decls.iter().find(|d| d.name.name == name).copied() else {
            return Ty::Unknown;
        };
        if building.iter().any(|b| b == name) {
            self.report(
                Diagnostic::error("E0421", format!("domain `{name}` includes itself"), decl.name.span)
                    .label("cyclic union")
                    .with_help("a domain may include only other, non-cyclic domains"),
            );
            return Ty::Unknown;
        }
        building.push(name.to_string());
        let mut members: Vec<Term> = Vec::new();
        let mut integer = None;
        for element in &decl.elements {
            match &element.params {
                None => {
                    let is_domain = decls.iter().any(|d| d.name.name == element.name.name)
                        || self.builtin_types.contains_key(&element.name.name)
                        || element.name.name == "PlayerOrSystem";
                    if is_domain {
                        match self.build_domain(decls, &element.name.name, building) {
                            Ty::Set(set) => members.extend(set.members.iter().cloned()),
                            _ => {}
                        }
                    } else {
                        members.push(Term::literal(&element.name.name));
                    }
                }
                Some(params) => {
                    let generated = self.generate(element, params);
                    if params.len() == 1 && element.bindings.len() == 1 {
                        if let Range::Interval { low, .. } = &element.bindings[0].range {
                            if let Ok(low) = low.name.parse::<i64>() {
                                if params[0].name == element.bindings[0].var.name {
                                    integer = Some((low, generated.iter().filter_map(Term::render).collect()));
                                }
                            }
                        }
                    }
                    members.extend(generated);
                }
            }
        }
        building.pop();
        let mut seen = HashSet::new();
        members.retain(|m| m.render().is_some_and(|r| seen.insert(r)));
        for member in &members {
            if let Some(name) = member.render().filter(|n| !is_valid_symbol(n)) {
                self.report(
                    Diagnostic::error(
                        "E0421",
                        format!("domain `{}` has the invalid symbol `{name}`", decl.name.name),
                        decl.span,
                    )
                    .label("generated here")
                    .with_help("symbols may contain only letters, digits and `_`; keep generator ranges non-negative"),
                );
                break;
            }
        }
        if members.is_empty() {
            self.report(
                Diagnostic::error("E0421", format!("domain `{}` is empty", decl.name.name), decl.span)
                    .label("no members")
                    .with_help("list at least one symbol"),
            );
        }
        let ty = Ty::set(decl.name.name.clone(), members);
        self.domain_index.insert(decl.name.name.clone(), self.domains.len());
        self.domains.push(Domain { decl: decl.clone(), ty: ty.clone(), integer });
        ty
    }

    /// The values a `where` binding ranges over.
    pub fn range_values(&self, range: &Range, span: Span) -> Vec<Term> {
        match range {
            Range::Interval { low, high } => match (low.name.parse::<i64>(), high.name.parse::<i64>()) {
                (Ok(low), Ok(high)) if high - low <= 100_000 => (low..=high).map(Term::Int).collect(),
                (Ok(_), Ok(_)) => {
                    self.report(
                        Diagnostic::error("E0421", "range too large", span)
                            .label("more than 100000 values")
                            .with_help("use a smaller range"),
                    );
                    Vec::new()
                }
                _ => {
                    self.report(
                        Diagnostic::error("E0421", "a range needs two numerals", span)
                            .label("not `low..high` with numerals")
                            .with_help("write e.g. `I in 0..7`"),
                    );
                    Vec::new()
                }
            },
            Range::Set(members) => members.iter().map(|m| Term::literal(&m.name)).collect(),
            Range::Domain(name) => match self.lookup_type(&name.name) {
                Some(Ty::Set(set)) => set.members.clone(),
                Some(_) => Vec::new(),
                None => {
                    self.report(unknown_type(self, name));
                    Vec::new()
                }
            },
        }
    }

    fn generate(&self, element: &DomainElement, params: &[Ident]) -> Vec<Term> {
        for param in params {
            if is_variable(&param.name) && !element.bindings.iter().any(|b| b.var.name == param.name) {
                self.report(
                    Diagnostic::error(
                        "E0421",
                        format!("`{}` is not bound by the `where` clause", param.name),
                        param.span,
                    )
                    .label("unbound generator variable")
                    .with_help(format!("add `where {} in 0..N` (or a set `{{a, b}}`)", param.name)),
                );
                return Vec::new();
            }
        }
        let ranges: Vec<(String, Vec<Term>)> =
            element.bindings.iter().map(|b| (b.var.name.clone(), self.range_values(&b.range, b.span))).collect();
        let mut out = Vec::new();
        let mut env = Env::new();
        fn product(ranges: &[(String, Vec<Term>)], env: &mut Env, emit: &mut dyn FnMut(&Env)) {
            match ranges.split_first() {
                None => emit(env),
                Some(((var, values), rest)) => {
                    for value in values {
                        env.insert(var.clone(), value.clone());
                        product(rest, env, emit);
                    }
                }
            }
        }
        product(&ranges, &mut env, &mut |env| {
            let args =
                params.iter().map(|p| env.get(&p.name).cloned().unwrap_or_else(|| Term::literal(&p.name))).collect();
            out.push(Term::Ctor(element.name.name.clone(), args));
        });
        out
    }

    /// Resolves a type expression, reporting unknown names.
    pub fn resolve_type(&self, ty: &TypeRef) -> Ty {
        match ty {
            TypeRef::Name(name) => self.lookup_type(&name.name).unwrap_or_else(|| {
                self.report(unknown_type(self, name));
                Ty::Unknown
            }),
            TypeRef::Set { members, .. } => Ty::set(
                format!("{{{}}}", members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ")),
                members.iter().map(|m| Term::literal(&m.name)).collect(),
            ),
            TypeRef::Arrow { from, to, .. } => {
                let key = self.resolve_type(from);
                if matches!(key, Ty::Map(..)) {
                    self.report(
                        Diagnostic::error("E0403", "a map key must be a domain", from.span())
                            .label("this is a map type")
                            .with_help("parenthesised arrow types are not keys; use `A -> B -> C` for curried maps"),
                    );
                }
                Ty::Map(Box::new(key), Box::new(self.resolve_type(to)))
            }
        }
    }

    pub fn is_function(&self, name: &str) -> bool {
        self.functions.contains_key(name)
    }

    // ----- evaluation -------------------------------------------------------------------------

    /// Evaluates a compile-time expression; `expected` gives map literals their key domain.
    pub fn eval(&self, expr: &Expr, env: &Env, expected: Option<&Ty>) -> Result<Term, EvalError> {
        match expr {
            Expr::Name(name) => {
                if let Some(value) = env.get(&name.name) {
                    return Ok(value.clone());
                }
                if self.functions.contains_key(&name.name) {
                    return Ok(Term::Func(name.name.clone(), Vec::new()));
                }
                if self.variable_index.contains_key(&name.name)
                    || matches!(name.name.as_str(), "player" | "goals" | "visible")
                {
                    return Err(EvalError::Error(
                        Diagnostic::error("E0407", format!("variable `{}` used at compile time", name.name), name.span)
                            .label("variables have no value at compile time")
                            .with_help(
                                "functions, domains and initialisers may use only constants and pattern variables",
                            ),
                    ));
                }
                if self.lookup_type(&name.name).is_some() {
                    return Err(err(format!("domain `{}` is not a value", name.name), name.span));
                }
                if is_variable(&name.name) {
                    return Err(EvalError::Error(
                        Diagnostic::error("E0401", format!("unbound pattern variable `{}`", name.name), name.span)
                            .label("not bound by a pattern or `where`")
                            .with_help("uppercase names are pattern variables; bind it in the case's patterns"),
                    ));
                }
                match name.name.as_str() {
                    // `true`/`false` are booleans unless a domain declares them as symbols.
                    "true" | "false" if !self.symbols.contains(&name.name) => Ok(Term::Bool(name.name == "true")),
                    _ => Ok(Term::literal(&name.name)),
                }
            }
            Expr::Call { callee, args, span } => {
                if let Expr::Name(name) = &**callee {
                    if is_variable(&name.name) && !env.contains_key(&name.name) {
                        let args = args.iter().map(|a| self.eval(a, env, None)).collect::<Result<Vec<_>, _>>()?;
                        return Ok(Term::Ctor(name.name.clone(), args));
                    }
                    if matches!(name.name.as_str(), "true" | "false")
                        && args.is_empty()
                        && !self.is_function(&name.name)
                    {
                        return Ok(Term::Bool(name.name == "true"));
                    }
                    if name.name == "not" && args.len() == 1 && !self.is_function("not") {
                        return match self.eval(&args[0], env, None)? {
                            Term::Bool(b) => Ok(Term::Bool(!b)),
                            other => {
                                Err(err(format!("`not` needs a condition, found {}", other.describe()), args[0].span()))
                            }
                        };
                    }
                }
                let function = self.eval(callee, env, None)?;
                let args = args.iter().map(|a| self.eval(a, env, None)).collect::<Result<Vec<_>, _>>()?;
                self.apply(&function, &args, *span)
            }
            Expr::Access { map, key, span } => {
                let map = self.eval(map, env, None)?;
                let key = self.eval(key, env, None)?;
                self.apply(&map, &[key], *span)
            }
            Expr::Binary { op, lhs, rhs, span } => match op {
                BinOp::And | BinOp::Or => {
                    let left = self.eval_bool(lhs, env)?;
                    if (*op == BinOp::And && !left) || (*op == BinOp::Or && left) {
                        return Ok(Term::Bool(left));
                    }
                    Ok(Term::Bool(self.eval_bool(rhs, env)?))
                }
                BinOp::Eq | BinOp::Ne => {
                    let equal = self.eval(lhs, env, None)? == self.eval(rhs, env, None)?;
                    Ok(Term::Bool(equal == (*op == BinOp::Eq)))
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    let (a, b) = (self.eval(lhs, env, None)?, self.eval(rhs, env, None)?);
                    let ordering = a.cmp(&b);
                    Ok(Term::Bool(match op {
                        BinOp::Lt => ordering.is_lt(),
                        BinOp::Le => ordering.is_le(),
                        BinOp::Gt => ordering.is_gt(),
                        _ => ordering.is_ge(),
                    }))
                }
                BinOp::Add | BinOp::Sub | BinOp::Mod => {
                    let int = |e: &Expr| -> Result<i64, EvalError> {
                        match self.eval(e, env, None)? {
                            Term::Int(n) => Ok(n),
                            other => Err(err(
                                format!("`{}` needs numbers, found {}", op.symbol(), other.describe()),
                                e.span(),
                            )),
                        }
                    };
                    let (a, b) = (int(lhs)?, int(rhs)?);
                    let value = match op {
                        BinOp::Add => a.checked_add(b),
                        BinOp::Sub => a.checked_sub(b),
                        _ if b == 0 => return Err(err("remainder by zero", *span)),
                        _ => Some(((a % b) + b) % b),
                    };
                    value.map(Term::Int).ok_or_else(|| err("arithmetic overflow", *span))
                }
            },
            Expr::In { expr, domain, .. } => {
                let value = self.eval(expr, env, None)?;
                match self.lookup_type(&domain.name) {
                    Some(Ty::Set(set)) => Ok(Term::Bool(value.render().is_some_and(|r| set.names.contains(&r)))),
                    Some(_) => Ok(Term::Bool(false)),
                    None => Err(EvalError::Error(unknown_type(self, domain))),
                }
            }
            Expr::If { cond, then, otherwise, .. } => {
                if self.eval_bool(cond, env)? {
                    self.eval(then, env, expected)
                } else {
                    self.eval(otherwise, env, expected)
                }
            }
            Expr::Map { default, parts, span } => {
                let Some(Ty::Map(key_ty, value_ty)) = expected else {
                    return Err(err("a map literal needs a known map type here", *span));
                };
                self.eval_map(default.as_deref(), parts, key_ty, value_ty, env)
            }
            Expr::Star(span) => Err(err("`*` is allowed only in `x = T(*)`", *span)),
            Expr::Error(span) => Err(err("invalid expression", *span)),
        }
    }

    fn eval_bool(&self, expr: &Expr, env: &Env) -> Result<bool, EvalError> {
        match self.eval(expr, env, None)? {
            Term::Bool(b) => Ok(b),
            Term::Sym(s) if s == "true" || s == "false" => Ok(s == "true"),
            other => Err(err(format!("expected a condition, found {}", other.describe()), expr.span())),
        }
    }

    fn eval_map(
        &self,
        default: Option<&Expr>,
        parts: &[MapPart],
        key_ty: &Ty,
        value_ty: &Ty,
        env: &Env,
    ) -> Result<Term, EvalError> {
        let default = default.map(|d| self.eval(d, env, Some(value_ty))).transpose()?;
        let mut entries = BTreeMap::new();
        let keys: Vec<Term> = match key_ty {
            Ty::Set(set) => set.members.clone(),
            _ => Vec::new(),
        };
        let mut wildcard_default = None;
        for part in parts {
            if matches!(part.pattern, Pattern::Wildcard(_)) && part.bindings.is_empty() && wildcard_default.is_none() {
                wildcard_default = Some(self.eval(&part.value, env, Some(value_ty))?);
            }
        }
        for key in &keys {
            for part in parts {
                let mut local = env.clone();
                if !match_pattern(&part.pattern, key, &mut local) {
                    continue;
                }
                if !self.bindings_hold(&part.bindings, &local)? {
                    continue;
                }
                let value = self.eval(&part.value, &local, Some(value_ty))?;
                entries.insert(key.render().unwrap_or_default(), value);
                break;
            }
        }
        Ok(Term::Map(Rc::new(MapTerm { entries, default: default.or(wildcard_default) })))
    }

    fn bindings_hold(&self, bindings: &[Binding], env: &Env) -> Result<bool, EvalError> {
        for binding in bindings {
            let Some(value) = env.get(&binding.var.name) else {
                return Err(EvalError::Error(
                    Diagnostic::error(
                        "E0421",
                        format!("`{}` does not occur in the pattern", binding.var.name),
                        binding.var.span,
                    )
                    .label("bound by `where` but not used")
                    .with_help("a `where` clause restricts the pattern's variables; use the variable in the pattern"),
                ));
            };
            let allowed = self.range_values(&binding.range, binding.span);
            if !allowed.contains(value) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Applies a function value, a map, or a partial application to arguments.
    pub fn apply(&self, function: &Term, args: &[Term], span: Span) -> Result<Term, EvalError> {
        if args.is_empty() {
            return Ok(function.clone());
        }
        match function {
            Term::Func(name, applied) => {
                let mut all = applied.clone();
                all.extend(args.iter().cloned());
                match self.call(name, &all, span) {
                    Err(EvalError::NoMatch(_)) => {
                        // Like the tabulated map at run time: unmatched arguments take the default.
                        let table = self.table(name, span)?;
                        self.apply(&table, &all, span)
                    }
                    other => other,
                }
            }
            Term::Map(map) => {
                let key = args[0].render().unwrap_or_default();
                let value = match map.entries.get(&key).or(map.default.as_ref()) {
                    Some(value) => value.clone(),
                    None => return Err(EvalError::NoMatch(format!("no entry for `{key}`"))),
                };
                self.apply(&value, &args[1..], span)
            }
            other => Err(err(format!("{} is not a function", other.describe()), span)),
        }
    }

    /// Evaluates `name(args)` by its first matching case.
    fn call(&self, name: &str, args: &[Term], span: Span) -> Result<Term, EvalError> {
        let Some(function) = self.functions.get(name) else {
            return Err(err(format!("`{name}` is not a function"), span));
        };
        let min_patterns = function.cases.iter().map(|c| c.patterns.len()).min().unwrap_or(0);
        if args.len() < min_patterns.max(1) {
            return Ok(Term::Func(name.to_string(), args.to_vec()));
        }
        let key = (name.to_string(), args.to_vec());
        if let Some(value) = self.memo.borrow().get(&key) {
            return Ok(value.clone());
        }
        if *self.depth.borrow() > MAX_EVAL_DEPTH {
            return Err(err(format!("evaluation of `{name}` recurses too deeply"), span));
        }
        *self.depth.borrow_mut() += 1;
        let result = self.call_cases(function, args);
        *self.depth.borrow_mut() -= 1;
        if let Ok(value) = &result {
            self.memo.borrow_mut().insert(key, value.clone());
        }
        result
    }

    fn call_cases(&self, function: &Function, args: &[Term]) -> Result<Term, EvalError> {
        for case in &function.cases {
            let count = case.patterns.len();
            if count > args.len() {
                continue;
            }
            let mut env = Env::new();
            if case.patterns.iter().zip(args).all(|(p, a)| match_pattern(p, a, &mut env)) {
                let expected = result_type(&function.ty, count);
                let value = self.eval(&case.body, &env, expected.as_ref())?;
                return self.apply(&value, &args[count..], case.span);
            }
        }
        Err(EvalError::NoMatch(format!(
            "no case of `{}` matches ({})",
            function.name.name,
            args.iter().map(|a| a.render().unwrap_or_else(|| a.describe())).collect::<Vec<_>>().join(", ")
        )))
    }

    /// The full table of a function as a map term (entries for every argument, default = the
    /// most frequent value), memoised.
    pub fn table(&self, name: &str, span: Span) -> Result<Term, EvalError> {
        if let Some(done) = self.tables.borrow().get(name) {
            return done.clone().ok_or_else(|| err(format!("`{name}` depends on itself"), span));
        }
        self.tables.borrow_mut().insert(name.to_string(), None);
        let function = &self.functions[name];
        let table = self.tabulate(&Term::Func(name.to_string(), Vec::new()), &function.ty, &mut Vec::new())?;
        self.tables.borrow_mut().insert(name.to_string(), Some(table.clone()));
        Ok(table)
    }

    fn tabulate(&self, value: &Term, ty: &Ty, uncovered: &mut Vec<String>) -> Result<Term, EvalError> {
        let (Ty::Map(key_ty, value_ty), Term::Func(..) | Term::Map(_)) = (ty, value) else {
            return Ok(value.clone());
        };
        let Ty::Set(keys) = &**key_ty else {
            return Ok(value.clone());
        };
        let mut entries = BTreeMap::new();
        let mut counts: Vec<(Term, usize)> = Vec::new();
        for key in &keys.members {
            match self.apply(value, std::slice::from_ref(key), Span::default()) {
                Ok(result) => {
                    let result = self.tabulate(&result, value_ty, uncovered)?;
                    match counts.iter_mut().find(|(t, _)| *t == result) {
                        Some((_, n)) => *n += 1,
                        None => counts.push((result.clone(), 1)),
                    }
                    entries.insert(key.render().unwrap_or_default(), result);
                }
                Err(EvalError::NoMatch(message)) => uncovered.push(message),
                Err(error) => return Err(error),
            }
        }
        let explicit = match value {
            Term::Map(map) => map.default.clone().map(|d| self.tabulate(&d, value_ty, uncovered)).transpose()?,
            _ => None,
        };
        let most_frequent = counts.iter().fold(None::<&(Term, usize)>, |best, entry| match best {
            Some(b) if b.1 >= entry.1 => Some(b),
            _ => Some(entry),
        });
        let default = explicit.or_else(|| most_frequent.map(|(t, _)| t.clone()));
        Ok(Term::Map(Rc::new(MapTerm { entries, default })))
    }

    /// Converts a value of type `ty` into an RG value, checking membership in set types.
    pub fn to_value(&self, value: &Term, ty: &Ty, span: Span, what: &str) -> Option<rg::ValueExpr> {
        let mut uncovered = Vec::new();
        let value = match self.tabulate(value, ty, &mut uncovered) {
            Ok(v) => v,
            Err(EvalError::Error(d)) => {
                self.report(d);
                return None;
            }
            Err(EvalError::NoMatch(message)) => {
                self.report(Diagnostic::error("E0407", message, span).label(what.to_string()));
                return None;
            }
        };
        if let Some(first) = uncovered.first() {
            self.report(
                Diagnostic::warning("W0402", format!("{what}: {first}"), span)
                    .label(format!("{} argument combination(s) fall back to the map default", uncovered.len()))
                    .with_help("add a catch-all case such as `f(_) = value`"),
            );
        }
        self.value_expr(&value, ty, span, what)
    }

    fn value_expr(&self, value: &Term, ty: &Ty, span: Span, what: &str) -> Option<rg::ValueExpr> {
        match (ty, value) {
            (Ty::Map(_, value_ty), Term::Map(map)) => {
                let Some(default) = &map.default else {
                    self.report(
                        Diagnostic::error("E0407", format!("{what}: the map has no entries"), span)
                            .label("empty map")
                            .with_help("give a default with `{ :value }` or `{ _ = value }`"),
                    );
                    return None;
                };
                let default = self.value_expr(default, value_ty, span, what)?;
                let mut entries = Vec::new();
                for (key, entry) in &map.entries {
                    let entry = self.value_expr(entry, value_ty, span, what)?;
                    if entry != default {
                        entries.push((rg::Ident::new(key.clone(), span), entry));
                    }
                }
                Some(rg::ValueExpr::Map { entries, default: Some(Box::new(default)), span })
            }
            (Ty::Map(..), other) => {
                self.report(
                    Diagnostic::error("E0408", format!("{what}: expected a map, found {}", other.describe()), span)
                        .label(format!("of type {}", ty.describe()))
                        .with_help("give a map literal such as `{ _ = value }` or a function name"),
                );
                None
            }
            (_, other) => {
                let Some(symbol) = other.render() else {
                    self.report(
                        Diagnostic::error(
                            "E0408",
                            format!("{what}: expected a symbol, found {}", other.describe()),
                            span,
                        )
                        .label(format!("of type {}", ty.describe()))
                        .with_help("apply the function to all its arguments"),
                    );
                    return None;
                };
                if !is_valid_symbol(&symbol) {
                    self.report(
                        Diagnostic::error("E0408", format!("{what}: `{symbol}` is not a valid symbol"), span)
                            .label("produced here")
                            .with_help("guard the case, e.g. `if X == 0 then null else V(X - 1)`"),
                    );
                    return None;
                }
                if let Ty::Set(set) = ty {
                    if !set.names.contains(&symbol) {
                        self.report(
                            Diagnostic::error("E0408", format!("{what}: `{symbol}` is not in `{}`", set.name), span)
                                .label("value outside the declared type")
                                .with_help(format!("add `{symbol}` to the domain or change the result")),
                        );
                        return None;
                    }
                }
                Some(rg::ValueExpr::Ident(rg::Ident::new(symbol, span)))
            }
        }
    }
}

/// The number of arguments a signature takes (arrows on the right spine).
pub fn arity(ty: &TypeRef) -> usize {
    match ty {
        TypeRef::Arrow { to, .. } => 1 + arity(to),
        _ => 0,
    }
}

/// The type after `count` arguments have been applied.
fn result_type(ty: &Ty, count: usize) -> Option<Ty> {
    if count == 0 {
        return Some(ty.clone());
    }
    match ty {
        Ty::Map(_, value) => result_type(value, count - 1),
        _ => None,
    }
}

/// Uppercase identifiers are pattern variables.
pub fn is_variable(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

/// Matches a value against a pattern, extending the bindings.
pub fn match_pattern(pattern: &Pattern, value: &Term, env: &mut Env) -> bool {
    match pattern {
        Pattern::Wildcard(_) => true,
        Pattern::Var(name) => match env.get(&name.name) {
            Some(bound) => bound == value,
            None => {
                env.insert(name.name.clone(), value.clone());
                true
            }
        },
        Pattern::Literal(name) => {
            let literal = match name.name.as_str() {
                "true" => Term::Bool(true),
                "false" => Term::Bool(false),
                other => Term::literal(other),
            };
            // `true`/`false` may also be ordinary symbols of a user domain.
            literal == *value || Term::literal(&name.name) == *value
        }
        Pattern::Ctor { name, args, .. } => match value {
            Term::Ctor(ctor, values) if *ctor == name.name && values.len() == args.len() => {
                args.iter().zip(values).all(|(p, v)| match_pattern(p, v, env))
            }
            _ => false,
        },
    }
}

/// Edit distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = if ca == *cb { previous } else { 1 + previous.min(row[j]).min(row[j + 1]) };
            previous = current;
        }
    }
    row[b.len()]
}

/// The closest candidate to `name`, if close enough to be a likely typo.
pub fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, c)| *d <= (name.len().max(c.len()) / 3).max(1))
        .min()
        .map(|(_, c)| c)
}

fn unknown_type(world: &World, name: &Ident) -> Diagnostic {
    let names = world.domain_index.keys().chain(world.builtin_types.keys()).map(String::as_str);
    let help = match suggest(&name.name, names) {
        Some(close) => format!("did you mean `{close}`?"),
        None => format!("declare it: `domain {} = a | b`", name.name),
    };
    Diagnostic::error("E0403", format!("unknown domain `{}`", name.name), name.span)
        .label("no such domain")
        .with_help(help)
}

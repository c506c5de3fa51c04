//! Lowering a checked card program to RG text: the procedure becomes automaton control flow,
//! numbers become symbols with compile-time arithmetic tables, and the system calls become
//! keeper, random (shuffling and dealing) and player moves (plays, bids).

use super::classes::{stmt_span, PlayTables};
use super::deck::Deck;
use super::syntax::{BaseType, Expr, Function, Stmt, TypeName};
use super::Program;
use crate::diagnostics::Diagnostic;
use crate::rg::ast::Span;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Int,
    Bool,
    Str,
    Series,
    Array(Box<Ty>, usize),
}

impl Ty {
    fn of(name: &TypeName, size: Option<usize>) -> Ty {
        let base = match name.base {
            BaseType::Int => Ty::Int,
            BaseType::Bool => Ty::Bool,
            BaseType::Str => Ty::Str,
            BaseType::Series => Ty::Series,
        };
        match size {
            Some(n) => Ty::Array(Box::new(base), n),
            None => base,
        }
    }
    fn describe(&self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Str => "string",
            Ty::Series => "series",
            Ty::Array(..) => "array",
        }
    }
}

#[derive(Clone, Debug)]
struct Var {
    rg: String,
    ty: Ty,
}

pub struct Gen<'p> {
    program: &'p Program,
    deck: &'p Deck,
    tables: &'p PlayTables,
    out_edges: String,
    nodes: usize,
    declarations: Vec<String>,
    globals: HashMap<String, Var>,
    scopes: Vec<HashMap<String, Var>>,
    used_tables: BTreeSet<&'static str>,
    used_compare_lists: BTreeSet<String>,
    class_tests: bool,
    temps: usize,
    pub errors: Vec<Diagnostic>,
    call_stack: Vec<String>,
    returns: Vec<(String, Option<Var>)>,
    breaks: Vec<String>,
    strings: BTreeSet<String>,
    function_vars: HashMap<String, (Vec<Var>, Option<Var>)>,
    play_sites: usize,
    /// `open_<class>` tables: whether some series of the class beats each `last` (NONE last).
    open_tables: Vec<(String, Vec<bool>)>,
    /// Whether `seriesSize` (cards in each series) is used.
    series_sizes: bool,
}

/// A number as an RG symbol: negative ones are negative numerals (`-5`, spec/rg-format.md §7).
fn int_sym(n: i64) -> String {
    n.to_string()
}

fn str_sym(s: &str) -> String {
    let clean: String = s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    format!("s_{clean}")
}

fn error(code: &'static str, message: impl Into<String>, span: Span, label: &str, help: &str) -> Diagnostic {
    Diagnostic::error(code, message, span).label(label).with_help(help)
}

impl<'p> Gen<'p> {
    pub fn new(program: &'p Program, deck: &'p Deck, tables: &'p PlayTables) -> Self {
        let mut strings = BTreeSet::new();
        strings.insert(String::new());
        collect_strings(&program.body, &mut strings);
        collect_strings(&program.end, &mut strings);
        collect_strings(&program.globals, &mut strings);
        for f in &program.functions {
            collect_strings(&f.body, &mut strings);
        }
        Gen {
            program,
            deck,
            tables,
            out_edges: String::new(),
            nodes: 0,
            declarations: Vec::new(),
            globals: HashMap::new(),
            scopes: Vec::new(),
            used_tables: BTreeSet::new(),
            used_compare_lists: BTreeSet::new(),
            class_tests: false,
            temps: 0,
            errors: Vec::new(),
            call_stack: Vec::new(),
            returns: Vec::new(),
            breaks: Vec::new(),
            strings,
            function_vars: HashMap::new(),
            play_sites: 0,
            open_tables: Vec::new(),
            series_sizes: false,
        }
    }

    fn cfg(&self) -> &super::Config {
        &self.program.config
    }

    fn in_range(&self, n: i64) -> bool {
        n >= self.cfg().int_min && n <= self.cfg().int_max
    }

    fn fresh(&mut self) -> String {
        self.nodes += 1;
        format!("n{}", self.nodes)
    }

    fn edge(&mut self, from: &str, to: &str, label: &str) {
        let _ = writeln!(self.out_edges, "{from}, {to}: {label};");
    }

    fn skip(&mut self, from: &str, to: &str) {
        self.edge(from, to, "");
    }

    fn rg_type(&self, ty: &Ty) -> String {
        match ty {
            Ty::Int => "Int".into(),
            Ty::Bool => "Bool".into(),
            Ty::Str => "Str".into(),
            Ty::Series => "Series".into(),
            Ty::Array(inner, n) => format!("Idx{n} -> {}", self.rg_type(inner)),
        }
    }

    fn default_value(&self, ty: &Ty) -> String {
        match ty {
            Ty::Int | Ty::Bool => "0".into(),
            Ty::Str => str_sym(""),
            Ty::Series => "none".into(),
            Ty::Array(inner, _) => format!("{{:{}}}", self.default_value(inner)),
        }
    }

    fn new_var(&mut self, hint: &str, ty: Ty, init: Option<String>) -> Var {
        self.temps += 1;
        let rg = format!("v{}_{}", self.temps, hint);
        let init = init.unwrap_or_else(|| self.default_value(&ty));
        self.declarations.push(format!("var {rg}: {} = {init};", self.rg_type(&ty)));
        Var { rg, ty }
    }

    fn lookup(&self, name: &str) -> Option<Var> {
        for scope in self.scopes.iter().rev() {
            if let Some(v) = scope.get(name) {
                return Some(v.clone());
            }
        }
        self.globals.get(name).cloned()
    }

    /// Declares a program variable: globals get their initial value in the RG declaration;
    /// locals are (re)initialised by an edge where they are declared.
    fn declare(
        &mut self,
        ty: &TypeName,
        name: &str,
        size: Option<i64>,
        init: Option<&Expr>,
        span: Span,
        at: &mut String,
    ) {
        let global = self.scopes.is_empty();
        let size = match (size, init) {
            (Some(n), _) if n > 0 => Some(n as usize),
            (Some(_), _) => {
                self.errors.push(error(
                    "E0812",
                    "an array needs a positive size",
                    span,
                    "bad size",
                    "write `int x[4];`",
                ));
                return;
            }
            (None, Some(Expr::Array(items, _))) => Some(items.len().max(1)),
            (None, _) if ty.array => Some(1),
            (None, _) => None,
        };
        if let Some(n) = size {
            self.used_idx(n);
        }
        let vty = Ty::of(ty, size);
        let existing = if global {
            self.globals.get(name).cloned()
        } else {
            self.scopes.last().and_then(|s| s.get(name).cloned())
        };
        let var = match existing {
            Some(v) if v.ty == vty => v,
            Some(_) => {
                self.errors.push(error(
                    "E0813",
                    format!("`{name}` is declared again with another type"),
                    span,
                    "second declaration",
                    "use another name",
                ));
                return;
            }
            None => {
                let v = self.new_var(name, vty.clone(), None);
                if global {
                    self.globals.insert(name.to_string(), v.clone());
                } else if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(name.to_string(), v.clone());
                } else {
                    self.globals.insert(name.to_string(), v.clone());
                }
                v
            }
        };
        // Initialise by edges (so that loops re-run declarations as C does).
        match init {
            Some(Expr::Array(items, _)) => {
                let Ty::Array(inner, _) = &var.ty else { return };
                let inner = (**inner).clone();
                for (i, item) in items.iter().enumerate() {
                    if let Some(v) = self.value_of(item, &inner, at) {
                        let next = self.fresh();
                        self.edge(at, &next, &format!("{}[{}] = {}", var.rg, int_sym(i as i64), v));
                        *at = next;
                    }
                }
            }
            Some(e) => {
                if let Some(v) = self.value_of(e, &var.ty.clone(), at) {
                    let next = self.fresh();
                    self.edge(at, &next, &format!("{} = {}", var.rg, v));
                    *at = next;
                }
            }
            None if !global => {
                let next = self.fresh();
                let d = self.default_value(&var.ty);
                self.edge(at, &next, &format!("{} = {}", var.rg, d));
                *at = next;
            }
            None => {}
        }
    }

    fn used_idx(&mut self, n: usize) {
        let decl = format!("type Idx{n} = {{{}}};", (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(", "));
        if !self.declarations.contains(&decl) {
            self.declarations.insert(0, decl);
        }
    }

    /// Lowers an expression expected to have type `want`; reports a mismatch.
    fn value_of(&mut self, e: &Expr, want: &Ty, at: &mut String) -> Option<String> {
        let (v, ty) = self.value(e, at)?;
        if &ty != want {
            self.errors.push(error(
                "E0814",
                format!("expected a value of type {}, found {}", want.describe(), ty.describe()),
                e.span(),
                "wrong type",
                "convert the value or change the variable's type",
            ));
            return None;
        }
        Some(v)
    }

    fn value(&mut self, e: &Expr, at: &mut String) -> Option<(String, Ty)> {
        match e {
            Expr::Int(n, span) => {
                if !self.in_range(*n) {
                    self.errors.push(error(
                        "E0815",
                        format!("{n} is outside the numbers of this game"),
                        *span,
                        "out of range",
                        "raise `int_max` / lower `int_min` in <config>",
                    ));
                    return None;
                }
                Some((int_sym(*n), Ty::Int))
            }
            Expr::Bool(t, _) => Some(((*t as u8).to_string(), Ty::Bool)),
            Expr::None(_) => Some(("none".into(), Ty::Series)),
            Expr::Str(s, _) => Some((str_sym(s), Ty::Str)),
            Expr::Name(name, span) => match self.lookup(name) {
                Some(v) => Some((v.rg, v.ty)),
                None => {
                    self.errors.push(error(
                        "E0816",
                        format!("`{name}` is not declared"),
                        *span,
                        "unknown name",
                        "declare it in <var> or before its use",
                    ));
                    None
                }
            },
            Expr::Index(map, key, span) => {
                let (m, mty) = self.value(map, at)?;
                let Ty::Array(inner, _) = mty else {
                    self.errors.push(error(
                        "E0814",
                        "only arrays can be indexed",
                        *span,
                        "not an array",
                        "declare it as `int x[4];`",
                    ));
                    return None;
                };
                let k = self.value_of(key, &Ty::Int, at)?;
                Some((format!("{m}[{k}]"), *inner))
            }
            Expr::Unary("-", inner, span) => {
                if let Expr::Int(n, _) = **inner {
                    return self.value(&Expr::Int(-n, *span), at);
                }
                let v = self.value_of(inner, &Ty::Int, at)?;
                self.used_tables.insert("neg");
                Some((format!("neg[{v}]"), Ty::Int))
            }
            Expr::Binary(op @ ("+" | "-" | "*" | "/" | "%"), l, r, _) => {
                let l = self.value_of(l, &Ty::Int, at)?;
                let r = self.value_of(r, &Ty::Int, at)?;
                let table = match *op {
                    "+" => "add",
                    "-" => "sub",
                    "*" => "mul",
                    "/" => "div",
                    _ => "mod",
                };
                self.used_tables.insert(table);
                Some((format!("{table}[{l}][{r}]"), Ty::Int))
            }
            Expr::Unary(..) | Expr::Binary(..) => {
                // A condition used as a value: branch into a temporary.
                let t = self.new_var("cond", Ty::Bool, None);
                let (yes, no, join) = (self.fresh(), self.fresh(), self.fresh());
                self.cond(e, at, &yes, &no);
                self.edge(&yes, &join, &format!("{} = 1", t.rg));
                self.edge(&no, &join, &format!("{} = 0", t.rg));
                *at = join;
                Some((t.rg, Ty::Bool))
            }
            Expr::Call(name, args, span) => self.call(name, args, *span, at),
            Expr::Array(_, span) => {
                self.errors.push(error(
                    "E0814",
                    "an array literal can only initialise an array or be a bidding set",
                    *span,
                    "here",
                    "declare `int x[] = {1, 2};`",
                ));
                None
            }
            Expr::Size(_, span) | Expr::CardAt(_, _, span) => {
                self.errors.push(error(
                    "E0814",
                    "`$1` and `$2` exist only in comparators",
                    *span,
                    "outside a comparator",
                    "use them inside a <mode> class's braces",
                ));
                None
            }
        }
    }

    /// Branches from `at` to `yes` or `no`.
    fn cond(&mut self, e: &Expr, at: &mut String, yes: &str, no: &str) {
        match e {
            Expr::Bool(t, _) => {
                let target = if *t { yes } else { no };
                let from = at.clone();
                self.skip(&from, target);
            }
            Expr::Unary("!", inner, _) => self.cond(inner, at, no, yes),
            Expr::Binary("&&", l, r, _) => {
                let mut mid = self.fresh();
                self.cond(l, at, &mid.clone(), no);
                self.cond(r, &mut mid, yes, no);
            }
            Expr::Binary("||", l, r, _) => {
                let mut mid = self.fresh();
                self.cond(l, at, yes, &mid.clone());
                self.cond(r, &mut mid, yes, no);
            }
            Expr::Binary(op @ ("==" | "!="), l, r, span) => {
                let Some((lv, lt)) = self.value(l, at) else { return };
                let Some((rv, rt)) = self.value(r, at) else { return };
                if lt != rt {
                    self.errors.push(error(
                        "E0814",
                        format!("`{op}` compares a {} with a {}", lt.describe(), rt.describe()),
                        *span,
                        "different types",
                        "compare values of one type",
                    ));
                    return;
                }
                let (t, f) = if *op == "==" { (yes, no) } else { (no, yes) };
                let from = at.clone();
                self.edge(&from, t, &format!("{lv} == {rv}"));
                self.edge(&from, f, &format!("{lv} != {rv}"));
            }
            Expr::Binary(op @ ("<" | "<=" | ">" | ">="), l, r, _) => {
                let Some(lv) = self.value_of(l, &Ty::Int, at) else { return };
                let Some(rv) = self.value_of(r, &Ty::Int, at) else { return };
                let (table, a, b) = match *op {
                    "<" => ("lt", lv, rv),
                    "<=" => ("le", lv, rv),
                    ">" => ("lt", rv, lv),
                    _ => ("le", rv, lv),
                };
                self.used_tables.insert(table);
                let from = at.clone();
                self.edge(&from, yes, &format!("{table}[{a}][{b}] == 1"));
                self.edge(&from, no, &format!("{table}[{a}][{b}] == 0"));
            }
            Expr::Call(name, args, _)
                if name == "match"
                    && matches!(args.as_slice(), [_, Expr::Str(class, _)] if self.program.classes.iter().any(|c| &c.name == class)) =>
            {
                // A class test as a condition branches on the class directly (no temporary).
                let Some(s) = self.value_of(&args[0], &Ty::Series, at) else { return };
                let Expr::Str(class, _) = &args[1] else { return };
                self.class_tests = true;
                let from = at.clone();
                self.edge(&from, yes, &format!("classOf[{s}] == c_{class}"));
                self.edge(&from, no, &format!("classOf[{s}] != c_{class}"));
            }
            other => {
                let Some(v) = self.value_of(other, &Ty::Bool, at) else { return };
                let from = at.clone();
                self.edge(&from, yes, &format!("{v} == 1"));
                self.edge(&from, no, &format!("{v} == 0"));
            }
        }
    }

    /// Lowers statements from `at`; `None` when control cannot reach their end.
    pub fn stmts(&mut self, stmts: &[Stmt], at: String) -> Option<String> {
        let mut at = at;
        for s in stmts {
            at = self.stmt(s, at)?;
        }
        Some(at)
    }

    fn stmt(&mut self, s: &Stmt, at: String) -> Option<String> {
        let mut at = at;
        match s {
            Stmt::Decl { ty, name, size, init, span } => {
                self.declare(ty, name, *size, init.as_ref(), *span, &mut at);
                Some(at)
            }
            Stmt::Assign { target, value, span } => {
                let (lhs, ty) = match target {
                    Expr::Name(..) | Expr::Index(..) => self.value(target, &mut at)?,
                    _ => {
                        self.errors.push(error(
                            "E0814",
                            "only a variable or an array element can be assigned",
                            *span,
                            "not assignable",
                            "assign to `x` or `x[i]`",
                        ));
                        return Some(at);
                    }
                };
                let rhs = self.value_of(value, &ty, &mut at)?;
                let next = self.fresh();
                self.edge(&at, &next, &format!("{lhs} = {rhs}"));
                Some(next)
            }
            Stmt::If { cond, then, otherwise, .. } => {
                let (yes, no) = (self.fresh(), self.fresh());
                self.cond(cond, &mut at, &yes, &no);
                let join = self.fresh();
                let a = self.stmts(then, yes);
                let b = self.stmts(otherwise, no);
                if a.is_none() && b.is_none() {
                    return None;
                }
                for end in [a, b].into_iter().flatten() {
                    self.skip(&end, &join);
                }
                Some(join)
            }
            Stmt::While { cond, body, .. } => {
                let head = self.fresh();
                self.skip(&at, &head);
                let (yes, no) = (self.fresh(), self.fresh());
                let mut h = head.clone();
                self.cond(cond, &mut h, &yes, &no);
                self.breaks.push(no.clone());
                if let Some(end) = self.stmts(body, yes) {
                    self.skip(&end, &head);
                }
                self.breaks.pop();
                Some(no)
            }
            Stmt::For { init, cond, step, body, .. } => {
                let at = self.stmts(init, at)?;
                let head = self.fresh();
                self.skip(&at, &head);
                let (yes, no) = (self.fresh(), self.fresh());
                let mut h = head.clone();
                match cond {
                    Some(c) => self.cond(c, &mut h, &yes, &no),
                    None => self.skip(&h, &yes),
                }
                self.breaks.push(no.clone());
                if let Some(end) = self.stmts(body, yes) {
                    if let Some(end) = self.stmts(step, end) {
                        self.skip(&end, &head);
                    }
                }
                self.breaks.pop();
                Some(no)
            }
            Stmt::Switch { cases, .. } => {
                let join = self.fresh();
                let mut reached = false;
                let mut has_default = false;
                for (c, body) in cases {
                    let start = self.fresh();
                    match c {
                        Some(c) => {
                            let next = self.fresh();
                            self.cond(c, &mut at, &start, &next);
                            at = next;
                        }
                        None => {
                            self.skip(&at, &start);
                            has_default = true;
                        }
                    }
                    self.breaks.push(join.clone());
                    if let Some(end) = self.stmts(body, start) {
                        self.skip(&end, &join);
                        reached = true;
                    }
                    self.breaks.pop();
                    if has_default {
                        break;
                    }
                }
                if !has_default {
                    // No case taken.
                    self.skip(&at, &join);
                    reached = true;
                }
                reached.then_some(join)
            }
            Stmt::Return { value, span } => {
                let Some((target, var)) = self.returns.last().cloned() else {
                    self.errors.push(error(
                        "E0817",
                        "`return` outside a function",
                        *span,
                        "here",
                        "return only from <func> functions and comparators",
                    ));
                    return None;
                };
                match (value, var) {
                    (Some(e), Some(var)) => {
                        let v = self.value_of(e, &var.ty, &mut at)?;
                        self.edge(&at, &target, &format!("{} = {v}", var.rg));
                    }
                    (None, None) => self.skip(&at, &target),
                    (Some(e), None) => {
                        self.errors.push(error(
                            "E0814",
                            "a `void` function returns no value",
                            e.span(),
                            "value",
                            "drop the value or declare a return type",
                        ));
                    }
                    (None, Some(_)) => {
                        self.errors.push(error(
                            "E0814",
                            "this function must return a value",
                            *span,
                            "no value",
                            "write `return value;`",
                        ));
                    }
                }
                None
            }
            Stmt::Break(span) => {
                let Some(target) = self.breaks.last().cloned() else {
                    self.errors.push(error("E0817", "`break` outside a loop or switch", *span, "here", "remove it"));
                    return None;
                };
                self.skip(&at, &target);
                None
            }
            Stmt::Expr(e) => {
                match e {
                    Expr::Call(name, args, span) => {
                        self.call(name, args, *span, &mut at);
                    }
                    other => {
                        self.errors.push(error(
                            "E0814",
                            "this expression does nothing",
                            other.span(),
                            "no effect",
                            "assign it or call a function",
                        ));
                    }
                }
                Some(at)
            }
        }
    }

    fn call(&mut self, name: &str, args: &[Expr], span: Span, at: &mut String) -> Option<(String, Ty)> {
        let arity = |g: &mut Gen, n: usize| {
            if args.len() != n {
                g.errors.push(error(
                    "E0818",
                    format!("`{name}` takes {n} argument(s), not {}", args.len()),
                    span,
                    "wrong count",
                    "see the system calls in spec/cards.md",
                ));
                false
            } else {
                true
            }
        };
        match name {
            "begin" => {
                if !arity(self, 0) {
                    return None;
                }
                let next = self.fresh();
                self.edge(at, &next, "deck = fullDeck");
                let n2 = self.fresh();
                self.edge(&next, &n2, "hand = emptyHands");
                let n3 = self.fresh();
                self.edge(&n2, &n3, "ncards = startCounts");
                *at = n3;
                Some(("0".into(), Ty::Bool))
            }
            "get_cardsnum" | "get_cardnum" => {
                if !arity(self, 1) {
                    return None;
                }
                let p = self.value_of(&args[0], &Ty::Int, at)?;
                Some((format!("ncards[{p}]"), Ty::Int))
            }
            "deliver" => {
                if !arity(self, 4) && args.len() != 3 {
                    return None;
                }
                let from_deck = matches!(args[0], Expr::Int(0, _));
                let top = matches!(&args[2], Expr::Call(n, a, _) if (n == "top_card" || n == "topcard") && matches!(a.as_slice(), [Expr::Int(0, _)]));
                if !from_deck || !top {
                    self.errors.push(error(
                        "E0811",
                        "only `deliver(0, player, top_card(0), show)` (dealing from the deck) is supported",
                        span,
                        "unsupported form",
                        "deal from the deck; plays move cards through `play_card`",
                    ));
                    return None;
                }
                let to = self.value_of(&args[1], &Ty::Int, at)?;
                let show = match args.get(3) {
                    None | Some(Expr::Bool(false, _)) => false,
                    Some(Expr::Bool(true, _)) => true,
                    Some(other) => {
                        self.errors.push(error(
                            "E0811",
                            "`show` must be `true` or `false`",
                            other.span(),
                            "not a constant",
                            "write `true` (public) or `false` (only the receiver sees it)",
                        ));
                        return None;
                    }
                };
                self.deal(&to, show, at);
                Some(("1".into(), Ty::Bool))
            }
            "top_card" | "topcard" => {
                self.errors.push(error(
                    "E0811",
                    "`top_card` is only supported inside `deliver(0, p, top_card(0), show)`",
                    span,
                    "here",
                    "deal with `deliver`",
                ));
                None
            }
            "play_card" | "get_card" => {
                if !arity(self, 2) {
                    return None;
                }
                let p = self.value_of(&args[0], &Ty::Int, at)?;
                let last = self.value_of(&args[1], &Ty::Series, at)?;
                Some((self.play(&p, &last, at), Ty::Series))
            }
            "state_point" => {
                if !arity(self, 3) {
                    return None;
                }
                let p = self.value_of(&args[0], &Ty::Int, at)?;
                let Expr::Array(items, _) = &args[1] else {
                    self.errors.push(error(
                        "E0811",
                        "the set of `state_point` must be written out (`{1, 2, 3}`)",
                        args[1].span(),
                        "not a set literal",
                        "write the numbers the player may announce",
                    ));
                    return None;
                };
                let mut values = Vec::new();
                for item in items {
                    match item {
                        Expr::Int(n, s) if self.in_range(*n) && *n != 0 => values.push(*n),
                        other => {
                            self.errors.push(error(
                                "E0811",
                                "a bidding set holds non-zero numbers of the game",
                                other.span(),
                                "not a number here",
                                "0 stands for passing; allow it with `candrop`",
                            ));
                            return None;
                        }
                    }
                }
                let candrop = match &args[2] {
                    Expr::Bool(b, _) => *b,
                    other => {
                        self.errors.push(error(
                            "E0811",
                            "`candrop` must be `true` or `false`",
                            other.span(),
                            "not a constant",
                            "write `true` when the player may pass",
                        ));
                        return None;
                    }
                };
                Some((self.bid(&p, &values, candrop, at), Ty::Int))
            }
            "match" => {
                if !arity(self, 2) {
                    return None;
                }
                let s = self.value_of(&args[0], &Ty::Series, at)?;
                let Expr::Str(class, cspan) = &args[1] else {
                    self.errors.push(error(
                        "E0811",
                        "`match` takes a class name in quotes",
                        args[1].span(),
                        "not a string",
                        "write `match(play, \"bomb\")`",
                    ));
                    return None;
                };
                if !self.program.classes.iter().any(|c| &c.name == class) {
                    self.errors.push(error(
                        "E0808",
                        format!("no class named `{class}`"),
                        *cspan,
                        "unknown class",
                        "name a class of <mode>",
                    ));
                    return None;
                }
                self.class_tests = true;
                let t = self.new_var("match", Ty::Bool, None);
                let (yes, no, join) = (self.fresh(), self.fresh(), self.fresh());
                let from = at.clone();
                self.edge(&from, &yes, &format!("classOf[{s}] == c_{class}"));
                self.edge(&from, &no, &format!("classOf[{s}] != c_{class}"));
                self.edge(&yes, &join, &format!("{} = 1", t.rg));
                self.edge(&no, &join, &format!("{} = 0", t.rg));
                *at = join;
                Some((t.rg, Ty::Bool))
            }
            "compare" => {
                if args.len() != 2 && args.len() != 3 {
                    arity(self, 2);
                    return None;
                }
                let a = self.value_of(&args[0], &Ty::Series, at)?;
                let b = self.value_of(&args[1], &Ty::Series, at)?;
                match args.get(2) {
                    None => {
                        self.used_compare_lists.insert(String::new());
                        Some((format!("cmpModes[{a}][{b}]"), Ty::Int))
                    }
                    Some(Expr::Str(list, lspan)) => {
                        let Some(l) = self.program.lists.iter().find(|l| &l.name == list) else {
                            self.errors.push(error(
                                "E0808",
                                format!("no list named `{list}` in <card>"),
                                *lspan,
                                "unknown list",
                                "name a list of <card>",
                            ));
                            return None;
                        };
                        let globals = super::list_globals(l);
                        let mut access = format!("cmp_{list}");
                        for g in &globals {
                            let Some(v) = self.lookup(g) else {
                                self.errors.push(error(
                                    "E0816",
                                    format!("`%{g}%` names no variable"),
                                    *lspan,
                                    "in this list",
                                    "declare a `string` variable with that name",
                                ));
                                return None;
                            };
                            let _ = write!(access, "[{}]", v.rg);
                        }
                        self.used_compare_lists.insert(list.clone());
                        Some((format!("{access}[{a}][{b}]"), Ty::Int))
                    }
                    Some(other) => {
                        self.errors.push(error(
                            "E0811",
                            "the third argument of `compare` is a list name in quotes",
                            other.span(),
                            "not a string",
                            "write `compare(a, b, \"list\")`",
                        ));
                        None
                    }
                }
            }
            "add_score" => {
                if !arity(self, 2) {
                    return None;
                }
                let p = self.value_of(&args[0], &Ty::Int, at)?;
                let v = self.value_of(&args[1], &Ty::Int, at)?;
                self.used_tables.insert("add");
                let next = self.fresh();
                self.edge(at, &next, &format!("points[{p}] = add[points[{p}]][{v}]"));
                *at = next;
                Some(("0".into(), Ty::Bool))
            }
            "next_round" | "enable" | "disable" | "show_card" | "show_public" | "show_private" | "showmessage" => {
                // Turns are given by the calls that make players move; messages are not game state.
                Some(("0".into(), Ty::Bool))
            }
            "find" | "get_cards" => {
                self.errors.push(error(
                    "E0811",
                    format!("`{name}` is not supported by this translator"),
                    span,
                    "unsupported system call",
                    "express the condition with <mode> classes and `match`",
                ));
                None
            }
            _ => self.user_call(name, args, span, at),
        }
    }

    fn user_call(&mut self, name: &str, args: &[Expr], span: Span, at: &mut String) -> Option<(String, Ty)> {
        let program = self.program;
        let Some(function) = program.functions.iter().find(|f| f.name == name) else {
            self.errors.push(error(
                "E0816",
                format!("no function or system call named `{name}`"),
                span,
                "unknown",
                "define it in <func> or check the system call's name",
            ));
            return None;
        };
        if self.call_stack.iter().any(|n| n == name) {
            self.errors.push(error(
                "E0819",
                format!("`{name}` calls itself"),
                span,
                "recursive call",
                "functions are inlined into the automaton: write a loop instead",
            ));
            return None;
        }
        if args.len() != function.params.len() {
            self.errors.push(error(
                "E0818",
                format!("`{name}` takes {} argument(s), not {}", function.params.len(), args.len()),
                span,
                "wrong count",
                "pass one value per parameter",
            ));
            return None;
        }
        let (params, ret) = self.function_storage(function);
        let mut values = Vec::new();
        for (arg, p) in args.iter().zip(&params) {
            values.push(self.value_of(arg, &p.ty, at)?);
        }
        for (v, p) in values.iter().zip(&params) {
            let next = self.fresh();
            self.edge(at, &next, &format!("{} = {v}", p.rg));
            *at = next;
        }
        let exit = self.fresh();
        let mut scope = HashMap::new();
        for ((_, pname, _), p) in function.params.iter().zip(&params) {
            scope.insert(pname.clone(), p.clone());
        }
        let saved_breaks = std::mem::take(&mut self.breaks);
        self.scopes.push(scope);
        self.call_stack.push(name.to_string());
        self.returns.push((exit.clone(), ret.clone()));
        let end = self.stmts(&function.body, at.clone());
        self.returns.pop();
        self.call_stack.pop();
        self.scopes.pop();
        self.breaks = saved_breaks;
        if let Some(end) = end {
            if ret.is_some() {
                self.errors.push(error(
                    "E0814",
                    format!("`{name}` can end without returning a value"),
                    function.span,
                    "missing return",
                    "end every path with `return value;`",
                ));
            }
            self.skip(&end, &exit);
        }
        *at = exit;
        match ret {
            Some(r) => {
                // Copy out, so that a second call in the same expression keeps this value.
                let copy = self.new_var(&format!("{name}_result"), r.ty.clone(), None);
                let next = self.fresh();
                self.edge(at, &next, &format!("{} = {}", copy.rg, r.rg));
                *at = next;
                Some((copy.rg, copy.ty))
            }
            None => Some(("0".into(), Ty::Bool)),
        }
    }

    fn function_storage(&mut self, function: &Function) -> (Vec<Var>, Option<Var>) {
        if let Some(s) = self.function_vars.get(&function.name) {
            return s.clone();
        }
        let params: Vec<Var> = function
            .params
            .iter()
            .map(|(ty, n, _)| self.new_var(&format!("{}_{n}", function.name), Ty::of(ty, None), None))
            .collect();
        let ret = function.ret.as_ref().map(|t| self.new_var(&format!("{}_ret", function.name), Ty::of(t, None), None));
        self.function_vars.insert(function.name.clone(), (params.clone(), ret.clone()));
        (params, ret)
    }

    /// A shuffled deal of the deck's top card: `random` picks one of the cards left; only the
    /// receiver sees which unless `show`.
    fn deal(&mut self, to: &str, show: bool, at: &mut String) {
        self.used_tables.insert("add");
        self.used_tables.insert("sub");
        let steps: Vec<String> = vec![
            if show { "visible = everyone".into() } else { format!("visible = onlyPlayer[{to}]") },
            "player = random".into(),
            "drawn = Card(*)".into(),
            "deck[drawn] == 1".into(),
            "$$ drawn".into(),
            // The random move ends at its tag: the bookkeeping below runs once, as the keeper's,
            // instead of on every one of the up to 54 paths the chance search lists.
            "player = keeper".into(),
            "deck[drawn] = 0".into(),
            format!("hand[{to}][kindOf[drawn]] = inc[hand[{to}][kindOf[drawn]]]"),
            "ncards[0] = sub[ncards[0]][1]".into(),
            format!("ncards[{to}] = add[ncards[{to}]][1]"),
            "drawn = firstCard".into(),
            "visible = everyone".into(),
        ];
        for label in steps {
            let next = self.fresh();
            self.edge(at, &next, &label);
            *at = next;
        }
    }

    /// `state_point`: the player announces one of `values`, or passes (0) when allowed.
    fn bid(&mut self, player: &str, values: &[i64], candrop: bool, at: &mut String) -> String {
        let result = self.new_var("bid", Ty::Int, None);
        let choose = self.fresh();
        self.edge(at, &choose, &format!("player = {player}"));
        let chosen = self.fresh();
        for &v in values {
            let tagged = self.fresh();
            // A tag is an identifier: `bid2`, and `bidm2` for -2.
            let tag = if v < 0 { format!("bidm{}", -v) } else { format!("bid{v}") };
            self.edge(&choose, &tagged, &format!("$ {tag}"));
            self.edge(&tagged, &chosen, &format!("{} = {}", result.rg, int_sym(v)));
        }
        if candrop {
            let tagged = self.fresh();
            self.edge(&choose, &tagged, "$ pass");
            self.edge(&tagged, &chosen, &format!("{} = 0", result.rg));
        }
        let done = self.fresh();
        self.edge(&chosen, &done, "player = keeper");
        *at = done;
        result.rg
    }

    /// `play_card`: the player passes (when `last` is not NONE) or plays a series that beats it.
    ///
    /// The search is laid out so that the interpreter fails whole subtrees early: one guard per
    /// class (`open_<class>[last]`: can any series of the class beat `last`?), then the class's
    /// multisets as a prefix tree of (kind, count) steps, big groups first (a trio's rank before
    /// its kicker), each step a test of the hand's count. Where the steps taken so far fix the
    /// signature (class, size, ranks the comparator reads), one `legal[sig][last]` test cuts the
    /// subtree, and the result and card count are set; the subtrees below (kickers) no longer
    /// depend on the signature and are shared between signatures and classes.
    fn play(&mut self, player: &str, last: &str, at: &mut String) -> String {
        self.play_sites += 1;
        self.used_tables.insert("sub");
        let site = self.play_sites;
        let who = self.new_var(&format!("player{site}"), Ty::Int, None);
        let prev = self.new_var(&format!("last{site}"), Ty::Series, None);
        let result = self.new_var(&format!("play{site}"), Ty::Series, None);
        let n1 = self.fresh();
        self.edge(at, &n1, &format!("{} = {player}", who.rg));
        let n2 = self.fresh();
        self.edge(&n1, &n2, &format!("{} = {last}", prev.rg));
        let choose = self.fresh();
        self.edge(&n2, &choose, &format!("player = {}", who.rg));
        let chosen = self.fresh();
        // Pass.
        let can_pass = self.fresh();
        self.edge(&choose, &can_pass, &format!("{} != none", prev.rg));
        let passed = self.fresh();
        self.edge(&can_pass, &passed, "$ pass");
        self.edge(&passed, &chosen, &format!("{} = none", result.rg));
        let tables = self.tables;
        let names =
            PlayNames { who: who.rg.clone(), prev: prev.rg.clone(), result: result.rg.clone(), done: chosen.clone() };
        let mut shared: HashMap<String, String> = HashMap::new();
        for (c, class) in self.program.classes.iter().enumerate() {
            let mut tree = Trie::default();
            for (s, sig) in tables.signatures.iter().enumerate().filter(|(_, sig)| sig.class == c) {
                for multiset in &sig.multisets {
                    tree.insert(multiset, s);
                }
            }
            if tree.signatures.is_empty() {
                continue;
            }
            let first = self.emit_trie(&tree, false, &names, &mut shared);
            let root = self.fresh();
            self.edge(&root, &first, &format!("$ {}", class.name));
            // Beating NONE is always legal; a class no `last` can stop needs no guard.
            let closed = tables.legal[0].len();
            let open: Vec<bool> = (0..closed).map(|j| tree.signatures.iter().any(|&s| tables.legal[s][j])).collect();
            if open.iter().all(|&o| o) {
                self.skip(&choose, &root);
            } else {
                self.open_tables.push((class.name.clone(), open));
                self.edge(&choose, &root, &format!("open_{}[{}] == 1", class.name, prev.rg));
            }
        }
        // The card count is updated once, by the keeper, from the series played (0 for a pass).
        let (moved, done) = (self.fresh(), self.fresh());
        self.edge(&chosen, &moved, "player = keeper");
        self.edge(&moved, &done, &format!("ncards[{w}] = sub[ncards[{w}]][seriesSize[{}]]", result.rg, w = who.rg));
        self.series_sizes = true;
        *at = done;
        result.rg
    }

    /// Emits a (sub)tree of (kind, count) steps; returns its entry node. `fixed`: the path to it
    /// has already set the signature. Equal subtrees are emitted once (hash-consing on their text).
    fn emit_trie(
        &mut self,
        tree: &Trie,
        fixed: bool,
        names: &PlayNames,
        shared: &mut HashMap<String, String>,
    ) -> String {
        if !fixed && tree.signatures.len() == 1 {
            // The signature is fixed here: test it against `last`, then record it.
            let sig = &self.tables.signatures[*tree.signatures.iter().next().expect("one signature")];
            let body = self.emit_trie(tree, true, names, shared);
            let key = format!("sig {} -> {body}", sig.name);
            if let Some(node) = shared.get(&key) {
                return node.clone();
            }
            let (entry, legal) = (self.fresh(), self.fresh());
            self.edge(&entry, &legal, &format!("legal[{}][{}] == 1", sig.name, names.prev));
            self.edge(&legal, &body, &format!("{} = {}", names.result, sig.name));
            shared.insert(key, entry.clone());
            return entry;
        }
        if tree.children.is_empty() {
            return names.done.clone();
        }
        let mut branches = Vec::new();
        for (step, child) in &tree.children {
            let entry = self.emit_trie(child, fixed, names, shared);
            branches.push((*step, entry));
        }
        let leaf = tree.leaf.map(|s| {
            if fixed {
                names.done.clone()
            } else {
                // The multiset ending here alone: its signature block, then the end of the move.
                let only = Trie { leaf: Some(s), signatures: BTreeSet::from([s]), children: BTreeMap::new() };
                self.emit_trie(&only, false, names, shared)
            }
        });
        let key = format!("{branches:?} {leaf:?}");
        if let Some(node) = shared.get(&key) {
            return node.clone();
        }
        let node = self.fresh();
        if let Some(leaf) = leaf {
            self.skip(&node, &leaf);
        }
        for ((kind, count), child) in &branches {
            let k = self.deck.kinds[*kind].name.clone();
            let cell = format!("hand[{}][{k}]", names.who);
            // The step's take-and-tag tail is shared by every node with the same step into the
            // same subtree (what the optimiser's suffix joining would find, without its search).
            let step_key = format!("step {kind} {count} -> {child}");
            let g = match shared.get(&step_key) {
                Some(g) => g.clone(),
                None => {
                    let (g, a) = (self.fresh(), self.fresh());
                    self.edge(&g, &a, &format!("{cell} = take[{cell}][{count}]"));
                    self.edge(&a, child, &format!("$ {}", k.repeat(*count as usize)));
                    shared.insert(step_key, g.clone());
                    g
                }
            };
            self.edge(&node, &g, &format!("take[{cell}][{count}] != x"));
        }
        shared.insert(key, node.clone());
        node
    }

    /// The whole RG text.
    pub fn finish(mut self, body_end: Option<String>) -> String {
        let cfg = self.cfg().clone();
        if let Some(end) = body_end {
            // Scores are the points (`Score` is `Int`, negative numerals included).
            let mut at = end;
            for p in 1..=cfg.players {
                let next = self.fresh();
                self.edge(&at, &next, &format!("goals[{p}] = points[{p}]"));
                at = next;
            }
            self.edge(&at, "end", "player = keeper");
        }
        let mut out = String::new();
        let _ = writeln!(out, "// Generated from a card program by regula's `.cards` translator (spec/cards.md).");
        let players: Vec<String> = (1..=cfg.players).map(|p| p.to_string()).collect();
        let _ = writeln!(out, "type Player = {{{}}};", players.join(", "));
        let ints: Vec<String> = (cfg.int_min..=cfg.int_max).map(int_sym).collect();
        let _ = writeln!(out, "type Int = {{{}}};", ints.join(", "));
        let _ = writeln!(out, "type Score = Int;");
        let pids: Vec<String> = (0..=cfg.players).map(|p| p.to_string()).collect();
        let _ = writeln!(out, "type Pid = {{{}}};", pids.join(", "));
        let deck = self.deck;
        let max_copies = deck.kinds.iter().map(|k| k.copies).max().unwrap_or(1);
        let counts: Vec<String> = (0..=max_copies).map(|c| c.to_string()).collect();
        let _ = writeln!(out, "type Count = {{{}}};", counts.join(", "));
        let _ = writeln!(out, "type CountOrNot = {{{}, x}};", counts.join(", "));
        let kinds: Vec<&str> = deck.kinds.iter().map(|k| k.name.as_str()).collect();
        let _ = writeln!(out, "type Kind = {{{}}};", kinds.join(", "));
        let cards: Vec<String> = (0..deck.cards.len()).map(|i| deck.card_name(i)).collect();
        let _ = writeln!(out, "type Card = {{{}}};", cards.join(", "));
        let sigs: Vec<&str> = self.tables.signatures.iter().map(|s| s.name.as_str()).collect();
        let _ = writeln!(out, "type Series = {{none{}{}}};", if sigs.is_empty() { "" } else { ", " }, sigs.join(", "));
        let strings: Vec<String> = self.strings.iter().map(|s| str_sym(s)).collect();
        let _ = writeln!(out, "type Str = {{{}}};", strings.join(", "));
        for d in self.declarations.iter().filter(|d| d.starts_with("type ")) {
            let _ = writeln!(out, "{d}");
        }
        if self.class_tests {
            let names: Vec<String> = self.program.classes.iter().map(|c| format!("c_{}", c.name)).collect();
            let _ = writeln!(out, "type ClassName = {{c_none, {}}};", names.join(", "));
            let entries: Vec<String> = self
                .tables
                .signatures
                .iter()
                .map(|s| format!("{}: c_{}", s.name, self.program.classes[s.class].name))
                .collect();
            let _ = writeln!(out, "const classOf: Series -> ClassName = {{{}, :c_none}};", entries.join(", "));
        }
        // Arithmetic tables, clamped to the number range.
        let clamp = |n: i64| n.clamp(cfg.int_min, cfg.int_max);
        for table in &self.used_tables {
            let f: Box<dyn Fn(i64, i64) -> Option<String>> = match *table {
                "add" => Box::new(|a, b| Some(int_sym(clamp(a + b)))),
                "sub" => Box::new(|a, b| Some(int_sym(clamp(a - b)))),
                "mul" => Box::new(|a, b| Some(int_sym(clamp(a * b)))),
                "div" => Box::new(|a, b| (b != 0).then(|| int_sym(clamp(a / b)))),
                "mod" => Box::new(|a, b| (b != 0).then(|| int_sym(clamp(a % b)))),
                "lt" => Box::new(|a, b| Some(((a < b) as u8).to_string())),
                "le" => Box::new(|a, b| Some(((a <= b) as u8).to_string())),
                _ => {
                    let entries: Vec<String> = (cfg.int_min..=cfg.int_max)
                        .map(|a| format!("{}: {}", int_sym(a), int_sym(clamp(-a))))
                        .collect();
                    let _ = writeln!(out, "const neg: Int -> Int = {{{}, :0}};", entries.join(", "));
                    continue;
                }
            };
            let ty = if *table == "lt" || *table == "le" { "Bool" } else { "Int" };
            let _ = write!(out, "const {table}: Int -> Int -> {ty} = {{");
            for a in cfg.int_min..=cfg.int_max {
                let mut row = Vec::new();
                for b in cfg.int_min..=cfg.int_max {
                    if let Some(v) = f(a, b) {
                        if v != "0" {
                            row.push(format!("{}: {v}", int_sym(b)));
                        }
                    }
                }
                row.push(":0".into());
                let _ = write!(out, "{}: {{{}}}, ", int_sym(a), row.join(", "));
            }
            let _ = writeln!(out, ":{{:0}}}};");
        }
        // Deck and hands.
        let kind_of: Vec<String> = (0..deck.cards.len())
            .map(|i| format!("{}: {}", deck.card_name(i), deck.kinds[deck.card_kind[i]].name))
            .collect();
        let _ = writeln!(out, "const kindOf: Card -> Kind = {{{}, :{}}};", kind_of.join(", "), deck.kinds[0].name);
        let inc: Vec<String> = (0..max_copies).map(|c| format!("{c}: {}", c + 1)).collect();
        let _ = writeln!(out, "const inc: Count -> Count = {{{}, :{max_copies}}};", inc.join(", "));
        let mut take = Vec::new();
        for h in 0..=max_copies {
            let row: Vec<String> = (0..=h).map(|c| format!("{c}: {}", h - c)).collect();
            take.push(format!("{h}: {{{}, :x}}", row.join(", ")));
        }
        let _ = writeln!(out, "const take: Count -> Count -> CountOrNot = {{{}, :{{:x}}}};", take.join(", "));
        let _ = writeln!(out, "const everyone: Player -> Bool = {{:1}};");
        let only: Vec<String> = (1..=cfg.players).map(|p| format!("{p}: {{{p}: 1, :0}}")).collect();
        let _ = writeln!(out, "const onlyPlayer: Pid -> Player -> Bool = {{{}, :{{:1}}}};", only.join(", "));
        let _ = writeln!(out, "const fullDeck: Card -> Bool = {{:1}};");
        let _ = writeln!(out, "const emptyHands: Pid -> Kind -> Count = {{:{{:0}}}};");
        let total = deck.cards.len() as i64;
        let _ = writeln!(out, "const startCounts: Pid -> Int = {{0: {}, :0}};", int_sym(total.min(cfg.int_max)));
        // Plays: legality and comparisons on signatures.
        let n = self.tables.signatures.len();
        if n > 0 {
            let _ = write!(out, "const legal: Series -> Series -> Bool = {{");
            for (i, sig) in self.tables.signatures.iter().enumerate() {
                let row: Vec<&str> = (0..n)
                    .filter(|&j| self.tables.legal[i][j])
                    .map(|j| self.tables.signatures[j].name.as_str())
                    .collect();
                let mut parts: Vec<String> = vec!["none: 1".into()];
                parts.extend(row.iter().map(|r| format!("{r}: 1")));
                parts.push(":0".into());
                let _ = write!(out, "{}: {{{}}}, ", sig.name, parts.join(", "));
            }
            let _ = writeln!(out, ":{{:0}}}};");
        }
        if self.series_sizes {
            let sizes: Vec<String> = self
                .tables
                .signatures
                .iter()
                .map(|s| format!("{}: {}", s.name, int_sym((s.size as i64).min(cfg.int_max))))
                .collect();
            let _ = writeln!(
                out,
                "const seriesSize: Series -> Int = {{{}{}:0}};",
                sizes.join(", "),
                if sizes.is_empty() { "" } else { ", " }
            );
        }
        let mut written = BTreeSet::new();
        for (class, open) in &self.open_tables {
            if !written.insert(class.clone()) {
                continue;
            }
            let mut parts: Vec<String> = Vec::new();
            if open[n] {
                parts.push("none: 1".into());
            }
            parts.extend((0..n).filter(|&j| open[j]).map(|j| format!("{}: 1", self.tables.signatures[j].name)));
            parts.push(":0".into());
            let _ = writeln!(out, "const open_{class}: Series -> Bool = {{{}}};", parts.join(", "));
        }
        for list in self.used_compare_lists.clone() {
            out.push_str(&self.compare_table(&list));
        }
        let _ = writeln!(out, "var deck: Card -> Bool = {{:1}};");
        let _ = writeln!(out, "var hand: Pid -> Kind -> Count = {{:{{:0}}}};");
        let _ = writeln!(out, "var ncards: Pid -> Int = startCounts;");
        let _ = writeln!(out, "var drawn: Card = {};", deck.card_name(0));
        let _ = writeln!(out, "const firstCard: Card = {};", deck.card_name(0));
        let _ = writeln!(out, "var points: Player -> Int = {{:0}};");
        for d in self.declarations.iter().filter(|d| !d.starts_with("type ")) {
            let _ = writeln!(out, "{d}");
        }
        out.push_str(&self.out_edges);
        out
    }

    /// `cmpModes` (the mode rules) or `cmp_<list>` (a list, indexed first by its globals).
    fn compare_table(&self, list: &str) -> String {
        let sigs = &self.tables.signatures;
        let mut out = String::new();
        if list.is_empty() {
            let _ = write!(out, "const cmpModes: Series -> Series -> Int = {{");
            for (i, a) in sigs.iter().enumerate() {
                let row: Vec<String> = sigs
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| self.tables.compare[i][*j] != 0)
                    .map(|(j, b)| format!("{}: {}", b.name, int_sym(self.tables.compare[i][j] as i64)))
                    .collect();
                let _ = write!(out, "{}: {{{}{}:0}}, ", a.name, row.join(", "), if row.is_empty() { "" } else { ", " });
            }
            let _ = writeln!(out, ":{{:0}}}};");
            return out;
        }
        let Some(l) = self.program.lists.iter().find(|l| l.name == list) else { return out };
        let globals = super::list_globals(l);
        let domain: Vec<String> = self.strings.iter().filter(|s| s.chars().count() == 1).cloned().collect();
        let mut ty = String::from("Series -> Series -> Int");
        for _ in &globals {
            ty = format!("Str -> {ty}");
        }
        fn level(
            gen: &Gen,
            l: &super::classes::CardList,
            globals: &[String],
            domain: &[String],
            bound: &mut HashMap<String, char>,
            depth: usize,
        ) -> String {
            if depth == globals.len() {
                let sigs = &gen.tables.signatures;
                let mut s = String::from("{");
                for a in sigs {
                    let row: Vec<String> = sigs
                        .iter()
                        .filter_map(|b| {
                            let r = super::classes::compare_cards(l, gen.deck, a.first, b.first, bound);
                            (r != 0).then(|| format!("{}: {}", b.name, int_sym(r as i64)))
                        })
                        .collect();
                    let _ =
                        write!(s, "{}: {{{}{}:0}}, ", a.name, row.join(", "), if row.is_empty() { "" } else { ", " });
                }
                s.push_str(":{:0}}");
                return s;
            }
            let mut s = String::from("{");
            for value in domain {
                let c = value.chars().next().unwrap_or(' ');
                bound.insert(globals[depth].clone(), c);
                let inner = level(gen, l, globals, domain, bound, depth + 1);
                let _ = write!(s, "{}: {inner}, ", str_sym(value));
            }
            bound.remove(&globals[depth]);
            let inner = level(gen, l, globals, domain, bound, depth + 1);
            let _ = write!(s, ":{inner}}}");
            s
        }
        let mut bound = HashMap::new();
        let body = level(self, l, &globals, &domain, &mut bound, 0);
        let _ = writeln!(out, "const cmp_{list}: {ty} = {body};");
        out
    }

    pub fn declare_globals(&mut self, globals: &[Stmt]) {
        let mut at = String::from("begin");
        for g in globals {
            match g {
                Stmt::Decl { ty, name, size, init, span } => {
                    // Global initial values must be constants; they go into the declaration.
                    let size = size.map(|n| n.max(1) as usize).or(match init {
                        Some(Expr::Array(items, _)) => Some(items.len().max(1)),
                        _ => None,
                    });
                    if let Some(n) = size {
                        self.used_idx(n);
                    }
                    let vty = Ty::of(ty, size);
                    let init_text = match init {
                        None => None,
                        Some(e) => match self.constant(e, &vty) {
                            Some(v) => Some(v),
                            None => {
                                self.errors.push(error(
                                    "E0820",
                                    "a global's initial value must be a constant",
                                    e.span(),
                                    "not a constant",
                                    "assign it at the start of <body> instead",
                                ));
                                None
                            }
                        },
                    };
                    if self.globals.contains_key(name) {
                        self.errors.push(error(
                            "E0813",
                            format!("`{name}` is declared twice"),
                            *span,
                            "second declaration",
                            "use another name",
                        ));
                        continue;
                    }
                    let v = self.new_var(name, vty, init_text);
                    self.globals.insert(name.clone(), v);
                }
                Stmt::If { then, .. } => self.declare_globals(then),
                other => {
                    self.errors.push(error(
                        "E0820",
                        "<var> holds only declarations",
                        stmt_span(other),
                        "not a declaration",
                        "move statements to <body>",
                    ));
                }
            }
        }
        let _ = &mut at;
    }

    fn constant(&self, e: &Expr, ty: &Ty) -> Option<String> {
        match (e, ty) {
            (Expr::Int(n, _), Ty::Int) if self.in_range(*n) => Some(int_sym(*n)),
            (Expr::Unary("-", inner, _), Ty::Int) => match **inner {
                Expr::Int(n, _) if self.in_range(-n) => Some(int_sym(-n)),
                _ => None,
            },
            (Expr::Bool(b, _), Ty::Bool) => Some((*b as u8).to_string()),
            (Expr::None(_), Ty::Series) => Some("none".into()),
            (Expr::Str(s, _), Ty::Str) => Some(str_sym(s)),
            (Expr::Array(items, _), Ty::Array(inner, _)) => {
                let mut parts = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    parts.push(format!("{}: {}", i, self.constant(item, inner)?));
                }
                parts.push(format!(":{}", self.default_value(inner)));
                Some(format!("{{{}}}", parts.join(", ")))
            }
            _ => None,
        }
    }
}

/// A prefix tree of (kind, count) steps; `leaf` is the signature of the multiset ending here and
/// `signatures` those of every multiset in the subtree.
#[derive(Default)]
struct Trie {
    leaf: Option<usize>,
    signatures: BTreeSet<usize>,
    children: BTreeMap<(usize, u8), Trie>,
}

impl Trie {
    fn insert(&mut self, steps: &[(usize, u8)], signature: usize) {
        self.signatures.insert(signature);
        match steps.split_first() {
            None => self.leaf = Some(signature),
            Some((step, rest)) => self.children.entry(*step).or_default().insert(rest, signature),
        }
    }
}

/// The variables and the exit node of one `play_card` site.
struct PlayNames {
    who: String,
    prev: String,
    result: String,
    done: String,
}

fn collect_strings(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    fn expr(e: &Expr, out: &mut BTreeSet<String>) {
        match e {
            Expr::Str(s, _) => {
                out.insert(s.clone());
            }
            Expr::Index(a, b, _) | Expr::Binary(_, a, b, _) => {
                expr(a, out);
                expr(b, out);
            }
            Expr::Unary(_, a, _) => expr(a, out),
            Expr::Call(name, args, _) => {
                // Class and list names are not string values.
                let keep = match name.as_str() {
                    "match" => 1,
                    "compare" => 2,
                    _ => args.len(),
                };
                args.iter().take(keep).for_each(|a| expr(a, out));
            }
            Expr::Array(args, _) => args.iter().for_each(|a| expr(a, out)),
            _ => {}
        }
    }
    for s in stmts {
        match s {
            Stmt::Decl { init: Some(e), .. } | Stmt::Return { value: Some(e), .. } | Stmt::Expr(e) => expr(e, out),
            Stmt::Assign { value, .. } => expr(value, out),
            Stmt::If { cond, then, otherwise, .. } => {
                expr(cond, out);
                collect_strings(then, out);
                collect_strings(otherwise, out);
            }
            Stmt::While { cond, body, .. } => {
                expr(cond, out);
                collect_strings(body, out);
            }
            Stmt::For { init, cond, step, body, .. } => {
                if let Some(c) = cond {
                    expr(c, out);
                }
                collect_strings(init, out);
                collect_strings(step, out);
                collect_strings(body, out);
            }
            Stmt::Switch { cases, .. } => {
                for (c, b) in cases {
                    if let Some(c) = c {
                        expr(c, out);
                    }
                    collect_strings(b, out);
                }
            }
            _ => {}
        }
    }
}

//! Lowering of checked HRG to the RG syntax tree: domains become typedefs, functions tabulated
//! constants, variables vars, and graphs automaton edges. Name and type errors in graph bodies
//! are found here, while walking the statements (codes E04xx, W04xx).

use super::ast::*;
use super::eval::{is_variable, suggest, Env, Term, Ty, World};
use crate::diagnostics::Diagnostic;
use crate::rg::ast as rg;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Where `end()` leads: the game's `end` node, or the target of a reachability check.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mode {
    Main,
    Reach(String),
}

/// What a graph parameter or a `branch v in T` variable stands for.
#[derive(Clone, Debug)]
enum Bound {
    /// A compile-time constant, substituted.
    Const(Term),
    /// A generated variable holding the argument.
    Var(String, Ty),
}

struct Frame {
    graph: String,
    prefix: String,
    subst: HashMap<String, Bound>,
    /// The node `return()` jumps to, created on first use.
    ret: Option<String>,
    /// (continue target, break target) of the enclosing loops.
    loops: Vec<(String, String)>,
    mode: Mode,
}

#[derive(Clone)]
struct Reusable {
    begin: String,
    end: String,
    return_var: String,
    return_type: String,
    call_ids: Vec<String>,
    span: Span,
}

#[derive(Clone, Default)]
struct Snapshot {
    edges: usize,
    nodes: HashSet<String>,
    counters: HashMap<String, usize>,
    hoisted: Vec<(String, TypeRef, Ty)>,
    reusable: HashMap<String, Reusable>,
    reusable_order: Vec<String>,
    reach_cache: HashMap<String, (String, String)>,
    artificial: BTreeSet<String>,
}

struct Lowering<'w> {
    world: &'w World,
    edges: Vec<rg::Decl>,
    nodes: HashSet<String>,
    counters: HashMap<String, usize>,
    hoisted: Vec<(String, TypeRef, Ty)>,
    reusable: HashMap<String, Reusable>,
    reusable_order: Vec<String>,
    reach_cache: HashMap<String, (String, String)>,
    artificial: BTreeSet<String>,
    used: HashSet<String>,
    may_end: HashMap<String, bool>,
    stack: Vec<String>,
}

const BUILTIN_STATEMENTS: &[&str] = &["check", "end", "return", "break", "continue"];
const CONDITION_BUILTINS: &[&str] = &["not", "reachable", "true", "false"];

/// Lowers a parsed program to an RG game. Returns the game and its warnings, or every error.
pub fn lower(program: &Program) -> Result<(rg::Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    let world = World::build(program);
    let mut decls: Vec<rg::Decl> = Vec::new();
    for required in ["Player", "Score"] {
        if world.lookup_type(required).is_none() || world.domain_index.get(required).is_none() {
            world.report(
                Diagnostic::error(
                    "E0417",
                    format!("the program does not declare `domain {required}`"),
                    Span::new(0, 0),
                )
                .label("missing declaration")
                .with_help(format!(
                    "every game declares its players and scores, e.g. `domain {required} = {}`",
                    if required == "Player" { "x | o" } else { "0 | 50 | 100" }
                )),
            );
        }
    }
    for domain in &world.domains {
        let Ty::Set(set) = &domain.ty else { continue };
        let members =
            set.members.iter().filter_map(Term::render).map(|m| rg::Ident::new(m, domain.decl.span)).collect();
        decls.push(rg::Decl::Type(rg::Typedef {
            name: domain.decl.name.clone(),
            ty: rg::TypeExpr::Set { members, span: domain.decl.span },
            span: domain.decl.span,
        }));
        if let Some((offset, symbols)) = &domain.integer {
            let mut tokens = vec![offset.to_string(), ":".to_string()];
            tokens.extend(symbols.iter().cloned());
            decls.push(rg::Decl::Pragma(rg::Pragma {
                name: rg::Ident::new("integer", domain.decl.span),
                tokens,
                span: domain.decl.span,
            }));
        }
    }
    for name in &world.function_order {
        let function = &world.functions[name];
        if function.cases.is_empty() {
            continue;
        }
        let what = format!("function `{name}`");
        if let Some(value) =
            world.to_value(&Term::Func(name.clone(), Vec::new()), &function.ty, function.name.span, &what)
        {
            decls.push(rg::Decl::Const(rg::Constant {
                name: function.name.clone(),
                ty: type_expr(&function.signature),
                value,
                span: function.span,
            }));
        }
    }
    for variable in &world.variables {
        let decl = &variable.decl;
        let value = match &decl.init {
            Some(init) => {
                let what = format!("initial value of `{}`", decl.name.name);
                match world.eval(init, &Env::new(), Some(&variable.ty)) {
                    Ok(term) => world.to_value(&term, &variable.ty, init.span(), &what),
                    Err(super::eval::EvalError::Error(d)) => {
                        world.report(d);
                        None
                    }
                    Err(super::eval::EvalError::NoMatch(message)) => {
                        world.report(Diagnostic::error("E0407", message, init.span()).label(what));
                        None
                    }
                }
            }
            None => variable.ty.default_value(),
        };
        if let Some(value) = value {
            decls.push(rg::Decl::Var(rg::Variable {
                name: decl.name.clone(),
                ty: type_expr(&decl.ty),
                value,
                span: decl.span,
            }));
        }
    }

    let mut lowering = Lowering {
        world: &world,
        edges: Vec::new(),
        nodes: ["begin", "end", "rules_begin", "rules_end"].iter().map(|s| s.to_string()).collect(),
        counters: HashMap::new(),
        hoisted: Vec::new(),
        reusable: HashMap::new(),
        reusable_order: Vec::new(),
        reach_cache: HashMap::new(),
        artificial: BTreeSet::new(),
        used: HashSet::new(),
        may_end: HashMap::new(),
        stack: Vec::new(),
    };
    lowering.lower_rules();
    lowering.check_unused_graphs();

    for (name, ty_ref, ty) in &lowering.hoisted {
        if let Some(value) = ty.default_value() {
            decls.push(rg::Decl::Var(rg::Variable {
                name: rg::Ident::synthetic(name.clone()),
                ty: type_expr(ty_ref),
                value,
                span: ty_ref.span(),
            }));
        }
    }
    for key in &lowering.reusable_order {
        let reusable = &lowering.reusable[key];
        let members = reusable.call_ids.iter().map(|id| rg::Ident::new(id.clone(), reusable.span)).collect::<Vec<_>>();
        let Some(first) = members.first().cloned() else {
            continue;
        };
        decls.push(rg::Decl::Type(rg::Typedef {
            name: rg::Ident::new(reusable.return_type.clone(), reusable.span),
            ty: rg::TypeExpr::Set { members, span: reusable.span },
            span: reusable.span,
        }));
        decls.push(rg::Decl::Var(rg::Variable {
            name: rg::Ident::new(reusable.return_var.clone(), reusable.span),
            ty: rg::TypeExpr::Name(rg::Ident::new(reusable.return_type.clone(), reusable.span)),
            value: rg::ValueExpr::Ident(first),
            span: reusable.span,
        }));
    }
    decls.append(&mut lowering.edges);
    if !lowering.artificial.is_empty() {
        decls.push(rg::Decl::Pragma(rg::Pragma {
            name: rg::Ident::synthetic("artificialTag"),
            tokens: lowering.artificial.iter().cloned().collect(),
            span: Span::default(),
        }));
    }
    let mut diagnostics = world.diagnostics.take();
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end, d.code));
    diagnostics
        .dedup_by(|a, b| a.code == b.code && a.primary.span.start == b.primary.span.start && a.message == b.message);
    if diagnostics.iter().any(Diagnostic::is_error) {
        Err(diagnostics)
    } else {
        Ok((rg::Game { decls }, diagnostics))
    }
}

fn type_expr(ty: &TypeRef) -> rg::TypeExpr {
    match ty {
        TypeRef::Name(name) => rg::TypeExpr::Name(name.clone()),
        TypeRef::Set { members, span } => rg::TypeExpr::Set { members: members.clone(), span: *span },
        TypeRef::Arrow { from, to, span } => {
            rg::TypeExpr::Arrow { from: Box::new(type_expr(from)), to: Box::new(type_expr(to)), span: *span }
        }
    }
}

fn ident(name: impl Into<String>, span: Span) -> rg::Ident {
    rg::Ident::new(name, span)
}

/// A structural key for an RG expression (spans ignored), for caching sub-automata.
fn expr_key(expr: &rg::Expr) -> String {
    match expr {
        rg::Expr::Ident(i) => i.name.clone(),
        rg::Expr::Cast { ty, expr, .. } => format!("{}({})", ty.name, expr_key(expr)),
        rg::Expr::Access { map, key, .. } => format!("{}[{}]", expr_key(map), expr_key(key)),
    }
}

/// Whether a block jumps with `break()`/`continue()` to the loop directly around it.
fn uses_loop_jumps(block: &Block) -> bool {
    block.stmts.iter().any(|stmt| match &stmt.kind {
        StmtKind::Call { name, .. } => name.name == "break" || name.name == "continue",
        StmtKind::Branch(arms) => arms.iter().any(uses_loop_jumps),
        StmtKind::BranchIn { body, .. } => uses_loop_jumps(body),
        StmtKind::If { then, otherwise, .. } => {
            uses_loop_jumps(then) || otherwise.as_ref().is_some_and(uses_loop_jumps)
        }
        _ => false,
    })
}

impl<'w> Lowering<'w> {
    fn report(&self, diagnostic: Diagnostic) {
        self.world.report(diagnostic);
    }

    fn fresh(&mut self, prefix: &str) -> String {
        loop {
            let counter = self.counters.entry(prefix.to_string()).or_insert(0);
            *counter += 1;
            let name = format!("{prefix}_{counter}");
            if self.nodes.insert(name.clone()) {
                return name;
            }
        }
    }

    fn fresh_exact(&mut self, name: &str) -> String {
        if self.nodes.insert(name.to_string()) {
            name.to_string()
        } else {
            self.fresh(name)
        }
    }

    fn edge(&mut self, from: &str, to: &str, label: rg::Label, span: Span) {
        self.edges.push(rg::Decl::Edge(rg::Edge { from: ident(from, span), to: ident(to, span), label, span }));
    }

    fn skip(&mut self, from: &str, to: &str, span: Span) {
        self.edge(from, to, rg::Label::Skip, span);
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            edges: self.edges.len(),
            nodes: self.nodes.clone(),
            counters: self.counters.clone(),
            hoisted: self.hoisted.clone(),
            reusable: self.reusable.clone(),
            reusable_order: self.reusable_order.clone(),
            reach_cache: self.reach_cache.clone(),
            artificial: self.artificial.clone(),
        }
    }

    fn restore(&mut self, snapshot: Snapshot) {
        self.edges.truncate(snapshot.edges);
        self.nodes = snapshot.nodes;
        self.counters = snapshot.counters;
        self.hoisted = snapshot.hoisted;
        self.reusable = snapshot.reusable;
        self.reusable_order = snapshot.reusable_order;
        self.reach_cache = snapshot.reach_cache;
        self.artificial = snapshot.artificial;
    }

    fn graph(&self, name: &str) -> Option<&'w GraphDecl> {
        self.world.graph_index.get(name).map(|&i| &self.world.graphs[i])
    }

    fn lower_rules(&mut self) {
        let Some(rules) = self.graph("rules") else {
            let help = match suggest("rules", self.world.graph_index.keys().map(String::as_str)) {
                Some(close) => format!("the entry graph must be called `rules`; did you mean to rename `{close}`?"),
                None => "add `graph rules() { ... }`, the graph the game starts in".to_string(),
            };
            self.report(
                Diagnostic::error("E0417", "the program has no `rules` graph", Span::new(0, 0))
                    .label("missing `graph rules()`")
                    .with_help(help),
            );
            return;
        };
        if !rules.params.is_empty() {
            self.report(
                Diagnostic::error("E0413", "`rules` must take no parameters", rules.name.span)
                    .label("the entry graph is called with no arguments")
                    .with_help("remove the parameters; use variables or call another graph"),
            );
        }
        self.skip("begin", "rules_begin", rules.span);
        let caller = self.root_frame("rules");
        let name = rules.name.clone();
        if let Some(last) = self.call_graph(&name, &[], "rules_begin", &caller, Mode::Main, rules.span) {
            self.skip(&last, "rules_end", rules.span);
        }
        let player = self.player_expr(rules.span);
        self.edge(
            "rules_end",
            "end",
            rg::Label::Assign { lhs: player, rhs: rg::Expr::Ident(ident("keeper", rules.span)) },
            rules.span,
        );
    }

    fn root_frame(&self, graph: &str) -> Frame {
        Frame {
            graph: graph.to_string(),
            prefix: graph.to_string(),
            subst: HashMap::new(),
            ret: None,
            loops: Vec::new(),
            mode: Mode::Main,
        }
    }

    fn player_expr(&self, span: Span) -> rg::Expr {
        rg::Expr::Ident(ident("player", span))
    }

    /// Lowers the graphs nothing calls, discarding the edges, so that their mistakes are
    /// reported too; warns that they are unused.
    fn check_unused_graphs(&mut self) {
        for graph in &self.world.graphs {
            if self.used.contains(&graph.name.name) {
                continue;
            }
            self.report(
                Diagnostic::warning("W0401", format!("graph `{}` is never used", graph.name.name), graph.name.span)
                    .label("not called from `rules`")
                    .with_help("call it, use it in `reachable(...)`, or delete it"),
            );
            let snapshot = self.snapshot();
            let mut frame = self.root_frame(&graph.name.name);
            for (i, param) in graph.params.iter().enumerate() {
                let ty = self.world.resolve_type(&param.ty);
                let var = self.hoist(&graph.name.name, i, param, &ty);
                frame.subst.insert(param.name.name.clone(), Bound::Var(var, ty));
            }
            let start = self.fresh(&graph.name.name);
            self.stack.push(graph.name.name.clone());
            self.block(&graph.body, &start, &mut frame);
            self.stack.pop();
            self.restore(snapshot);
        }
    }

    fn hoist(&mut self, graph: &str, index: usize, param: &Param, ty: &Ty) -> String {
        let name = format!("{graph}_arg{index}_{}", param.name.name);
        if !self.hoisted.iter().any(|(n, ..)| *n == name) {
            self.hoisted.push((name.clone(), param.ty.clone(), ty.clone()));
        }
        name
    }

    fn graph_may_end(&mut self, name: &str) -> bool {
        if let Some(&known) = self.may_end.get(name) {
            return known;
        }
        self.may_end.insert(name.to_string(), false);
        let Some(graph) = self.graph(name) else {
            return false;
        };
        let result = self.block_may_end(&graph.body);
        self.may_end.insert(name.to_string(), result);
        result
    }

    fn block_may_end(&mut self, block: &Block) -> bool {
        block.stmts.iter().any(|stmt| match &stmt.kind {
            StmtKind::Call { name, .. } if name.name == "end" => true,
            StmtKind::Call { name, .. } => self.graph_may_end(&name.name.clone()),
            StmtKind::Branch(arms) => arms.iter().any(|a| self.block_may_end(a)),
            StmtKind::BranchIn { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::RepeatIn { body, .. }
            | StmtKind::Loop(body)
            | StmtKind::While { body, .. } => self.block_may_end(body),
            StmtKind::If { then, otherwise, .. } => {
                self.block_may_end(then) || otherwise.as_ref().is_some_and(|o| self.block_may_end(o))
            }
            _ => false,
        })
    }

    // ----- graph calls ------------------------------------------------------------------------

    /// Lowers a call of graph `name` starting at `from`; returns where control continues.
    fn call_graph(
        &mut self,
        name: &Ident,
        args: &[Expr],
        from: &str,
        caller: &Frame,
        mode: Mode,
        span: Span,
    ) -> Option<String> {
        let Some(graph) = self.graph(&name.name) else {
            let candidates =
                self.world.graph_index.keys().map(String::as_str).chain(BUILTIN_STATEMENTS.iter().copied());
            let help = match suggest(&name.name, candidates) {
                Some(close) => format!("did you mean `{close}`?"),
                None if self.world.is_function(&name.name) => {
                    format!("`{}` is a function; functions are used inside expressions", name.name)
                }
                None => "declare it with `graph name() { ... }`".to_string(),
            };
            self.report(
                Diagnostic::error("E0413", format!("unknown graph `{}`", name.name), name.span)
                    .label("no graph of this name")
                    .with_help(help),
            );
            return None;
        };
        if graph.params.len() != args.len() {
            self.report(
                Diagnostic::error(
                    "E0413",
                    format!(
                        "graph `{}` takes {} arguments but {} were given",
                        name.name,
                        graph.params.len(),
                        args.len()
                    ),
                    span,
                )
                .label("wrong number of arguments")
                .with_secondary(graph.name.span, "declared here")
                .with_help("pass one argument per parameter"),
            );
            return None;
        }
        if self.stack.contains(&name.name) {
            self.report(
                Diagnostic::error("E0416", format!("graph `{}` calls itself", name.name), name.span)
                    .label("recursive call")
                    .with_secondary(graph.name.span, "graph declared here")
                    .with_help("graphs are expanded at compile time; use `loop { }` or `while` instead of recursion"),
            );
            return None;
        }
        self.used.insert(name.name.clone());
        if graph.reusable {
            return self.call_reusable(graph, args, from, caller, mode, span);
        }
        // Arguments: constants are substituted, anything else is held in a generated variable.
        let mut frame = Frame {
            graph: name.name.clone(),
            prefix: name.name.clone(),
            subst: HashMap::new(),
            ret: None,
            loops: Vec::new(),
            mode,
        };
        let mut current = from.to_string();
        for (i, (param, arg)) in graph.params.iter().zip(args).enumerate() {
            let ty = self.world.resolve_type(&param.ty);
            if let Some(term) = self.static_value(arg, caller) {
                if !Ty::singleton(term.clone()).compatible(&ty) {
                    self.type_mismatch(arg.span(), &Ty::singleton(term.clone()), &ty, "argument", Some(param.span));
                }
                frame.subst.insert(param.name.name.clone(), Bound::Const(term));
            } else {
                let var = self.hoist(&name.name, i, param, &ty);
                if let Some((value, value_ty)) = self.aexpr(arg, caller) {
                    if !value_ty.compatible(&ty) {
                        self.type_mismatch(arg.span(), &value_ty, &ty, "argument", Some(param.span));
                    }
                    let next = self.fresh(&caller.prefix);
                    let lhs = rg::Expr::Ident(ident(var.clone(), arg.span()));
                    self.edge(&current, &next, rg::Label::Assign { lhs, rhs: value }, arg.span());
                    current = next;
                }
                frame.subst.insert(param.name.name.clone(), Bound::Var(var, ty));
            }
        }
        self.stack.push(name.name.clone());
        let last = self.block(&graph.body, &current, &mut frame);
        self.stack.pop();
        match (frame.ret, last) {
            (Some(ret), Some(last)) => {
                self.skip(&last, &ret, graph.body.span);
                Some(ret)
            }
            (Some(ret), None) => Some(ret),
            (None, last) => last,
        }
    }

    fn call_reusable(
        &mut self,
        graph: &'w GraphDecl,
        args: &[Expr],
        from: &str,
        caller: &Frame,
        mode: Mode,
        span: Span,
    ) -> Option<String> {
        let name = graph.name.name.clone();
        // A reusable graph that can `end()` needs one copy per place `end()` leads to.
        let (key, prefix) = match &mode {
            Mode::Reach(target) if self.graph_may_end(&name) => {
                (format!("{name}@{target}"), format!("{name}_for_{target}"))
            }
            _ => (name.clone(), name.clone()),
        };
        let mut vars = Vec::new();
        for (i, param) in graph.params.iter().enumerate() {
            let ty = self.world.resolve_type(&param.ty);
            vars.push((self.hoist(&name, i, param, &ty), ty));
        }
        if !self.reusable.contains_key(&key) {
            let begin = self.fresh_exact(&format!("{prefix}_begin"));
            let end = self.fresh_exact(&format!("{prefix}_end"));
            let return_var = format!("{prefix}_return");
            self.reusable.insert(
                key.clone(),
                Reusable {
                    begin: begin.clone(),
                    end: end.clone(),
                    return_type: format!("{return_var}_type"),
                    return_var,
                    call_ids: Vec::new(),
                    span: graph.name.span,
                },
            );
            self.reusable_order.push(key.clone());
            let mut frame = Frame {
                graph: name.clone(),
                prefix: prefix.clone(),
                subst: HashMap::new(),
                ret: Some(end.clone()),
                loops: Vec::new(),
                mode: mode.clone(),
            };
            for (param, (var, ty)) in graph.params.iter().zip(&vars) {
                frame.subst.insert(param.name.name.clone(), Bound::Var(var.clone(), ty.clone()));
            }
            self.stack.push(name.clone());
            if let Some(last) = self.block(&graph.body, &begin, &mut frame) {
                self.skip(&last, &end, graph.body.span);
            }
            self.stack.pop();
        }
        let mut current = from.to_string();
        for ((param, arg), (var, ty)) in graph.params.iter().zip(args).zip(&vars) {
            let Some((value, value_ty)) = self.aexpr(arg, caller) else {
                continue;
            };
            if !value_ty.compatible(ty) {
                self.type_mismatch(arg.span(), &value_ty, ty, "argument", Some(param.span));
            }
            let next = self.fresh(&caller.prefix);
            let lhs = rg::Expr::Ident(ident(var.clone(), arg.span()));
            self.edge(&current, &next, rg::Label::Assign { lhs, rhs: value }, arg.span());
            current = next;
        }
        let reusable = self.reusable.get_mut(&key).expect("inserted above");
        let call_id = format!("{prefix}_call{}", reusable.call_ids.len() + 1);
        reusable.call_ids.push(call_id.clone());
        let (begin, end, return_var) = (reusable.begin.clone(), reusable.end.clone(), reusable.return_var.clone());
        let return_expr = rg::Expr::Ident(ident(return_var, span));
        let id_expr = rg::Expr::Ident(ident(call_id, span));
        self.edge(&current, &begin, rg::Label::Assign { lhs: return_expr.clone(), rhs: id_expr.clone() }, span);
        let resume = self.fresh(&caller.prefix);
        self.edge(&end, &resume, rg::Label::Compare { lhs: return_expr, rhs: id_expr, negated: false }, span);
        Some(resume)
    }

    /// The sub-automaton `(begin, end)` of `reachable(g(args))`.
    fn reach(&mut self, call: &Expr, caller: &Frame) -> Option<(String, String)> {
        let Expr::Call { callee, args, span } = call else {
            self.report(
                Diagnostic::error("E0418", "`reachable` takes a graph call", call.span())
                    .label("not a graph call")
                    .with_help("write `reachable(g(args))`"),
            );
            return None;
        };
        let Expr::Name(name) = &**callee else {
            self.report(
                Diagnostic::error("E0418", "`reachable` takes a graph call", call.span())
                    .label("not a graph call")
                    .with_help("write `reachable(g(args))`"),
            );
            return None;
        };
        let mut key = name.name.clone();
        for arg in args {
            match self.static_value(arg, caller) {
                Some(term) => key.push_str(&format!(" {}", term.render().unwrap_or_default())),
                None => match self.aexpr_quiet(arg, caller) {
                    Some(expr) => key.push_str(&format!(" {}", expr_key(&expr))),
                    None => key.push_str(" ?"),
                },
            }
        }
        if let Some(found) = self.reach_cache.get(&key) {
            self.used.insert(name.name.clone());
            return Some(found.clone());
        }
        let begin = self.fresh(&format!("{}_reach", name.name));
        let end = self.fresh_exact(&format!("{begin}_end"));
        if let Some(last) = self.call_graph(name, args, &begin, caller, Mode::Reach(end.clone()), *span) {
            self.skip(&last, &end, *span);
        }
        self.reach_cache.insert(key, (begin.clone(), end.clone()));
        Some((begin, end))
    }

    // ----- statements -------------------------------------------------------------------------

    fn block(&mut self, block: &Block, from: &str, frame: &mut Frame) -> Option<String> {
        let mut current = Some(from.to_string());
        let mut last_jump: Option<(&str, Span)> = None;
        for stmt in &block.stmts {
            let at = match current.take() {
                Some(at) => at,
                None => {
                    match last_jump.take() {
                        Some(("end", _)) => self.report(
                            Diagnostic::warning("W0403", "statement after `end()` is never executed", stmt.span)
                                .label("unreachable")
                                .with_help("delete it, or move it before `end()`"),
                        ),
                        Some((jump, jump_span)) => self.report(
                            Diagnostic::error(
                                "E0415",
                                format!("`{jump}()` must be the last statement of its block"),
                                jump_span,
                            )
                            .label("jumps away")
                            .with_secondary(stmt.span, "this statement would never run")
                            .with_help("delete the statements after it, or wrap the jump in `if`/`branch`"),
                        ),
                        None => {}
                    }
                    self.fresh(&frame.prefix)
                }
            };
            current = self.stmt(stmt, &at, frame);
            if current.is_none() {
                if let StmtKind::Call { name, .. } = &stmt.kind {
                    if let Some(jump) = ["end", "return", "break", "continue"].iter().find(|j| **j == name.name) {
                        last_jump = Some((jump, stmt.span));
                    }
                }
            }
        }
        current
    }

    fn stmt(&mut self, stmt: &Stmt, from: &str, frame: &mut Frame) -> Option<String> {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Assign { lhs, rhs } => {
                let target = self.fresh(&frame.prefix);
                let (lhs_expr, lhs_ty) = self.lvalue(lhs, frame)?;
                if let Expr::Call { callee, args, .. } = rhs {
                    if let (Expr::Name(ty_name), [Expr::Star(_)]) = (&**callee, args.as_slice()) {
                        let Some(ty) = self.world.lookup_type(&ty_name.name) else {
                            self.report(
                                Diagnostic::error(
                                    "E0420",
                                    format!("`{}(*)` needs a domain", ty_name.name),
                                    ty_name.span,
                                )
                                .label("not a domain")
                                .with_help("write `x = Domain(*)` with a declared domain"),
                            );
                            return Some(target);
                        };
                        if matches!(&lhs_expr, rg::Expr::Ident(i) if i.name == "player") {
                            self.report(
                                Diagnostic::error("E0420", "`player` cannot be assigned `T(*)`", span)
                                    .label("control must go to one known player")
                                    .with_help("choose a value first (`p = Player(*)`), then `player = p`"),
                            );
                        } else if !ty.compatible(&lhs_ty) {
                            self.type_mismatch(rhs.span(), &ty, &lhs_ty, "assigned value", None);
                        }
                        self.edge(from, &target, rg::Label::AssignAny { lhs: lhs_expr, ty: ty_name.clone() }, span);
                        return Some(target);
                    }
                }
                let (rhs_expr, rhs_ty) = self.aexpr(rhs, frame)?;
                if !rhs_ty.compatible(&lhs_ty) {
                    self.type_mismatch(rhs.span(), &rhs_ty, &lhs_ty, "assigned value", None);
                }
                self.edge(from, &target, rg::Label::Assign { lhs: lhs_expr, rhs: rhs_expr }, span);
                Some(target)
            }
            StmtKind::Tag { artificial, symbols } => {
                let name = symbols.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join("__");
                let joined = symbols.first().map_or(span, |first| first.span.join(symbols[symbols.len() - 1].span));
                if *artificial {
                    self.artificial.insert(name.clone());
                }
                let target = self.fresh(&frame.prefix);
                self.edge(from, &target, rg::Label::Tag(ident(name, joined)), span);
                Some(target)
            }
            StmtKind::TagVar(expr) => {
                let target = self.fresh(&frame.prefix);
                let (value, ty) = self.aexpr(expr, frame)?;
                if matches!(ty, Ty::Map(..)) {
                    self.report(
                        Diagnostic::error("E0422", "`$$` needs a value of a domain, not a map", expr.span())
                            .label(format!("of type {}", ty.describe()))
                            .with_help("index the map down to a symbol, e.g. `$$ board[pos]`"),
                    );
                }
                self.edge(from, &target, rg::Label::TagVar(value), span);
                Some(target)
            }
            StmtKind::Call { name, args } => self.call_stmt(name, args, from, frame, span),
            StmtKind::Branch(arms) => {
                let join = self.fresh(&frame.prefix);
                let mut any = false;
                for arm in arms {
                    if let Some(last) = self.block(arm, from, frame) {
                        self.skip(&last, &join, arm.span);
                        any = true;
                    }
                }
                any.then_some(join)
            }
            StmtKind::BranchIn { var, ty, body } => {
                let values = self.values_of(ty);
                let join = self.fresh(&frame.prefix);
                let mut any = false;
                for value in values {
                    let previous = frame.subst.insert(var.name.clone(), Bound::Const(value));
                    if let Some(last) = self.block(body, from, frame) {
                        self.skip(&last, &join, body.span);
                        any = true;
                    }
                    restore_binding(frame, &var.name, previous);
                }
                any.then_some(join)
            }
            StmtKind::Repeat { count, body } => {
                let Ok(times) = count.name.parse::<usize>() else {
                    self.report(
                        Diagnostic::error(
                            "E0424",
                            format!("`repeat` needs a number, found `{}`", count.name),
                            count.span,
                        )
                        .label("not a numeral")
                        .with_help("write `repeat 3 { ... }`, or `repeat v in Domain { ... }`"),
                    );
                    return Some(from.to_string());
                };
                self.unroll(body, (0..times).map(|_| None).collect(), from, frame)
            }
            StmtKind::RepeatIn { var, ty, body } => {
                let values = self.values_of(ty).into_iter().map(|v| Some((var.name.clone(), v))).collect();
                self.unroll(body, values, from, frame)
            }
            StmtKind::Loop(body) => {
                let head = self.fresh(&frame.prefix);
                let exit = self.fresh(&frame.prefix);
                self.skip(from, &head, span);
                frame.loops.push((head.clone(), exit.clone()));
                if let Some(last) = self.block(body, &head, frame) {
                    self.skip(&last, &head, body.span);
                }
                frame.loops.pop();
                Some(exit)
            }
            StmtKind::While { cond, body } => {
                let head = self.fresh(&frame.prefix);
                let inside = self.fresh(&frame.prefix);
                let exit = self.fresh(&frame.prefix);
                self.skip(from, &head, span);
                self.cond(cond, &head, Some(&inside), Some(&exit), frame);
                frame.loops.push((head.clone(), exit.clone()));
                if let Some(last) = self.block(body, &inside, frame) {
                    self.skip(&last, &head, body.span);
                }
                frame.loops.pop();
                Some(exit)
            }
            StmtKind::If { cond, then, otherwise } => {
                let then_start = self.fresh(&frame.prefix);
                let else_start = self.fresh(&frame.prefix);
                self.cond(cond, from, Some(&then_start), Some(&else_start), frame);
                let then_end = self.block(then, &then_start, frame);
                let else_end = match otherwise {
                    Some(otherwise) => self.block(otherwise, &else_start, frame),
                    None => Some(else_start),
                };
                match (then_end, else_end) {
                    (None, None) => None,
                    (Some(end), None) | (None, Some(end)) => Some(end),
                    (Some(a), Some(b)) => {
                        self.skip(&a, &b, then.span);
                        Some(b)
                    }
                }
            }
            StmtKind::Error => Some(from.to_string()),
        }
    }

    /// Sequential copies of `body`, one per entry of `bindings` (a variable to bind, or none).
    fn unroll(
        &mut self,
        body: &Block,
        bindings: Vec<Option<(String, Term)>>,
        from: &str,
        frame: &mut Frame,
    ) -> Option<String> {
        let jumps = uses_loop_jumps(body);
        let exit = jumps.then(|| self.fresh(&frame.prefix));
        let mut current = from.to_string();
        for binding in bindings {
            let previous = binding
                .as_ref()
                .map(|(name, value)| (name.clone(), frame.subst.insert(name.clone(), Bound::Const(value.clone()))));
            let next = jumps.then(|| self.fresh(&frame.prefix));
            if let (Some(next), Some(exit)) = (&next, &exit) {
                frame.loops.push((next.clone(), exit.clone()));
            }
            let last = self.block(body, &current, frame);
            if jumps {
                frame.loops.pop();
            }
            if let Some((name, previous)) = previous {
                restore_binding(frame, &name, previous);
            }
            match (last, next) {
                (Some(last), Some(next)) => {
                    self.skip(&last, &next, body.span);
                    current = next;
                }
                (None, Some(next)) => current = next,
                (Some(last), None) => current = last,
                (None, None) => return None,
            }
        }
        match exit {
            Some(exit) => {
                self.skip(&current, &exit, body.span);
                Some(exit)
            }
            None => Some(current),
        }
    }

    fn values_of(&mut self, ty: &TypeRef) -> Vec<Term> {
        match self.world.resolve_type(ty) {
            Ty::Set(set) => set.members.clone(),
            Ty::Map(..) => {
                self.report(
                    Diagnostic::error("E0403", "expected a domain, found a map type", ty.span())
                        .label("cannot enumerate a map type")
                        .with_help("iterate over a domain or a set `{a, b}`"),
                );
                Vec::new()
            }
            Ty::Unknown => Vec::new(),
        }
    }

    fn call_stmt(&mut self, name: &Ident, args: &[Expr], from: &str, frame: &mut Frame, span: Span) -> Option<String> {
        let builtin = BUILTIN_STATEMENTS.contains(&name.name.as_str()) && self.graph(&name.name).is_none();
        if builtin {
            let expected = usize::from(name.name == "check");
            if args.len() != expected {
                self.report(
                    Diagnostic::error(
                        "E0419",
                        format!("`{}` takes {} argument{}", name.name, expected, if expected == 1 { "" } else { "s" }),
                        span,
                    )
                    .label(format!("{} given", args.len()))
                    .with_help(if expected == 1 {
                        "write `check(condition)`".to_string()
                    } else {
                        format!("write `{}()`", name.name)
                    }),
                );
                return Some(from.to_string());
            }
        }
        match name.name.as_str() {
            "check" if builtin => {
                let target = self.fresh(&frame.prefix);
                self.cond(&args[0], from, Some(&target), None, frame);
                Some(target)
            }
            "end" if builtin => {
                match &frame.mode {
                    Mode::Main => {
                        let player = self.player_expr(span);
                        self.edge(
                            from,
                            "end",
                            rg::Label::Assign { lhs: player, rhs: rg::Expr::Ident(ident("keeper", span)) },
                            span,
                        );
                    }
                    Mode::Reach(target) => {
                        let target = target.clone();
                        self.skip(from, &target, span);
                    }
                }
                None
            }
            "return" if builtin => {
                let ret = match &frame.ret {
                    Some(ret) => ret.clone(),
                    None => {
                        let ret = self.fresh(&format!("{}_return", frame.prefix));
                        frame.ret = Some(ret.clone());
                        ret
                    }
                };
                self.skip(from, &ret, span);
                None
            }
            "break" | "continue" if builtin => {
                let Some((head, exit)) = frame.loops.last().cloned() else {
                    self.report(
                        Diagnostic::error("E0414", format!("`{}()` outside a loop", name.name), span)
                            .label("no enclosing `loop`, `while` or `repeat` in this graph")
                            .with_help("use `return()` to leave the graph, or `end()` to finish the game"),
                    );
                    return None;
                };
                let target = if name.name == "break" { exit } else { head };
                self.skip(from, &target, span);
                None
            }
            other if CONDITION_BUILTINS.contains(&other) && self.graph(other).is_none() => {
                self.report(
                    Diagnostic::error("E0418", format!("`{other}(...)` is a condition, not a statement"), span)
                        .label("a condition alone does nothing")
                        .with_help(format!("wrap it: `check({other}(...))`")),
                );
                Some(from.to_string())
            }
            _ => {
                let mode = frame.mode.clone();
                self.call_graph(name, args, from, frame, mode, span)
            }
        }
    }

    // ----- conditions -------------------------------------------------------------------------

    /// Emits edges from `from` that reach `yes` exactly when `cond` holds and `no` exactly when
    /// it does not (either target may be absent).
    fn cond(&mut self, cond: &Expr, from: &str, yes: Option<&str>, no: Option<&str>, frame: &mut Frame) {
        let span = cond.span();
        match cond {
            Expr::Binary { op: BinOp::And, lhs, rhs, .. } => {
                let middle = self.fresh(&frame.prefix);
                self.cond(lhs, from, Some(&middle), no, frame);
                self.cond(rhs, &middle, yes, no, frame);
            }
            Expr::Binary { op: BinOp::Or, lhs, rhs, .. } => {
                let middle = self.fresh(&frame.prefix);
                self.cond(lhs, from, yes, Some(&middle), frame);
                self.cond(rhs, &middle, yes, no, frame);
            }
            Expr::Binary { op: op @ (BinOp::Eq | BinOp::Ne), lhs, rhs, .. } => {
                let (Some((left, left_ty)), Some((right, right_ty))) = (self.aexpr(lhs, frame), self.aexpr(rhs, frame))
                else {
                    return;
                };
                if !left_ty.compatible(&right_ty) {
                    self.report(
                        Diagnostic::error(
                            "E0409",
                            format!("cannot compare {} with {}", left_ty.describe(), right_ty.describe()),
                            span,
                        )
                        .label("these values can never be equal")
                        .with_help("compare values of the same domain"),
                    );
                }
                let equal = *op == BinOp::Eq;
                if let Some(yes) = yes {
                    let label = rg::Label::Compare { lhs: left.clone(), rhs: right.clone(), negated: !equal };
                    self.edge(from, yes, label, span);
                }
                if let Some(no) = no {
                    self.edge(from, no, rg::Label::Compare { lhs: left, rhs: right, negated: equal }, span);
                }
            }
            Expr::Binary { op, .. } => {
                self.report(
                    Diagnostic::error("E0412", format!("`{}` is not available in graphs", op.symbol()), span)
                        .label("compile-time operator")
                        .with_help("compute it in a function table and compare with `==`/`!=`"),
                );
            }
            Expr::Call { callee, args, .. } if matches!(&**callee, Expr::Name(n) if CONDITION_BUILTINS.contains(&n.name.as_str()) && !self.world.is_function(&n.name)) =>
            {
                let Expr::Name(name) = &**callee else { return };
                let expected = match name.name.as_str() {
                    "not" | "reachable" => 1,
                    _ => 0,
                };
                if args.len() != expected {
                    self.report(
                        Diagnostic::error("E0419", format!("`{}` takes {expected} argument(s)", name.name), span)
                            .label(format!("{} given", args.len()))
                            .with_help("see spec/hrg.md, Conditions"),
                    );
                    return;
                }
                match name.name.as_str() {
                    "not" => self.cond(&args[0], from, no, yes, frame),
                    "true" => {
                        if let Some(yes) = yes {
                            self.skip(from, yes, span);
                        }
                    }
                    "false" => {
                        if let Some(no) = no {
                            self.skip(from, no, span);
                        }
                    }
                    _ => {
                        let Some((begin, end)) = self.reach(&args[0], frame) else {
                            return;
                        };
                        for (target, negated) in [(yes, false), (no, true)] {
                            if let Some(target) = target {
                                let label = rg::Label::Reach {
                                    from: ident(begin.clone(), span),
                                    to: ident(end.clone(), span),
                                    negated,
                                };
                                self.edge(from, target, label, span);
                            }
                        }
                    }
                }
            }
            _ => {
                self.report(
                    Diagnostic::error("E0418", "expected a condition", span).label("not a condition").with_help(
                        "use `a == b`, `a != b`, `&&`, `||`, `not(c)`, `reachable(g())`, `true()` or `false()`",
                    ),
                );
            }
        }
    }

    // ----- automaton expressions --------------------------------------------------------------

    /// The compile-time value of an expression in this frame, when it has one and is a symbol.
    fn static_value(&self, expr: &Expr, frame: &Frame) -> Option<Term> {
        if !self.is_static(expr, frame) {
            return None;
        }
        let mut env = Env::new();
        for (name, bound) in &frame.subst {
            if let Bound::Const(term) = bound {
                env.insert(name.clone(), term.clone());
            }
        }
        let term = self.world.eval(expr, &env, None).ok()?;
        let symbol = term.render()?;
        (self.world.symbols.contains(&symbol)
            || matches!(term, Term::Int(_))
            || symbol == "keeper"
            || symbol == "random")
            .then_some(term)
    }

    fn is_static(&self, expr: &Expr, frame: &Frame) -> bool {
        match expr {
            Expr::Name(name) => match frame.subst.get(&name.name) {
                Some(Bound::Const(_)) => true,
                Some(Bound::Var(..)) => false,
                None => {
                    !self.world.variable_index.contains_key(&name.name)
                        && !matches!(name.name.as_str(), "player" | "goals" | "visible")
                        && (self.world.is_function(&name.name)
                            || self.world.symbols.contains(&name.name)
                            || !is_variable(&name.name))
                }
            },
            Expr::Call { callee, args, .. } => {
                self.is_static(callee, frame)
                    || matches!(&**callee, Expr::Name(n) if is_variable(&n.name) && !frame.subst.contains_key(&n.name))
                        && args.iter().all(|a| self.is_static(a, frame))
            }
            Expr::Access { map, key, .. } => self.is_static(map, frame) && self.is_static(key, frame),
            _ => false,
        }
    }

    fn aexpr_quiet(&mut self, expr: &Expr, frame: &Frame) -> Option<rg::Expr> {
        let before = self.world.diagnostics.borrow().len();
        let result = self.aexpr(expr, frame).map(|(e, _)| e);
        self.world.diagnostics.borrow_mut().truncate(before);
        result
    }

    fn type_mismatch(&self, span: Span, found: &Ty, expected: &Ty, what: &str, declared: Option<Span>) {
        let mut diagnostic = Diagnostic::error(
            "E0409",
            format!("{what} of type {} does not fit {}", found.describe(), expected.describe()),
            span,
        )
        .label(format!("expected {}", expected.describe()))
        .with_help("the two types share no symbol; check the domain of each side");
        if let Some(declared) = declared {
            diagnostic = diagnostic.with_secondary(declared, "declared here");
        }
        self.report(diagnostic);
    }

    /// Lowers an automaton expression, with its type.
    fn aexpr(&mut self, expr: &Expr, frame: &Frame) -> Option<(rg::Expr, Ty)> {
        match expr {
            Expr::Name(name) => self.name(name, frame),
            Expr::Call { callee, args, span } => {
                if let Expr::Name(head) = &**callee {
                    let is_ctor = is_variable(&head.name)
                        && !frame.subst.contains_key(&head.name)
                        && !self.world.variable_index.contains_key(&head.name)
                        && !self.world.is_function(&head.name);
                    if is_ctor {
                        return self.constructor(expr, head, frame);
                    }
                    if CONDITION_BUILTINS.contains(&head.name.as_str()) && !self.world.is_function(&head.name) {
                        self.report(
                            Diagnostic::error(
                                "E0418",
                                format!("`{}(...)` is a condition, not a value", head.name),
                                *span,
                            )
                            .label("used as a value")
                            .with_help("conditions go in `check(...)`, `if` and `while`"),
                        );
                        return None;
                    }
                }
                let (mut lowered, mut ty) = self.aexpr(callee, frame)?;
                for arg in args {
                    (lowered, ty) = self.access(lowered, ty, arg, frame, *span)?;
                }
                Some((lowered, ty))
            }
            Expr::Access { map, key, span } => {
                let (lowered, ty) = self.aexpr(map, frame)?;
                self.access(lowered, ty, key, frame, *span)
            }
            Expr::Star(span) => {
                self.report(
                    Diagnostic::error("E0412", "`*` is allowed only in `x = T(*)`", *span)
                        .label("misplaced `*`")
                        .with_help("write `x = Domain(*)` to choose any value"),
                );
                None
            }
            other => {
                let what = match other {
                    Expr::Binary { op, .. } => format!("`{}`", op.symbol()),
                    Expr::If { .. } => "`if ... then ... else`".to_string(),
                    Expr::Map { .. } => "a map literal".to_string(),
                    Expr::In { .. } => "`in`".to_string(),
                    _ => "this expression".to_string(),
                };
                self.report(
                    Diagnostic::error(
                        "E0412",
                        format!("{what} is compile-time only and cannot be used in a graph"),
                        other.span(),
                    )
                    .label("not an automaton expression")
                    .with_help("tabulate it in a function (`f : A -> B` with cases) and call the function here"),
                );
                None
            }
        }
    }

    fn access(&mut self, map: rg::Expr, map_ty: Ty, key: &Expr, frame: &Frame, span: Span) -> Option<(rg::Expr, Ty)> {
        let (key_expr, key_ty) = self.aexpr(key, frame)?;
        let value_ty = match &map_ty {
            Ty::Map(key_domain, value) => {
                if !key_ty.compatible(key_domain) {
                    self.report(
                        Diagnostic::error(
                            "E0409",
                            format!(
                                "key of type {} does not fit a map keyed by {}",
                                key_ty.describe(),
                                key_domain.describe()
                            ),
                            key.span(),
                        )
                        .label(format!("expected {}", key_domain.describe()))
                        .with_help("use a key from the map's key domain"),
                    );
                }
                (**value).clone()
            }
            Ty::Unknown => Ty::Unknown,
            Ty::Set(set) => {
                self.report(
                    Diagnostic::error("E0410", format!("a value of `{}` is not a map", set.name), span)
                        .label("indexed or called here")
                        .with_help("only functions and map-typed variables take arguments"),
                );
                return None;
            }
        };
        Some((rg::Expr::Access { map: Box::new(map), key: Box::new(key_expr), span }, value_ty))
    }

    fn constructor(&mut self, expr: &Expr, head: &Ident, frame: &Frame) -> Option<(rg::Expr, Ty)> {
        let Some(term) = self.static_value_any(expr, frame) else {
            self.report(
                Diagnostic::error(
                    "E0412",
                    format!("arguments of constructor `{}` must be known at compile time", head.name),
                    expr.span(),
                )
                .label("depends on a variable")
                .with_help("constructors build symbols at compile time; tabulate the mapping in a function"),
            );
            return None;
        };
        let symbol = term.render().unwrap_or_default();
        if !self.world.symbols.contains(&symbol) {
            self.report(
                Diagnostic::error("E0423", format!("`{symbol}` is not a member of any domain"), expr.span())
                    .label("constructed here")
                    .with_help("check the constructor's name and arguments against its domain's generator"),
            );
            return None;
        }
        Some((rg::Expr::Ident(ident(symbol, expr.span())), Ty::singleton(term)))
    }

    fn static_value_any(&self, expr: &Expr, frame: &Frame) -> Option<Term> {
        let mut env = Env::new();
        for (name, bound) in &frame.subst {
            match bound {
                Bound::Const(term) => {
                    env.insert(name.clone(), term.clone());
                }
                Bound::Var(..) => {
                    if mentions(expr, name) {
                        return None;
                    }
                }
            }
        }
        if !self.is_static(expr, frame) {
            return None;
        }
        self.world.eval(expr, &env, None).ok().filter(|t| t.render().is_some())
    }

    fn name(&mut self, name: &Ident, frame: &Frame) -> Option<(rg::Expr, Ty)> {
        match frame.subst.get(&name.name) {
            Some(Bound::Const(term)) => {
                let symbol = term.render()?;
                return Some((rg::Expr::Ident(ident(symbol, name.span)), Ty::singleton(term.clone())));
            }
            Some(Bound::Var(var, ty)) => return Some((rg::Expr::Ident(ident(var.clone(), name.span)), ty.clone())),
            None => {}
        }
        if let Some(&index) = self.world.variable_index.get(&name.name) {
            return Some((rg::Expr::Ident(name.clone()), self.world.variables[index].ty.clone()));
        }
        let builtin = match name.name.as_str() {
            "player" => Some("PlayerOrSystem"),
            "goals" => Some("Goals"),
            "visible" => Some("Visibility"),
            _ => None,
        };
        if let Some(ty) = builtin {
            return Some((rg::Expr::Ident(name.clone()), self.world.lookup_type(ty).unwrap_or(Ty::Unknown)));
        }
        if let Some(function) = self.world.functions.get(&name.name) {
            return Some((rg::Expr::Ident(name.clone()), function.ty.clone()));
        }
        let term = Term::literal(&name.name);
        if self.world.symbols.contains(&name.name)
            || matches!(term, Term::Int(_))
            || name.name == "keeper"
            || name.name == "random"
        {
            return Some((rg::Expr::Ident(name.clone()), Ty::singleton(term)));
        }
        if self.world.lookup_type(&name.name).is_some() {
            self.report(
                Diagnostic::error("E0412", format!("domain `{}` is not a value", name.name), name.span)
                    .label("a type, used as a value")
                    .with_help(format!("to choose any member, assign `x = {}(*)`", name.name)),
            );
            return None;
        }
        let candidates: Vec<&str> = frame
            .subst
            .keys()
            .map(String::as_str)
            .chain(self.world.variable_index.keys().map(String::as_str))
            .chain(self.world.functions.keys().map(String::as_str))
            .chain(self.world.symbols.iter().map(String::as_str))
            .chain(["player", "goals", "visible", "keeper", "random"])
            .collect();
        let help = match suggest(&name.name, candidates.into_iter()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => "declare it as a variable, a function, or a symbol of a domain".to_string(),
        };
        self.report(
            Diagnostic::error("E0401", format!("unknown name `{}`", name.name), name.span)
                .label(format!("not declared in graph `{}`", frame.graph))
                .with_help(help),
        );
        None
    }

    /// Lowers an assignment target: a variable, or an access chain rooted at one.
    fn lvalue(&mut self, expr: &Expr, frame: &Frame) -> Option<(rg::Expr, Ty)> {
        match expr {
            Expr::Name(name) => {
                let is_variable = self.world.variable_index.contains_key(&name.name)
                    || matches!(name.name.as_str(), "player" | "goals" | "visible");
                if is_variable && !frame.subst.contains_key(&name.name) {
                    return self.name(name, frame);
                }
                let what = if frame.subst.contains_key(&name.name) {
                    "a graph parameter"
                } else if self.world.is_function(&name.name) {
                    "a function (functions are constant)"
                } else {
                    "not a variable"
                };
                self.report(
                    Diagnostic::error("E0411", format!("cannot assign to `{}`", name.name), name.span)
                        .label(what)
                        .with_help("assign to a variable declared as `name : Type` at the top level"),
                );
                None
            }
            Expr::Access { map, key, span } => {
                let (lowered, ty) = self.lvalue(map, frame)?;
                self.access(lowered, ty, key, frame, *span)
            }
            Expr::Call { callee, args, span } if !matches!(&**callee, Expr::Name(n) if is_variable(&n.name)) => {
                let (mut lowered, mut ty) = self.lvalue(callee, frame)?;
                for arg in args {
                    (lowered, ty) = self.access(lowered, ty, arg, frame, *span)?;
                }
                Some((lowered, ty))
            }
            other => {
                self.report(
                    Diagnostic::error("E0411", "cannot assign to this expression", other.span())
                        .label("not a variable or map entry")
                        .with_help("the left side is a variable, optionally indexed: `x`, `board[p]`, `m[a][b]`"),
                );
                None
            }
        }
    }
}

fn restore_binding(frame: &mut Frame, name: &str, previous: Option<Bound>) {
    match previous {
        Some(previous) => {
            frame.subst.insert(name.to_string(), previous);
        }
        None => {
            frame.subst.remove(name);
        }
    }
}

fn mentions(expr: &Expr, name: &str) -> bool {
    match expr {
        Expr::Name(n) => n.name == name,
        Expr::Call { callee, args, .. } => mentions(callee, name) || args.iter().any(|a| mentions(a, name)),
        Expr::Access { map, key, .. } => mentions(map, name) || mentions(key, name),
        Expr::Binary { lhs, rhs, .. } => mentions(lhs, name) || mentions(rhs, name),
        Expr::In { expr, .. } => mentions(expr, name),
        Expr::If { cond, then, otherwise, .. } => {
            mentions(cond, name) || mentions(then, name) || mentions(otherwise, name)
        }
        Expr::Map { .. } | Expr::Star(_) | Expr::Error(_) => false,
    }
}

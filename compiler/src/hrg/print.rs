//! Prints a high-level program ([`ast::Program`]) back as HRG source text that the parser reads
//! again into an equivalent tree (same declarations, statements and expressions; spans differ).
//! Used by `regula compile FILE --emit hrg`, notably to show what the blocks translator generated.

use super::ast::*;
use std::fmt::Write as _;

/// The program as HRG text, one declaration or statement a line, two spaces per nesting level.
pub fn print(program: &Program) -> String {
    let mut out = String::new();
    for (i, item) in program.items.iter().enumerate() {
        if i > 0 && starts_group(&program.items[i - 1], item) {
            out.push('\n');
        }
        match item {
            Item::Domain(domain) => {
                let elements: Vec<String> = domain.elements.iter().map(element).collect();
                let _ = writeln!(out, "domain {} = {}", domain.name.name, elements.join(" | "));
            }
            Item::Typed(typed) => {
                let _ = write!(out, "{} : {}", typed.name.name, type_ref(&typed.ty));
                if let Some(init) = &typed.init {
                    let _ = write!(out, " = {}", expr(init));
                }
                out.push('\n');
            }
            Item::Case(case) => {
                let patterns: Vec<String> = case.patterns.iter().map(pattern).collect();
                let _ = writeln!(out, "{}({}) = {}", case.name.name, patterns.join(", "), expr(&case.body));
            }
            Item::Graph(graph) => {
                let params: Vec<String> =
                    graph.params.iter().map(|p| format!("{}: {}", p.name.name, type_ref(&p.ty))).collect();
                let reusable = if graph.reusable { "reusable " } else { "" };
                let _ = write!(out, "{reusable}graph {}({}) ", graph.name.name, params.join(", "));
                block(&mut out, &graph.body, 0);
                out.push('\n');
            }
        }
    }
    out
}

/// Whether a blank line goes between two items: around graphs, and where the kind of
/// declaration changes, except between a function's signature and its cases.
fn starts_group(previous: &Item, item: &Item) -> bool {
    match (previous, item) {
        (Item::Graph(_), _) | (_, Item::Graph(_)) => true,
        (Item::Domain(_), Item::Domain(_)) | (Item::Case(_), Item::Case(_)) => false,
        (Item::Typed(signature), Item::Case(case)) => signature.name.name != case.name.name,
        (Item::Case(_), Item::Typed(_)) => true,
        (Item::Typed(_), Item::Typed(_)) => false,
        _ => true,
    }
}

fn names(idents: &[Ident]) -> String {
    idents.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(", ")
}

fn element(element: &DomainElement) -> String {
    match &element.params {
        None => element.name.name.clone(),
        Some(params) => {
            let mut text = format!("{}({})", element.name.name, names(params));
            if !element.bindings.is_empty() {
                let _ = write!(text, " where {}", bindings(&element.bindings));
            }
            text
        }
    }
}

fn bindings(bindings: &[Binding]) -> String {
    bindings
        .iter()
        .map(|binding| {
            let range = match &binding.range {
                Range::Interval { low, high } => format!("{}..{}", low.name, high.name),
                Range::Set(members) => format!("{{{}}}", names(members)),
                Range::Domain(domain) => domain.name.clone(),
            };
            format!("{} in {range}", binding.var.name)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn type_ref(ty: &TypeRef) -> String {
    match ty {
        TypeRef::Name(name) => name.name.clone(),
        TypeRef::Set { members, .. } => format!("{{{}}}", names(members)),
        TypeRef::Arrow { from, to, .. } => format!("{} -> {}", type_ref(from), type_ref(to)),
    }
}

fn pattern(case: &Pattern) -> String {
    match case {
        Pattern::Wildcard(_) => "_".to_string(),
        Pattern::Var(name) | Pattern::Literal(name) => name.name.clone(),
        Pattern::Ctor { name, args, .. } => {
            format!("{}({})", name.name, args.iter().map(pattern).collect::<Vec<_>>().join(", "))
        }
    }
}

/// An expression; operands that are themselves operators or conditionals get parentheses, so
/// the text never depends on precedence or on HRG's right associativity.
pub fn expr(expression: &Expr) -> String {
    match expression {
        Expr::Name(name) => name.name.clone(),
        Expr::Call { callee, args, .. } => {
            format!("{}({})", operand(callee), args.iter().map(expr).collect::<Vec<_>>().join(", "))
        }
        Expr::Access { map, key, .. } => format!("{}[{}]", operand(map), expr(key)),
        Expr::Binary { op, lhs, rhs, .. } => format!("{} {} {}", operand(lhs), op.symbol(), operand(rhs)),
        Expr::In { expr: inner, domain, .. } => format!("{} in {}", operand(inner), domain.name),
        Expr::If { cond, then, otherwise, .. } => {
            format!("if {} then {} else {}", expr(cond), expr(then), expr(otherwise))
        }
        Expr::Map { default, parts, .. } => {
            let mut items = Vec::new();
            if let Some(default) = default {
                items.push(format!(":{}", expr(default)));
            }
            for part in parts {
                let mut text = format!("{} = {}", pattern(&part.pattern), expr(&part.value));
                if !part.bindings.is_empty() {
                    let _ = write!(text, " where {}", bindings(&part.bindings));
                }
                items.push(text);
            }
            format!("{{ {} }}", items.join("; "))
        }
        Expr::Star(_) => "*".to_string(),
        // Never in a program that parsed without errors; printed so the output shows where.
        Expr::Error(_) => "/* error */".to_string(),
    }
}

fn operand(expression: &Expr) -> String {
    match expression {
        Expr::Binary { .. } | Expr::In { .. } | Expr::If { .. } | Expr::Map { .. } => format!("({})", expr(expression)),
        _ => expr(expression),
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// A block `{ ... }` whose opening brace continues the current line; ends after its `}`.
fn block(out: &mut String, body: &Block, depth: usize) {
    out.push_str("{\n");
    for stmt in &body.stmts {
        indent(out, depth + 1);
        statement(out, stmt, depth + 1);
        out.push('\n');
    }
    indent(out, depth);
    out.push('}');
}

fn statement(out: &mut String, stmt: &Stmt, depth: usize) {
    match &stmt.kind {
        StmtKind::Assign { lhs, rhs } => {
            let _ = write!(out, "{} = {}", expr(lhs), expr(rhs));
        }
        StmtKind::Tag { artificial, symbols } => {
            out.push_str(if *artificial { "$_ " } else { "$ " });
            if symbols.len() == 1 {
                out.push_str(&symbols[0].name);
            } else {
                let joined: Vec<&str> = symbols.iter().map(|s| s.name.as_str()).collect();
                let _ = write!(out, "({})", joined.join(" "));
            }
        }
        StmtKind::TagVar(value) => {
            let _ = write!(out, "$$ {}", expr(value));
        }
        StmtKind::Call { name, args } => {
            let _ = write!(out, "{}({})", name.name, args.iter().map(expr).collect::<Vec<_>>().join(", "));
        }
        StmtKind::Branch(arms) => {
            out.push_str("branch ");
            for (i, arm) in arms.iter().enumerate() {
                if i > 0 {
                    out.push_str(" or ");
                }
                block(out, arm, depth);
            }
        }
        StmtKind::BranchIn { var, ty, body } => {
            let _ = write!(out, "branch {} in {} ", var.name, type_ref(ty));
            block(out, body, depth);
        }
        StmtKind::Repeat { count, body } => {
            let _ = write!(out, "repeat {} ", count.name);
            block(out, body, depth);
        }
        StmtKind::RepeatIn { var, ty, body } => {
            let _ = write!(out, "repeat {} in {} ", var.name, type_ref(ty));
            block(out, body, depth);
        }
        StmtKind::Loop(body) => {
            out.push_str("loop ");
            block(out, body, depth);
        }
        StmtKind::While { cond, body } => {
            let _ = write!(out, "while {} ", expr(cond));
            block(out, body, depth);
        }
        StmtKind::If { cond, then, otherwise } => {
            let _ = write!(out, "if {} ", expr(cond));
            block(out, then, depth);
            if let Some(otherwise) = otherwise {
                out.push_str(" else ");
                block(out, otherwise, depth);
            }
        }
        StmtKind::Error => out.push_str("/* error */"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parsing the printed text gives the same text again (spans aside, the same tree).
    fn round_trip(source: &str) -> String {
        let printed = print(&super::super::parse(source).unwrap());
        let again = print(&super::super::parse(&printed).unwrap());
        assert_eq!(printed, again);
        printed
    }

    #[test]
    fn right_associative_arithmetic_keeps_its_grouping() {
        let printed = round_trip("f : A -> A\nf(X) = X - 1 + 2\ng(X) = (X - 1) + 2\n");
        assert!(printed.contains("f(X) = X - (1 + 2)"), "{printed}");
        assert!(printed.contains("g(X) = (X - 1) + 2"), "{printed}");
    }

    #[test]
    fn statements_print_in_their_parseable_forms() {
        let printed = round_trip(
            "graph rules() { branch { $ a } or { $_ b $ (c d) } if x == y { end() } else if x != y { return() } \
             while not(reachable(g(1))) { x = T(*) } repeat d in {n, e} { $$ d } loop { break() } }",
        );
        assert!(printed.contains("branch {\n    $ a\n  } or {\n    $_ b\n    $ (c d)\n  }"), "{printed}");
        assert!(printed.contains("} else {\n    if x != y {"), "{printed}");
        assert!(printed.contains("repeat d in {n, e} {"), "{printed}");
        assert!(printed.contains("x = T(*)"), "{printed}");
    }

    #[test]
    fn map_literals_and_generators_print_with_their_bindings() {
        let printed = round_trip(
            "domain Cell = C(R, K) where R in 0..2, K in {a, b}\nboard : Cell -> Mark = { :empty; C(R, a) = x where R in 0..1 }\n",
        );
        assert!(printed.contains("domain Cell = C(R, K) where R in 0..2, K in {a, b}"), "{printed}");
        assert!(printed.contains("board : Cell -> Mark = { :empty; C(R, a) = x where R in 0..1 }"), "{printed}");
    }
}

//! The high-level language front end (HRG-compatible): lexer, parser, checks, and lowering to
//! the RG syntax tree, which then goes through [`crate::rg::compile_game`].

pub mod ast;
pub mod lexer;
pub mod parser;

pub use parser::parse;

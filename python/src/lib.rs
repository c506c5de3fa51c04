//! `regula._regula`: the Python extension module (pyo3) behind the `regula` package.
//!
//! The module wraps the runtime without re-implementing it: games load through
//! `regula_compiler::load`, bulk playouts run the fast engine's own playout loop with the GIL
//! released, and states follow the runtime's agent-facing API. The Python layer in
//! `python/regula/__init__.py` only re-exports these names; `python/regula/__init__.pyi` types them.

mod batch;
mod errors;
mod game;
mod playouts;
mod state;

use pyo3::prelude::*;

#[pymodule]
fn _regula(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("RegulaError", py.get_type::<errors::RegulaError>())?;
    m.add("CompileError", py.get_type::<errors::CompileError>())?;
    m.add("GameError", py.get_type::<errors::GameError>())?;
    m.add("IllegalActionError", py.get_type::<errors::IllegalActionError>())?;
    m.add("CHANCE_PLAYER_ID", state::CHANCE_PLAYER_ID)?;
    m.add("TERMINAL_PLAYER_ID", state::TERMINAL_PLAYER_ID)?;
    m.add_class::<game::Game>()?;
    m.add_class::<state::State>()?;
    m.add_class::<batch::VectorEnv>()?;
    m.add_function(wrap_pyfunction!(state::_restore_state, m)?)?;
    m.add_function(wrap_pyfunction!(game::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(game::load_game_from_string, m)?)?;
    Ok(())
}

//! The exceptions the module raises: every runtime or compiler failure becomes one of these,
//! carrying the same rendered message the command-line tool prints.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::PyErr;
use regula_runtime::agent::AgentError;
use regula_runtime::engine::EngineError;

create_exception!(regula, RegulaError, PyException, "Base class of every error Regula raises.");
create_exception!(
    regula,
    CompileError,
    RegulaError,
    "A game source failed to compile; the message holds the rendered diagnostics (file:line:column)."
);
create_exception!(regula, GameError, RegulaError, "The runtime failed while playing a game (a malformed game).");
create_exception!(regula, IllegalActionError, RegulaError, "An action that is not legal in the state.");

/// A runtime error as a Python exception: illegal moves as [`IllegalActionError`], the rest as
/// [`GameError`].
pub fn engine_error(error: EngineError) -> PyErr {
    match error {
        EngineError::IllegalMove { .. } | EngineError::UnknownTag { .. } => {
            IllegalActionError::new_err(error.to_string())
        }
        other => GameError::new_err(format!("runtime error: {other}")),
    }
}

/// An agent-API error as a Python exception: illegal actions as [`IllegalActionError`], engine
/// failures as [`GameError`], wrong arguments (no such player, nothing to undo, a bad serialized
/// state) as [`RegulaError`].
pub fn agent_error(error: AgentError) -> PyErr {
    match error {
        AgentError::Engine(error) => engine_error(error),
        AgentError::IllegalAction { .. } | AgentError::UnknownAction { .. } => {
            IllegalActionError::new_err(error.to_string())
        }
        AgentError::MoveOutsideActionSpace { .. } => GameError::new_err(error.to_string()),
        other => RegulaError::new_err(other.to_string()),
    }
}

//! What the emitter cannot write, said so the spec's author can act: a stable code, the JSON
//! pointer of the spec value at fault (callers turn it into file:line:col), a message and a hint.

/// A spec the emitter cannot turn into Rust.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct EmitError {
    /// A constant an agent matches on, e.g. `UNSUPPORTED_SPEC`.
    pub code: &'static str,
    /// JSON pointer into the spec (`/commands/3/path`), empty for the whole spec.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub hint: String,
}

/// The constant of every emitter error: the spec is valid, but the derive cannot say it yet.
pub const UNSUPPORTED_SPEC: &str = "UNSUPPORTED_SPEC";

impl EmitError {
    pub(crate) fn unsupported(
        pointer: impl Into<String>,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> Self {
        EmitError {
            code: UNSUPPORTED_SPEC,
            pointer: pointer.into(),
            message: message.into(),
            hint: hint.into(),
        }
    }
}

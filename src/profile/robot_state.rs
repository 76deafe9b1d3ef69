//! The robot contract's call state, beside its rendering (`profile/robot.rs`): what handlers
//! report into (the success they reached, warnings, safety gates, prose, the session). The
//! profile's flags are `crate::parse::robot_flags`, the steps before a handler runs
//! `crate::run::robot_prepare`, and its built-ins (`sessions`, `capabilities`)
//! `crate::builtins::robot`.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde_json::Value;

use crate::parse::robot_flags::Options;
use crate::services::sessions::Session;
use crate::warning::Warning;

/// One gate's report.
#[derive(Debug, Clone)]
pub(crate) struct GateReport {
    pub(crate) name: String,
    pub(crate) passed: bool,
    pub(crate) details: Value,
}

/// What the handler and the runtime's robot steps tell the profile about this call.
#[derive(Default)]
pub(crate) struct Call {
    pub(crate) started: Option<Instant>,
    pub(crate) options: Options,
    /// The exit-code name the handler said its success is (`OK_CANDIDATES`).
    pub(crate) outcome: Option<String>,
    pub(crate) warnings: Vec<Warning>,
    pub(crate) gates: Vec<GateReport>,
    pub(crate) prose: Option<String>,
    pub(crate) session: Option<Session>,
}

/// The call state, shared by the profile and the handler's context.
#[derive(Clone, Default)]
pub(crate) struct CallState(Arc<Mutex<Call>>);

impl CallState {
    pub(crate) fn new() -> CallState {
        let state = CallState::default();
        state.lock().started = Some(Instant::now());
        state
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Call> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

//! The robot contract's runtime services besides rendering (which is `profile/robot.rs`): the
//! call's state handlers report into (the success they reached, warnings, safety gates, prose,
//! the session), the flags the profile adds, the steps before a handler runs (`--fields`,
//! `--yes`, sessions, deprecations), and the `sessions` and `capabilities` built-ins.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use crate::services::sessions::Session;

/// A non-fatal warning in the envelope's `warnings` (robot 3.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    code: String,
    message: String,
    severity: Severity,
    affects: Vec<String>,
}

/// How much a warning matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; nothing in the result is affected.
    Info,
    /// The result is usable, but part of it may be degraded (the default).
    Warning,
    /// Part of the result could not be produced; the rest is still returned.
    Error,
}

impl Warning {
    /// A warning with a constant (UPPER_SNAKE_CASE) and a message; severity `warning`.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Warning {
        Warning {
            code: code.into(),
            message: message.into(),
            severity: Severity::Warning,
            affects: Vec::new(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Sets the severity.
    pub fn severity(mut self, severity: Severity) -> Warning {
        self.severity = severity;
        self
    }

    /// The parts of the result the warning concerns (field names, probes).
    pub fn affects<I, S>(mut self, affects: I) -> Warning
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.affects = affects.into_iter().map(Into::into).collect();
        self
    }
}

/// `--prose-style`: the voice of `data.prose_summary`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProseStyle {
    /// `terse`: minimal, bullet-like ("3 kills: node(2), python(1).").
    Terse,
    /// `conversational`: friendly, complete sentences.
    Conversational,
    /// `formal`: precise and impersonal.
    Formal,
    /// `technical`: the most detail: figures, probabilities, units.
    Technical,
}

impl ProseStyle {
    pub(crate) const NAMES: [&'static str; 4] = ["terse", "conversational", "formal", "technical"];

    pub(crate) fn parse(name: &str) -> Option<ProseStyle> {
        match name {
            "terse" => Some(ProseStyle::Terse),
            "conversational" => Some(ProseStyle::Conversational),
            "formal" => Some(ProseStyle::Formal),
            "technical" => Some(ProseStyle::Technical),
            _ => None,
        }
    }
}

/// The token controls of this call (robot 8).
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    pub(crate) compact: bool,
    pub(crate) fields: Option<Vec<String>>,
    pub(crate) markdown: bool,
    pub(crate) prose: Option<ProseStyle>,
    /// The command's principal list (`listField`), `None` for a list command's items.
    pub(crate) list_field: Option<String>,
    pub(crate) compact_omit: Vec<String>,
}

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

/// Probes and actions a tool adds to `capabilities` ([`crate::run::app::App::capability_probe`]).
#[derive(Default)]
pub(crate) struct Hooks {
    pub(crate) probes: Vec<(String, Box<dyn Fn() -> bool + Send + Sync>)>,
    pub(crate) actions: Vec<(String, Box<dyn Fn() -> bool + Send + Sync>)>,
}

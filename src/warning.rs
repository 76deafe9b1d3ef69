//! What a handler may add to any reply without failing it: a [`Warning`], with its
//! [`Severity`]. Every profile renders warnings its own way (robot's `warnings`, compose's
//! `meta`, the `pas` profile's stderr), so they live at the ground, below all of them.

use serde::Serialize;

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

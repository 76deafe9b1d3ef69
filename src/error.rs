//! The structured error a handler returns and every profile renders.
//!
//! An error carries a constant (what an agent matches on), a message (for the agent to read), an
//! optional suggestion (what to do next) and optional details (JSON). It carries no exit code:
//! the code comes from the registry's table for the constant, so a handler cannot drift from the
//! documented contract.

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

use crate::codes;

/// A failure, as a handler or the runtime reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    code: Cow<'static, str>,
    message: String,
    suggestion: Option<String>,
    // Boxed: a `Value` is 72 bytes with serde_json's `preserve_order` (which `toon-format`
    // turns on), and every `Result<_, Error>` would carry that size.
    details: Option<Box<Value>>,
    /// Whether the same call may succeed if made again; `None`: the constant's default
    /// ([`Error::retryable`]).
    retryable: Option<bool>,
    /// How long to wait before a retry, when the handler knows (a rate limit, a held lock).
    retry_after_ms: Option<u64>,
    /// How to space retries, when the handler says (else derived: `crate::retry`).
    retry_strategy: Option<crate::retry::RetryStrategy>,
    /// How many retries to try, when the handler says (else `retry::DEFAULT_MAX_RETRIES`).
    max_retries: Option<u32>,
}

impl Error {
    /// An error with a constant (UPPER_SNAKE_CASE: a registry exit-code name or a built-in from
    /// [`crate::codes`]) and a message.
    pub fn new(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Error {
            code: code.into(),
            message: message.into(),
            suggestion: None,
            details: None,
            retryable: None,
            retry_after_ms: None,
            retry_strategy: None,
            max_retries: None,
        }
    }

    /// `GENERAL_ERROR` (exit 1): a failure the tool's exit-code table has no constant for. Prefer
    /// a declared constant an agent can act on.
    pub fn general(message: impl Into<String>) -> Self {
        Error::new(codes::GENERAL_ERROR, message)
    }

    /// `INTERNAL_ERROR` (exit 1): a bug in the tool rather than in the call.
    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(codes::INTERNAL_ERROR, message)
    }

    /// `INVALID_ARGUMENT` (exit 2): the call itself is wrong.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Error::new(codes::INVALID_ARGUMENT, message)
    }

    /// Adds what the caller should do next (a flag to add, a command to run first).
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// Adds machine-readable context (the value that failed, the limit hit, ...).
    pub fn with_details(mut self, details: Value) -> Self {
        self.details = Some(Box::new(details));
        self
    }

    /// Says whether the same call may succeed if made again unchanged (a transient failure:
    /// a busy resource, a network hiccup). Without it, [`Error::retryable`] answers from the
    /// constant.
    pub fn with_retryable(mut self, retryable: bool) -> Self {
        self.retryable = Some(retryable);
        self
    }

    /// The call may be retried after this many milliseconds (a rate limit, a held lock):
    /// rendered as `retry_after_ms`, and makes the error retryable.
    pub fn with_retry_after_ms(mut self, milliseconds: u64) -> Self {
        self.retry_after_ms = Some(milliseconds);
        self.retryable = Some(true);
        self
    }

    /// Whether the same call may succeed if made again: what the handler said, else true for
    /// the runtime's transient constants (`TIMEOUT`, `INTERRUPTED`, `TERMINATED`), false
    /// for every other (an argument error, a missing
    /// resource, a bug: the same call fails the same way).
    pub fn retryable(&self) -> bool {
        self.retryable
            .unwrap_or_else(|| codes::transient(self.code.as_ref()))
    }

    /// How to space the retries of this (retryable) error: rendered as `retry_strategy`; without
    /// it the runtime derives one from the delay (see [`crate::retry`]). Makes the error
    /// retryable.
    pub fn with_retry_strategy(mut self, strategy: crate::retry::RetryStrategy) -> Self {
        self.retry_strategy = Some(strategy);
        self.retryable = Some(true);
        self
    }

    /// How many retries are worth trying: rendered as `max_retries` on a retryable error
    /// (default [`crate::retry::DEFAULT_MAX_RETRIES`]).
    pub fn with_max_retries(mut self, retries: u32) -> Self {
        self.max_retries = Some(retries);
        self
    }

    /// The retry count the handler gave, if any.
    pub(crate) fn own_max_retries(&self) -> Option<u32> {
        self.max_retries
    }

    /// How to space retries: the handler's, else derived; `None` when not retryable.
    pub fn retry_strategy(&self) -> Option<crate::retry::RetryStrategy> {
        // The handler's own, else from the delay: a named delay is waited each time, any
        // other transient failure with a doubling wait (see `crate::retry`).
        if !self.retryable() {
            return None;
        }
        Some(self.retry_strategy.unwrap_or(match self.retry_after_ms {
            Some(_) => crate::retry::RetryStrategy::LinearBackoff,
            None => crate::retry::RetryStrategy::ExponentialBackoff,
        }))
    }

    /// How many retries are worth trying; `None` when not retryable.
    pub fn max_retries(&self) -> Option<u32> {
        self.retryable().then(|| {
            self.own_max_retries()
                .unwrap_or(crate::retry::DEFAULT_MAX_RETRIES)
        })
    }

    /// How long to wait before retrying, in milliseconds, when known.
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.retry_after_ms
    }

    /// The constant.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// The one-sentence message, printed as `message` (secrets redacted).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What to do next, printed as `suggestion` (`hint` in compose), if one was added.
    pub fn suggestion(&self) -> Option<&str> {
        self.suggestion.as_deref()
    }

    /// The machine-readable context, printed as `details`, if any was added.
    pub fn details(&self) -> Option<&Value> {
        self.details.as_deref()
    }

    /// Every text of the error, mutably, so redaction can reach all of them.
    pub(crate) fn texts_mut(&mut self) -> (&mut String, Option<&mut String>, Option<&mut Value>) {
        (
            &mut self.message,
            self.suggestion.as_mut(),
            self.details.as_deref_mut(),
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

/// The error of a value that cannot be serialised as JSON (a handler's result or item).
pub(crate) fn serialise_error(err: serde_json::Error) -> Error {
    Error::internal(format!("the result cannot be serialised as JSON: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retry::{DEFAULT_MAX_RETRIES, RetryStrategy};

    fn strategy_of(error: &Error) -> Option<RetryStrategy> {
        error.retry_strategy()
    }

    fn max_retries_of(error: &Error) -> Option<u32> {
        error.max_retries()
    }

    #[test]
    fn the_strategy_follows_the_delay_unless_the_handler_says() {
        let lock = Error::new("LOCK_HELD", "held").with_retry_after_ms(500);
        assert_eq!(strategy_of(&lock), Some(RetryStrategy::LinearBackoff));
        let timeout = Error::new(crate::codes::TIMEOUT, "late");
        assert_eq!(
            strategy_of(&timeout),
            Some(RetryStrategy::ExponentialBackoff)
        );
        assert_eq!(max_retries_of(&timeout), Some(DEFAULT_MAX_RETRIES));
        let bad = Error::invalid_argument("no");
        assert_eq!((strategy_of(&bad), max_retries_of(&bad)), (None, None));
        let own = Error::new("BUSY", "busy")
            .with_retry_strategy(RetryStrategy::Immediate)
            .with_max_retries(1);
        assert_eq!(strategy_of(&own), Some(RetryStrategy::Immediate));
        assert_eq!(max_retries_of(&own), Some(1));
    }
}

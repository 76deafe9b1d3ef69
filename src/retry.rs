//! How to retry a failed call (failure mode 19), on every retryable error in every profile:
//! `retry_strategy` (compose: `retryStrategy`) and `max_retries` (`maxRetries`) beside
//! `retryable` and `retry_after_ms`. The runtime derives both from what the error already says,
//! so no handler has to: an error that names its delay (a held lock, a rate limit) is retried
//! after that delay each time (`linear_backoff`), any other transient one with a doubling wait
//! (`exponential_backoff`); at most [`DEFAULT_MAX_RETRIES`] times. A handler that knows better
//! says so ([`crate::error::Error::with_retry_strategy`], [`crate::error::Error::with_max_retries`]). A
//! caller that retries may say which attempt this is (`PAS_ATTEMPT`, from 1): compose `meta`,
//! the robot envelope and the `PAS_META` line echo it as `attempt` (compose adds `maxAttempts` on
//! a retryable error).

/// How many times a retryable error suggests retrying when its handler does not say.
pub const DEFAULT_MAX_RETRIES: u32 = 3;

/// The environment variable in which a retrying caller numbers its attempts (1 for the first).
pub const ATTEMPT_ENV: &str = "PAS_ATTEMPT";

/// How to space the retries of a retryable error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryStrategy {
    /// Retry at once (the failure is known to be momentary).
    Immediate,
    /// Wait the same time (`retry_after_ms`, else a second) before each retry.
    LinearBackoff,
    /// Double the wait before each retry.
    ExponentialBackoff,
}

impl RetryStrategy {
    /// The spelling in every profile's error.
    pub fn as_str(self) -> &'static str {
        match self {
            RetryStrategy::Immediate => "immediate",
            RetryStrategy::LinearBackoff => "linear_backoff",
            RetryStrategy::ExponentialBackoff => "exponential_backoff",
        }
    }
}

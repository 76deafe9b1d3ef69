//! How to retry a failed call (failure mode 19), on every retryable error in every profile:
//! `retry_strategy` (compose: `retryStrategy`) and `max_retries` (`maxRetries`) beside
//! `retryable` and `retry_after_ms`. The runtime derives both from what the error already says,
//! so no handler has to: an error that names its delay (a held lock, a rate limit) is retried
//! after that delay each time (`linear_backoff`), any other transient one with a doubling wait
//! (`exponential_backoff`); at most [`DEFAULT_MAX_RETRIES`] times. A handler that knows better
//! says so ([`crate::Error::with_retry_strategy`], [`crate::Error::with_max_retries`]). A
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

/// The strategy of an error: its own, else derived from its delay (see the module docs).
pub(crate) fn strategy_of(error: &crate::Error) -> Option<RetryStrategy> {
    if !error.retryable() {
        return None;
    }
    Some(
        error
            .own_retry_strategy()
            .unwrap_or(match error.retry_after_ms() {
                Some(_) => RetryStrategy::LinearBackoff,
                None => RetryStrategy::ExponentialBackoff,
            }),
    )
}

/// How many retries a retryable error suggests (its own, else [`DEFAULT_MAX_RETRIES`]).
pub(crate) fn max_retries_of(error: &crate::Error) -> Option<u32> {
    error
        .retryable()
        .then(|| error.own_max_retries().unwrap_or(DEFAULT_MAX_RETRIES))
}

/// The caller's attempt number (`PAS_ATTEMPT`, a positive integer), when it gave one.
pub(crate) fn attempt() -> Option<u32> {
    crate::parse::env_values::attempt(ATTEMPT_ENV)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

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

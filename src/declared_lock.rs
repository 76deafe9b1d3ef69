//! A command that declares `lock: NAME` runs one call at a time (failure modes 15 and 58): the
//! runtime takes the named lock (`pas::lock`) before the handler and holds it until the call's
//! output is written, in every profile and over MCP. A concurrent call fails at once with
//! `LOCK_HELD` (robot: the `lock`-role code), `retry_after_ms` and the holder; a caller that
//! would rather wait sets `PAS_LOCK_WAIT` (milliseconds). `--validate-only` takes no lock.

use std::time::Duration;

use pas_spec::Command;

use crate::context::Context;
use crate::error::Error;
use crate::lock::{Held, Lock};

/// The environment variable that makes a call wait for a held lock, in milliseconds.
pub const LOCK_WAIT_ENV: &str = "PAS_LOCK_WAIT";

/// Takes the command's declared lock for this call, or fails with the held-lock error.
pub(crate) fn take(command: &Command, ctx: &Context) -> Result<Option<Held>, Error> {
    let Some(name) = &command.lock else {
        return Ok(None);
    };
    let mut lock = Lock::named(name.clone());
    if let Some(wait) = std::env::var(LOCK_WAIT_ENV)
        .ok()
        .and_then(|ms| ms.trim().parse::<u64>().ok())
    {
        lock = lock.wait(Duration::from_millis(wait));
    }
    lock.acquire(ctx).map(Some)
}

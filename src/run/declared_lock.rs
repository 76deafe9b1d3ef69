//! A command that declares `lock: NAME` runs one call at a time (failure modes 15 and 58): the
//! runtime takes the named lock (`pas::lock`) before the handler and holds it until the call's
//! output is written, in every profile and over MCP. A concurrent call fails at once with
//! `LOCK_HELD` (robot: the `lock`-role code), `retry_after_ms` and the holder; a caller that
//! would rather wait sets `PAS_LOCK_WAIT` (milliseconds; `0`: until it is free). `--validate-only` takes no lock.

use std::time::Duration;

use pas_spec::Command;

use crate::error::Error;
use crate::handler::context::Context;
pub use crate::parse::names::LOCK_WAIT_ENV;
use crate::services::lock::{Held, Lock};

/// Takes the command's declared lock for this call, or fails with the held-lock error.
pub(crate) fn take(command: &Command, ctx: &Context) -> Result<Option<Held>, Error> {
    let Some(name) = &command.lock else {
        return Ok(None);
    };
    let mut lock = Lock::named(name.clone());
    // `0`: no limit on the wait (the family's one meaning of 0); unset: no wait.
    match crate::parse::env_values::whole(LOCK_WAIT_ENV) {
        crate::parse::env_values::Setting::Unset => {}
        crate::parse::env_values::Setting::NoLimit => lock = lock.wait(Duration::MAX),
        crate::parse::env_values::Setting::Limit(ms) => lock = lock.wait(Duration::from_millis(ms)),
    }
    lock.acquire(ctx).map(Some)
}

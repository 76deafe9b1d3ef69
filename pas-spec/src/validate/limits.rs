//! The limits a command declares (`timeout`, `maxOutputBytes`, `maxInputBytes`): the runtime arms them in place
//! of its defaults, so each must be a real, positive bound. "No limit" is not declarable: a
//! command leaves the key out and gets the runtime's default.

use super::context::Context;
use super::report::{self, Pointer, Report};

/// The constant a second call of a locked command fails with (`pas` and compose).
const LOCK_HELD: &str = "LOCK_HELD";

/// A lock's name is a file name under the tool's state directory, and the error it fails with
/// is one the tool declares (robot: any code with the `lock` role, else its fallback).
fn check_lock(context: &Context, name: &str, lock: &str, at: &Pointer, report: &mut Report) {
    if !crate::declare::is_lock_name(lock) {
        report.error(
            "E098",
            &at.at("lock"),
            format!("The command `{name}` names the lock `{lock}`, which is not a safe file name."),
            "Use letters, digits, `-`, `_` and `.` (not first), at most 128 characters.",
        );
    }
    let registry = context.registry;
    if registry.profile != crate::Profile::Robot
        && !registry.exit_codes.iter().any(|c| c.name == LOCK_HELD)
    {
        report.error(
            "E098",
            &at.at("lock"),
            format!("The command `{name}` takes a lock, and the tool declares no `LOCK_HELD` exit code for a second call to fail with."),
            "Add `LOCK_HELD` under exitCodes (e.g. code 100, \"Another call holds the lock; retry after retry_after_ms\").",
        );
    }
}

pub fn check(context: &Context, report: &mut Report) {
    for (index, command) in context.registry.commands.iter().enumerate() {
        let at = report::command(index);
        let name = &command.name;
        if let Some(lock) = &command.lock {
            check_lock(context, name, lock, &at, report);
        }
        if let Some(seconds) = command.timeout
            && !(seconds.is_finite() && seconds > 0.0)
        {
            report.error(
                "E099",
                &at.at("timeout"),
                format!("The command `{name}` declares a timeout of {seconds} seconds."),
                "Give a positive number of seconds (decimals allowed), or leave `timeout` out for the runtime's default of 300.",
            );
        }
        if command.max_input_bytes == Some(0) {
            report.error(
                "E099",
                &at.at("maxInputBytes"),
                format!("The command `{name}` declares an input limit of 0 bytes."),
                "Give a positive number of bytes, or leave `maxInputBytes` out for the runtime's default of 256 MiB.",
            );
        }
        if command.max_output_bytes == Some(0) {
            report.error(
                "E099",
                &at.at("maxOutputBytes"),
                format!("The command `{name}` declares an output limit of 0 bytes."),
                "Give a positive number of bytes, or leave `maxOutputBytes` out for no bound (callers may still ask for one with --max-output).",
            );
        }
    }
}

//! The limits a command declares (`timeout`, `maxOutputBytes`): the runtime arms them in place
//! of its defaults, so each must be a real, positive bound. "No limit" is not declarable: a
//! command leaves the key out and gets the runtime's default.

use super::context::Context;
use super::report::{self, Report};

pub fn check(context: &Context, report: &mut Report) {
    for (index, command) in context.registry.commands.iter().enumerate() {
        let at = report::command(index);
        let name = &command.name;
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
        if command.max_output_bytes == Some(0) {
            report.error(
                "E099",
                &at.at("maxOutputBytes"),
                format!("The command `{name}` declares an output limit of 0 bytes."),
                "Give a positive number of bytes, or leave `maxOutputBytes` out for the runtime's default of 64 MiB.",
            );
        }
    }
}

//! A command's declared limits (`timeout`, `maxOutputBytes`, `maxInputBytes`; failure modes 11,
//! 43 and 61), armed once argv has selected the command, in place of the defaults armed at
//! start (see `deadline`, `output_limit` and `input`). A command that declares none costs a
//! few branches.

use pas_spec::Command;

use crate::end::call_state::Shared;

/// Arms what `command` declares for this call. Not over MCP: the server runs as long as its
/// client, and its calls share the process (the export states the limits for the client).
pub(crate) fn apply(shared: &Shared, command: &Command) {
    if shared.mcp.is_some() {
        return;
    }
    // What the command reads is bounded in every mode, as the runtime's own input limit is.
    if let Some(bytes) = command.max_input_bytes {
        crate::guards::input::declare_stdin(bytes);
    }
    // A declared time limit is the command's own, in every mode (a person's call too): no
    // limit exists in one mode that the other lacks.
    if let Some(declared) = crate::guards::deadline::declared(command) {
        let limit = crate::guards::deadline::call_limit(command).unwrap_or(declared);
        crate::guards::deadline::arm_declared(limit, limit == declared);
        rerender_timeout(shared);
    }
    if !shared.agent {
        return;
    }
    if let Some(bytes) = command.max_output_bytes {
        crate::guards::output_limit::declare(bytes);
    }
}

/// The `TIMEOUT` report rendered ahead of time (for the signal handler) names the limit: it
/// is rendered again with the one armed now.
#[cfg(unix)]
fn rerender_timeout(shared: &Shared) {
    let alarm = signal_hook::consts::SIGALRM;
    let mut output = shared.lock();
    let output = &mut *output;
    if output.signal_lines.is_none() {
        return;
    }
    let (line, code) = output.render_error(crate::end::signal_error::error_for(alarm));
    if let Some(lines) = &mut output.signal_lines
        && let Some(entry) = lines.lines.iter_mut().find(|(s, _, _)| *s == alarm)
    {
        *entry = (alarm, line, code);
    }
}

#[cfg(not(unix))]
fn rerender_timeout(_shared: &Shared) {}

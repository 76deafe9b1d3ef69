//! Bytes that code other than the runtime wrote to fd 1 while a handler ran (a library's print,
//! a child process), kept off stdout by `crate::stdio::stdout_capture` and reported here as a
//! `THIRD_PARTY_STDOUT` warning of the call, secrets redacted.

use crate::end::call_state::Shared;

/// Reports what was captured so far (see `crate::stdio::stdout_capture::drain`).
pub(crate) fn drain(shared: &Shared) {
    if let Some((bytes, shown)) = crate::stdio::stdout_capture::drain() {
        warn(shared, bytes, &shown);
    }
}

/// Reports what is left and ends the capture.
pub(crate) fn end(shared: &Shared) {
    if let Some((bytes, shown)) = crate::stdio::stdout_capture::end() {
        warn(shared, bytes, &shown);
    }
}

fn warn(shared: &Shared, bytes: u64, shown: &str) {
    let mut output = shared.lock();
    let output = &mut *output;
    let shown = match output.redactor.has_values() {
        true => output.redactor.text(shown),
        false => shown.to_owned(),
    };
    let cut = if bytes as usize > crate::stdio::stdout_capture::SHOWN {
        " (cut)"
    } else {
        ""
    };
    let warning = crate::warning::Warning::new(
        crate::stdio::stdout_capture::THIRD_PARTY_STDOUT,
        format!(
            "{bytes} bytes written to stdout by code other than the runtime (a library's print, \
             a child process) were kept off stdout; they were{cut}: {shown}"
        ),
    );
    match &shared.robot {
        Some(state) => state.lock().warnings.push(warning),
        None => {
            let _ = output.profile.warning(&mut output.sinks, &warning);
        }
    }
}

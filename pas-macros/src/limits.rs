//! `timeout = SECONDS` and `max_output_bytes = N` on a command: the declared limits the runtime
//! enforces (see `pas_spec::Command::timeout`). Read here once, so that the check (`valid.rs`)
//! and the code (`expand.rs`) agree on the value.

use syn::Lit;

use crate::ctxt::Ctxt;

/// The seconds of a `timeout` literal (`30` or `2.5`), when it is a positive, finite number.
pub(crate) fn seconds(lit: &Lit) -> Option<f64> {
    let value = match lit {
        Lit::Int(int) => int.base10_parse::<f64>().ok()?,
        Lit::Float(float) => float.base10_parse::<f64>().ok()?,
        _ => return None,
    };
    (value.is_finite() && value > 0.0).then_some(value)
}

/// The bytes of a `max_output_bytes` literal, when it is a positive integer.
pub(crate) fn bytes(lit: &syn::LitInt) -> Option<u64> {
    lit.base10_parse::<u64>().ok().filter(|&bytes| bytes > 0)
}

/// Reports a `max_input_bytes` that is not positive.
pub(crate) fn check_input(max_input_bytes: Option<&syn::LitInt>, ctxt: &Ctxt) {
    if let Some(lit) = max_input_bytes
        && bytes(lit).is_none()
    {
        ctxt.spanned(
            lit,
            "`max_input_bytes` is a positive number of bytes, e.g. `max_input_bytes = 65536` (leave it out for the runtime's default)",
        );
    }
}

/// Reports a limit that is not positive (the registry has no way to say "none": leave the
/// key out for the runtime's default).
pub(crate) fn check(timeout: Option<&Lit>, max_output_bytes: Option<&syn::LitInt>, ctxt: &Ctxt) {
    if let Some(lit) = timeout
        && seconds(lit).is_none()
    {
        ctxt.spanned(
            lit,
            "`timeout` is a positive number of seconds, e.g. `timeout = 30` or `timeout = 2.5` (leave it out for the runtime's default)",
        );
    }
    if let Some(lit) = max_output_bytes
        && bytes(lit).is_none()
    {
        ctxt.spanned(
            lit,
            "`max_output_bytes` is a positive number of bytes, e.g. `max_output_bytes = 65536` (leave it out for the runtime's default)",
        );
    }
}

/// Reports `poll_interval_ms` or `job_timeout_ms` on a command that is not `kind = "job"`, or
/// one that is not a positive number of milliseconds, or a job command with a `timeout`
/// (its time limit is `job_timeout_ms`).
pub(crate) fn check_job(
    command: &crate::attr::CommandAttrs,
    kind: Option<pas_spec::OutputKind>,
    ctxt: &Ctxt,
) {
    let job = kind == Some(pas_spec::OutputKind::Job);
    for (key, lit) in [
        ("poll_interval_ms", &command.poll_interval_ms),
        ("job_timeout_ms", &command.job_timeout_ms),
    ] {
        let Some(lit) = lit else { continue };
        if !job {
            ctxt.spanned(
                lit,
                format!("`{key}` applies only to a `kind = \"job\"` command"),
            );
        } else if bytes(lit).is_none() {
            ctxt.spanned(lit, format!("`{key}` is a positive number of milliseconds"));
        }
    }
    if job && let Some(timeout) = &command.timeout {
        ctxt.spanned(
            timeout,
            "a `kind = \"job\"` command's time limit is `job_timeout_ms` (milliseconds), not `timeout`",
        );
    }
}

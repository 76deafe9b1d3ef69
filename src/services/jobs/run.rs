//! Starting a job and running it detached.
//!
//! A call of a job command (without `--wait`, not over MCP) records a manifest, re-executes
//! the current executable with the same argv in a process group of its own, with
//! [`RUN_ENV`] naming the job (stdin from the call's body if it had one, else nothing; stdout
//! and stderr to files in the job's directory), and answers the descriptor at once. The
//! detached run is an ordinary call of the same command, marked by [`RUN_ENV`]: it waits until
//! the starter recorded its pid (so the two never race on the manifest), arms the job's time
//! limit, runs the handler, and writes the result or the structured error into the manifest.

use std::ffi::OsString;
use std::process::Stdio;
use std::sync::OnceLock;
use std::sync::atomic::Ordering;
use std::time::Duration;

use pas_spec::{Command, Registry};
use serde_json::{Value, json};

use super::store::{self, Manifest, Status};
use crate::error::Error;
pub(crate) use crate::parse::job_id::running_job;
pub(crate) use crate::parse::names::JOB_RUN_ENV as RUN_ENV;
use crate::reply::{Body, Encoding, Reply};

/// Records a job's progress in its manifest: [`record_progress`], named only where a job is
/// claimed so that a tool without jobs does not link the job store (`crate::run::rooms`).
pub(crate) type RecordProgress = fn(&str, &str, u64);

/// The job this process claimed as its detached run ([`claim`]), and how to record its
/// progress.
static CLAIMED: OnceLock<(&'static str, RecordProgress)> = OnceLock::new();

/// The id of the job this process runs, once it claimed it (see [`claim`]), and how to record
/// its progress.
pub(crate) fn claimed() -> Option<(&'static str, RecordProgress)> {
    CLAIMED.get().copied()
}

/// The words of the status and cancel commands of job `id`.
fn commands_of(registry: &Registry, id: &str) -> (String, String) {
    let prefix = pas_spec::surface::of(registry.profile)
        .invocation_prefix(registry)
        .join(" ");
    (
        format!("{prefix} job status {id}"),
        format!("{prefix} job cancel {id}"),
    )
}

/// The process's argv for the detached run: as given, less `--cwd DIR` (the run starts in
/// the directory the call already entered).
fn run_argv() -> Vec<OsString> {
    let mut argv = Vec::new();
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--cwd" {
            args.next();
            continue;
        }
        if arg.as_encoded_bytes().starts_with(b"--cwd=") {
            continue;
        }
        argv.push(arg);
    }
    argv
}

/// The argv a job's manifest keeps: the tool's name, then the call's words with every secret
/// value redacted (a manifest is a file on disk; the detached run re-executes the process's
/// own argv, not this).
fn shown_argv(
    redactor: &crate::guards::redact::Redactor,
    name: &str,
    argv: &[OsString],
) -> Vec<String> {
    let full: Vec<OsString> = std::iter::once(OsString::from(name))
        .chain(argv.iter().cloned())
        .collect();
    redactor.argv(&full)
}

/// Starts `command` as a job and answers its descriptor. The run re-executes this process's
/// own argv ([`run_argv`]), or `words` when given: the call's words after the tool's name, for
/// a call that did not come from argv (an MCP `tools/call` that became a task). Such a caller
/// lives on after the call, so it also reaps the run when it ends (no zombie is left).
pub(crate) fn start(
    registry: &Registry,
    command: &Command,
    stdin: Option<&[u8]>,
    words: Option<&[OsString]>,
    redactor: &crate::guards::redact::Redactor,
) -> Result<Value, Error> {
    let root = store::root(&registry.name, true)?
        .ok_or_else(|| Error::internal("the job store could not be opened"))?;
    store::prune(&root);
    let id = store::new_id();
    let (status_command, cancel_command) = commands_of(registry, &id);
    let argv = words.map_or_else(run_argv, <[OsString]>::to_vec);
    let now = std::time::SystemTime::now();
    let mut manifest = Manifest {
        id: id.clone(),
        command: command.name.clone(),
        argv: shown_argv(redactor, &registry.name, &argv),
        pid: None,
        pid_start: None,
        pgid: None,
        status: Status::Queued,
        started_at: crate::time::rfc3339(now),
        started_ms: store::now_ms(),
        ended_at: None,
        poll_interval_ms: command.job_poll_interval_ms(),
        timeout_ms: command.job_timeout_ms(),
        status_command,
        cancel_command,
        progress_pct: None,
        result: None,
        error: None,
    };
    store::write(&root, &manifest)?;
    let dir = root.path().join(&id);
    let input = match stdin {
        Some(bytes) => {
            root.write(format!("{id}/stdin"), bytes)?;
            Stdio::from(open(&dir.join("stdin"), false)?)
        }
        None => Stdio::null(),
    };
    let exe = std::env::current_exe().map_err(|err| {
        Error::general(format!(
            "cannot find this executable to start the job: {err}"
        ))
    })?;
    let mut run = std::process::Command::new(exe);
    run.args(&argv)
        .env(RUN_ENV, &id)
        // The job's own limit (timeoutMs) bounds the run, not the call's default.
        .env(crate::guards::deadline::TIMEOUT_ENV, "0")
        .stdin(input)
        .stdout(open(&dir.join("stdout"), true)?)
        .stderr(open(&dir.join("stderr"), true)?);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        run.process_group(0);
    }
    // The run outlives this call: the runtime must not end it with the call's children.
    crate::services::children::descendants::STARTED.store(true, Ordering::SeqCst);
    crate::services::children::descendants::keep();
    let child = match run.spawn() {
        Ok(child) => child,
        Err(err) => {
            let error = Error::general(format!("cannot start the job: {err}"))
                .with_suggestion("add --wait to run the command in the foreground");
            manifest.status = Status::Failed;
            manifest.ended_at = Some(crate::time::now());
            manifest.error = Some(error_value(&error));
            store::write(&root, &manifest)?;
            return Err(error);
        }
    };
    let pid = i32::try_from(child.id()).unwrap_or(0);
    manifest.pid = Some(pid);
    manifest.pid_start = crate::services::children::descendants::start_time(pid);
    // `process_group(0)`: the run leads a group of its own, whose id is its pid.
    #[cfg(unix)]
    {
        manifest.pgid = Some(pid);
    }
    manifest.status = Status::Running;
    store::write(&root, &manifest)?;
    match words {
        // A server goes on after the call: a thread of its own waits for the run's end.
        Some(_) => reap(child),
        // Not waited for: the run is a job of its own, reparented when this call exits.
        None => drop(child),
    }
    Ok(descriptor(&manifest))
}

/// Waits for a run's end on a thread of its own, so that a long-lived caller (the MCP server)
/// keeps no zombie of each job it started. If no thread can be had, the run is left as the
/// command line leaves it (reaped when the caller exits).
fn reap(mut child: std::process::Child) {
    let _ = std::thread::Builder::new()
        .name("job-reaper".into())
        .spawn(move || child.wait());
}

fn open(path: &std::path::Path, create: bool) -> Result<std::fs::File, Error> {
    let opened = match create {
        true => std::fs::File::create(path),
        false => std::fs::File::open(path),
    };
    opened.map_err(|err| Error::general(format!("cannot open {}: {err}", path.display())))
}

/// Whether this process is the detached run of job `id`: it waits until the starter recorded
/// the run's pid, and answers yes only when that pid is this process's (a process the job
/// started, which inherits [`RUN_ENV`], is not the run). The run then arms the job's time
/// limit. Called before the handler runs.
pub(crate) fn claim(registry: &Registry, id: &'static str) -> bool {
    let Ok(Some(root)) = store::root(&registry.name, false) else {
        return false;
    };
    let me = i32::try_from(std::process::id()).unwrap_or(0);
    let mut manifest = None;
    for _ in 0..500 {
        match store::read(&root, id) {
            Ok(Some(m)) if m.status.terminal() => return false,
            Ok(Some(m)) if m.pid == Some(me) => {
                manifest = Some(m);
                break;
            }
            Ok(Some(m)) if m.pid.is_some() => return false,
            Ok(Some(_)) => std::thread::sleep(Duration::from_millis(10)),
            _ => return false,
        }
    }
    let Some(manifest) = manifest else {
        return false;
    };
    let _ = CLAIMED.set((id, record_progress));
    let deadline = manifest.started_ms.saturating_add(manifest.timeout_ms);
    let id = id.to_owned();
    std::thread::spawn(move || {
        let left = deadline.saturating_sub(store::now_ms());
        std::thread::sleep(Duration::from_millis(left));
        let _ = end(&root, &id, Status::TimedOut, None, Some(timed_out_error()));
        // Ends the whole job: this process leads its group, and what it started is in it.
        // Only a group this process leads, and never as pid 1 (kill(-1) is every process).
        #[cfg(unix)]
        {
            let me = rustix::process::getpid();
            if me.as_raw_nonzero().get() > 1 && rustix::process::getpgrp() == me {
                let _ = rustix::process::kill_process_group(me, rustix::process::Signal::KILL);
            }
        }
        // The exit of a timed-out call (the manifest says timed_out).
        std::process::exit(124);
    });
    true
}

fn timed_out_error() -> Value {
    json!({
        "code": pas_spec::builtin_codes::JOB_TIMED_OUT,
        "message": "the job ran past its time limit (timeout_ms) and was ended",
    })
}

/// Records how the job ended, unless it already has (a cancel or the time limit won).
pub(crate) fn end(
    root: &crate::services::store::Root,
    id: &str,
    status: Status,
    result: Option<Value>,
    error: Option<Value>,
) -> Result<(), Error> {
    let Some(mut manifest) = store::read(root, id)? else {
        return Ok(());
    };
    if manifest.status.terminal() {
        return Ok(());
    }
    manifest.status = status;
    manifest.ended_at = Some(crate::time::now());
    manifest.result = result;
    manifest.error = error;
    store::write(root, &manifest)
}

/// The structured error a manifest keeps.
pub(crate) fn error_value(error: &Error) -> Value {
    let mut value = json!({ "code": error.code(), "message": error.message() });
    if let Some(suggestion) = error.suggestion() {
        value["suggestion"] = json!(suggestion);
    }
    if let Some(details) = error.details() {
        value["details"] = details.clone();
    }
    value
}

/// In a detached run: records the handler's outcome in the manifest and hands it on (the
/// result as one object, for the run's own stdout).
pub(crate) fn finish_run(
    registry: &Registry,
    id: &str,
    outcome: Result<Reply, Error>,
) -> Result<Reply, Error> {
    let root = store::root(&registry.name, false).ok().flatten();
    let outcome = outcome.and_then(value_of);
    if let Some(root) = root {
        let recorded = match &outcome {
            Ok(value) => end(&root, id, Status::Succeeded, Some(value.clone()), None),
            Err(error) => end(&root, id, Status::Failed, None, Some(error_value(error))),
        };
        recorded?;
    }
    outcome.map(|value| Reply::object(&value))
}

/// A reply as one JSON value: an object as is, a stream as the array of its items, a
/// document as its text, nothing as null.
fn value_of(reply: Reply) -> Result<Value, Error> {
    match reply.body {
        Body::Object(object) => {
            let bytes = object.json?;
            serde_json::from_slice(&bytes).map_err(crate::error::serialise_error)
        }
        Body::Stream(mut stream) => {
            let mut items = Vec::new();
            let mut buffer = Vec::new();
            while let Some(next) =
                (stream.next)(Encoding::Json, &mut crate::reply::ItemOut::new(&mut buffer))
            {
                next?;
                items.push(serde_json::from_slice(&buffer).map_err(crate::error::serialise_error)?);
                buffer.clear();
            }
            Ok(Value::Array(items))
        }
        Body::Document(text) => Ok(Value::String(text)),
        Body::Nothing => Ok(Value::Null),
    }
}

/// In a detached run: records the handler's progress (a whole percentage) in the manifest,
/// best effort (a progress report never fails the job).
pub(crate) fn record_progress(tool: &str, id: &str, percent: u64) {
    let Ok(Some(root)) = store::root(tool, false) else {
        return;
    };
    if let Ok(Some(mut manifest)) = store::read(&root, id)
        && !manifest.status.terminal()
    {
        manifest.progress_pct = Some(percent as f64);
        let _ = store::write(&root, &manifest);
    }
}

/// The job's descriptor: what its start answers, and what `status` and `list` show.
pub(crate) fn descriptor(manifest: &Manifest) -> Value {
    let mut value = json!({
        "job_id": manifest.id,
        "command": manifest.command,
        "status": manifest.status,
        "terminal": manifest.status.terminal(),
        "status_command": manifest.status_command,
        "cancel_command": manifest.cancel_command,
        "poll_interval_ms": manifest.poll_interval_ms,
        "timeout_ms": manifest.timeout_ms,
        "started_at": manifest.started_at,
    });
    if let Some(ended) = &manifest.ended_at {
        value["ended_at"] = json!(ended);
    }
    if let Some(pct) = manifest.progress_pct {
        value["progress_pct"] = json!(pct);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job's manifest is a file on disk: a secret flag's value never reaches it.
    #[test]
    fn the_manifest_keeps_the_argv_with_secrets_redacted() {
        let registry: Registry = serde_json::from_value(json!({
            "specVersion": 1, "name": "builder", "version": "1.0.0", "summary": "A test tool.",
            "commands": [{
                "name": "build", "description": "Builds.", "output": "job",
                "parameters": [{"name": "token", "type": "string", "secret": true, "description": "A token."}]
            }]
        }))
        .expect("the test registry");
        let redactor = crate::guards::redact::Redactor::new(&registry);
        let argv: Vec<OsString> = ["build", "--token", "hunter2-secret", "--token=also-secret"]
            .into_iter()
            .map(OsString::from)
            .collect();
        let shown = shown_argv(&redactor, "builder", &argv);
        assert_eq!(
            shown,
            [
                "builder",
                "build",
                "--token",
                crate::guards::redact::REDACTED,
                "--token=[REDACTED]"
            ]
        );
    }
}

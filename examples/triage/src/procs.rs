//! The processes triage may consider: the current user's, matching the scope, never PID 1 nor
//! triage itself. Identity is `start_id` = `<boot_id>:<start ticks>:<pid>`, so a reused PID
//! never passes for the process a plan saw.

use pas::Error;
use procfs::process::Process;
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// One process, as the plan and the candidates show it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Proc {
    pub pid: i32,
    pub start_id: String,
    pub uid: u32,
    pub cmd_short: String,
    pub cmd_full: String,
    pub state: String,
    pub age_seconds: u64,
    /// Start time in clock ticks after boot (orders processes by age).
    #[serde(skip)]
    pub start_ticks: u64,
    pub metrics: Metrics,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Metrics {
    pub cpu_seconds: f64,
    pub rss_mb: f64,
}

/// The `--match` scope: a non-empty regular expression (else an argument error).
pub fn scope(pattern: &str) -> Result<Regex, Error> {
    if pattern.trim().is_empty() {
        return Err(
            Error::new("ERR_ARGS", "--match is empty: triage needs a scope").with_suggestion(
                "give --match a regular expression of the command lines to consider",
            ),
        );
    }
    Regex::new(pattern).map_err(|e| {
        Error::new(
            "ERR_ARGS",
            format!("--match is not a regular expression: {e}"),
        )
        .with_details(json!({ "match": pattern }))
    })
}

fn boot_id() -> String {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|_| "unknown-boot".to_owned())
}

/// The current user's processes whose command line matches `scope`, oldest first.
pub fn scan(scope: &Regex) -> Result<Vec<Proc>, Error> {
    let me = std::process::id() as i32;
    // SAFETY: getuid(2) has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let boot = boot_id();
    let all = procfs::process::all_processes()
        .map_err(|e| Error::new("ERR_PERMISSION", format!("cannot list /proc: {e}")))?;
    let mut found = Vec::new();
    for process in all.flatten() {
        if process.pid == 1 || process.pid == me {
            continue;
        }
        // A process may end between the listing and these reads: it is simply not there.
        let Ok(owner) = process.uid() else { continue };
        if owner != uid {
            continue;
        }
        let Some(proc) = describe(&process, &boot, owner) else {
            continue;
        };
        if scope.is_match(&proc.cmd_full) {
            found.push(proc);
        }
    }
    found.sort_by_key(|p| (p.start_ticks, p.pid));
    Ok(found)
}

fn describe(process: &Process, boot: &str, uid: u32) -> Option<Proc> {
    let stat = process.stat().ok()?;
    let cmdline = process.cmdline().unwrap_or_default();
    let cmd_full = if cmdline.is_empty() {
        format!("[{}]", stat.comm)
    } else {
        cmdline.join(" ")
    };
    let ticks = procfs::ticks_per_second().max(1);
    let uptime = <procfs::Uptime as procfs::Current>::current()
        .map(|u| u.uptime)
        .unwrap_or(0.0);
    let started = stat.starttime as f64 / ticks as f64;
    let cmd_short: String = stat.comm.chars().take(32).collect();
    Some(Proc {
        pid: process.pid,
        start_id: format!("{boot}:{}:{}", stat.starttime, process.pid),
        uid,
        cmd_short,
        cmd_full,
        state: stat.state.to_string(),
        age_seconds: (uptime - started).max(0.0) as u64,
        start_ticks: stat.starttime,
        metrics: Metrics {
            cpu_seconds: (stat.utime + stat.stime) as f64 / ticks as f64,
            rss_mb: ((stat.rss * procfs::page_size()) as f64 / 1_048_576.0 * 100.0).round() / 100.0,
        },
    })
}

/// Command lines triage never pre-toggles, whatever `--protect` adds. Here, beside [`Rules`],
/// since the rules add them to every plan's when the plan is applied.
pub const DEFAULT_PROTECTED: &[&str] =
    &[r"^(\S*/)?(sshd|systemd|tmux|screen|gpg-agent|ssh-agent|dbus-daemon)(\s|$)"];

/// What a plan's scope allows: the `--match` regular expression and the protected patterns
/// (the defaults always, then the plan's `--protect`), as the session keeps them.
pub struct Rules {
    scope: Regex,
    protected: Vec<Regex>,
}

impl Rules {
    /// The rules of a plan: `scope` is its `--match`, `protect` its own `--protect` patterns
    /// (the defaults are added here, so a session file cannot drop them).
    pub fn new(scope: &str, protect: &[String]) -> Result<Rules, Error> {
        let scope = self::scope(scope)?;
        let mut protected = Vec::new();
        for pattern in DEFAULT_PROTECTED
            .iter()
            .copied()
            .chain(protect.iter().map(String::as_str))
        {
            protected.push(Regex::new(pattern).map_err(|e| {
                Error::new(
                    "ERR_ARGS",
                    format!("--protect is not a regular expression: {e}"),
                )
            })?);
        }
        Ok(Rules { scope, protected })
    }

    /// Why the process `pid` is now outside what the plan allows, if it is: PID 1 or triage
    /// itself, another user's, a command line the scope does not match, or a protected one.
    /// Read from /proc, never from the session (which is data a person can edit).
    pub fn refuses(&self, pid: i32) -> Option<&'static str> {
        if pid <= 1 || pid == std::process::id() as i32 {
            return Some("PID 1 and triage itself are never ended");
        }
        let Ok(process) = Process::new(pid) else {
            return None; // gone: the action finds it gone and signals nothing
        };
        // A process that has exited (a zombie) cannot be signalled into anything: the action
        // finds it gone.
        if process
            .stat()
            .is_ok_and(|stat| stat.state == 'Z' || stat.state == 'X')
        {
            return None;
        }
        let Ok(owner) = process.uid() else {
            return None;
        };
        // SAFETY: getuid(2) has no preconditions and cannot fail.
        if owner != unsafe { libc::getuid() } {
            return Some("it belongs to another user");
        }
        let cmd_full = match process.cmdline() {
            Ok(words) if !words.is_empty() => words.join(" "),
            _ => match process.stat() {
                Ok(stat) => format!("[{}]", stat.comm),
                Err(_) => return None,
            },
        };
        if !self.scope.is_match(&cmd_full) {
            return Some("its command line does not match the plan's --match");
        }
        if self.protected.iter().any(|p| p.is_match(&cmd_full)) {
            return Some("its command line matches a protected pattern");
        }
        None
    }
}

/// What a PID is now: its start_id, and whether it has exited (gone or a zombie).
pub fn now(pid: i32) -> Option<(String, bool)> {
    let process = Process::new(pid).ok()?;
    let stat = process.stat().ok()?;
    let start_id = format!("{}:{}:{pid}", boot_id(), stat.starttime);
    Some((start_id, stat.state == 'Z' || stat.state == 'X'))
}

/// Whether the process the plan saw is still running (same identity, not a zombie).
pub fn alive(pid: i32, start_id: &str) -> bool {
    matches!(now(pid), Some((id, exited)) if id == start_id && !exited)
}

/// Sends `signal` to `pid`.
pub fn signal(pid: i32, signal: i32) -> std::io::Result<()> {
    // SAFETY: kill(2) takes plain integers and touches no memory of ours; triage only calls it
    // for PIDs it checked (the user's own, matching the scope, never 1 nor itself, identity
    // rechecked just before).
    let rc = unsafe { libc::kill(pid, signal) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

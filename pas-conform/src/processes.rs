//! The process table and signals, read from `/proc` and sent through rustix (so the engine needs
//! no `unsafe`). Both the runner and `orphans` end processes with them, and the runner calls
//! `orphans`, so they sit below both.

/// One row of the process table: (pid, parent pid, process group).
pub(crate) fn process_table() -> Vec<(u32, u32, u32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
            let rest = &stat[stat.rfind(')')? + 1..];
            let mut fields = rest.split_whitespace().skip(1);
            let ppid = fields.next()?.parse().ok()?;
            let pgrp = fields.next()?.parse().ok()?;
            Some((pid, ppid, pgrp))
        })
        .collect()
}

/// One signal to many targets (`-PGID` for a group, `PID` for a process).
pub(crate) fn kill_all(signal: &str, targets: &[String]) {
    for target in targets {
        match target.strip_prefix('-') {
            Some(group) => send(group, signal, true),
            None => send(target, signal, false),
        }
    }
}

/// Sends a signal (`TERM`, `KILL`, ...) to the process group led by `pid`.
pub fn signal_group(pid: u32, signal: &str) {
    send(&pid.to_string(), signal, true);
}

/// Sends a signal to one process.
pub fn signal(pid: u32, signal: &str) {
    send(&pid.to_string(), signal, false);
}

/// `kill(2)` of a process, or of a group; a pid that names nothing (0, the caller's own group,
/// text) or a signal the engine does not send is ignored, as is a target already gone.
fn send(pid: &str, signal: &str, group: bool) {
    use rustix::process::{Pid, Signal};
    let signal = match signal {
        "TERM" => Signal::TERM,
        "KILL" => Signal::KILL,
        "INT" => Signal::INT,
        "HUP" => Signal::HUP,
        _ => return,
    };
    let Some(pid) = pid.parse::<i32>().ok().and_then(Pid::from_raw) else {
        return;
    };
    let _ = if group {
        rustix::process::kill_process_group(pid, signal)
    } else {
        rustix::process::kill_process(pid, signal)
    };
}

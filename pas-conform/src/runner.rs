//! Running the tool under test: one call with a bounded wait, its output collected.
//!
//! Every call runs in its own process group so that a timeout, or the SIGTERM check, reaches the
//! tool and anything it started (a shell script's children too); when the call ends, or times
//! out, the whole group is killed, and so is every descendant in a group or session of its own
//! (the pseudo-terminal calls), and every descendant that daemonised and was adopted by the
//! engine's process (`crate::orphans`), so a conformance run leaves no process behind.

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::processes::{kill_all, process_table};
// Still `runner::signal` to the crate's users; they live in `processes` so that `orphans`, which
// the runner calls, can send them without calling back into the runner.
pub use crate::processes::{signal, signal_group};

/// At most this much of a stream is kept; a tool that floods its output is still bounded.
const KEEP: usize = 8 << 20;

/// What the call's standard input is.
#[derive(Debug, Clone, PartialEq)]
pub enum Stdin {
    /// `/dev/null`: what an agent's harness usually gives.
    Null,
    /// A pipe that is written and closed.
    Bytes(Vec<u8>),
    /// A pipe that stays open and silent until the call ends: a reader would wait forever.
    Held,
}

/// One invocation: the words after the program's own argv prefix.
#[derive(Debug, Clone)]
pub struct Call {
    /// The arguments after the program.
    pub args: Vec<String>,
    /// Standard input.
    pub stdin: Stdin,
    /// The working directory (the scratch directory of examples).
    pub cwd: Option<PathBuf>,
    /// Environment variables this call sets on top of the program's (a locale, `COLUMNS`).
    pub env: Vec<(String, String)>,
}

impl Call {
    /// A call with `/dev/null` on stdin in the current directory.
    pub fn new<S: AsRef<str>>(args: &[S]) -> Call {
        Call {
            args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
            stdin: Stdin::Null,
            cwd: None,
            env: Vec::new(),
        }
    }

    /// The same call with these environment variables set.
    pub fn with_env(mut self, vars: &[(&str, &str)]) -> Call {
        self.env
            .extend(vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        self
    }

    /// The same call in this directory.
    pub fn in_dir(mut self, dir: Option<&Path>) -> Call {
        self.cwd = dir.map(Path::to_path_buf);
        self
    }

    /// The same call with this stdin.
    pub fn stdin(mut self, stdin: Stdin) -> Call {
        self.stdin = stdin;
        self
    }
}

/// What a call did.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// The whole argv, program first.
    pub argv: Vec<String>,
    /// The exit code, when the process exited.
    pub code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    /// Standard output (for a pty call: the terminal's whole screen).
    pub stdout: Vec<u8>,
    /// Standard error.
    pub stderr: Vec<u8>,
    /// The call did not end within the timeout and was killed.
    pub timed_out: bool,
    /// How long it ran.
    pub elapsed: Duration,
    /// Why the program could not be started (then nothing else is known).
    pub not_started: Option<String>,
}

impl Run {
    /// stdout as text (lossy).
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// stderr as text (lossy).
    pub fn err(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// The call exited with this code.
    pub fn exited(&self, code: i32) -> bool {
        !self.timed_out && self.code == Some(code)
    }

    /// A short description of how the call ended.
    pub fn status(&self) -> String {
        match (self.timed_out, self.code, self.signal) {
            (true, _, _) => "timed out".to_owned(),
            (_, Some(code), _) => format!("exit {code}"),
            (_, None, Some(signal)) => format!("killed by signal {signal}"),
            _ => "ended".to_owned(),
        }
    }
}

/// The process under test: its argv prefix (the program and any fixed arguments).
#[derive(Debug, Clone)]
pub struct Program {
    /// The program and its fixed arguments, e.g. `["python3", "good.py"]`.
    pub prefix: Vec<String>,
    /// How long any one call may take.
    pub timeout: Duration,
    /// Environment variables every call gets (the scratch directory's XDG homes).
    pub env: Vec<(String, String)>,
}

impl Program {
    /// The whole argv of a call.
    pub fn argv(&self, args: &[String]) -> Vec<String> {
        self.prefix.iter().chain(args).cloned().collect()
    }

    /// Starts a call and returns the child with piped stdout and stderr (stdin as asked; a held
    /// stdin is the child's to keep).
    pub fn spawn(&self, call: &Call) -> std::io::Result<Child> {
        let argv = self.argv(&call.args);
        let mut command = Command::new(&argv[0]);
        command
            .args(&argv[1..])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .stdin(match call.stdin {
                Stdin::Null => Stdio::null(),
                Stdin::Bytes(_) | Stdin::Held => Stdio::piped(),
            })
            // A conformance run never inherits agent mode or colour settings: each check says
            // what it wants, and human help must stay human.
            .env_remove("PAS_AGENT")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .envs(call.env.iter().map(|(k, v)| (k, v)))
            .process_group(0);
        if let Some(dir) = &call.cwd {
            command.current_dir(dir);
        }
        // What the call leaves behind when it daemonises comes back to this process.
        crate::orphans::adopt();
        let child = command.spawn()?;
        crate::orphans::started(child.id());
        Ok(child)
    }

    /// Runs a call to its end or to the timeout, whichever comes first.
    pub fn run(&self, call: &Call) -> Run {
        let argv = self.argv(&call.args);
        let started = Instant::now();
        let mut child = match self.spawn(call) {
            Ok(child) => child,
            Err(err) => {
                let why = format!("cannot start {}: {err}", self.prefix[0]);
                return Run {
                    argv,
                    stderr: why.clone().into_bytes(),
                    not_started: Some(why),
                    ..Run::default()
                };
            }
        };
        // A held stdin stays open (and silent) until the call is over.
        let mut held = None;
        if let Some(mut stdin) = child.stdin.take() {
            match &call.stdin {
                Stdin::Bytes(bytes) => {
                    let bytes = bytes.clone();
                    // Written from a thread: a tool that never reads must not block us.
                    thread::spawn(move || {
                        let _ = stdin.write_all(&bytes);
                    });
                }
                _ => held = Some(stdin),
            }
        }
        let out = collect(child.stdout.take());
        let err = collect(child.stderr.take());
        let (status, timed_out) = wait(&mut child, self.timeout);
        drop(held);
        Run {
            argv,
            code: status.and_then(|s| s.code()),
            signal: status.and_then(|s| s.signal()),
            stdout: out.join().unwrap_or_default(),
            stderr: err.join().unwrap_or_default(),
            timed_out,
            elapsed: started.elapsed(),
            not_started: None,
        }
    }

    /// Runs a call on a pseudo-terminal (util-linux `script`): stdin, stdout and stderr are the
    /// terminal, and the screen comes back as stdout. Stdin of `script` is held open, so a tool
    /// that reads the terminal waits, as it would for a person.
    pub fn run_on_pty(&self, args: &[String]) -> Run {
        let line = shell_words::join(self.argv(args));
        let script = Program {
            prefix: vec!["script".into(), "-qec".into(), line, "/dev/null".into()],
            timeout: self.timeout,
            env: self.env.clone(),
        };
        let mut run = script.run(&Call::new::<&str>(&[]).stdin(Stdin::Held));
        run.argv = self.argv(args);
        run
    }
}

/// Reads a stream to its end on a thread, keeping at most [`KEEP`] bytes.
fn collect<R: Read + Send + 'static>(stream: Option<R>) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut kept = Vec::new();
        let Some(mut stream) = stream else {
            return kept;
        };
        let mut buf = [0u8; 8192];
        loop {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = KEEP.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        kept
    })
}

/// Waits for the child up to `timeout`; past it, kills everything it started (see
/// [`kill_tree`]). Once it ended, whatever is left of its process group (a shell's background
/// child, a child that ignored the signals) is killed too, and so is every descendant it left
/// in a session of its own (`setsid`, a double fork: see `crate::orphans`): a call never
/// outlives its check.
pub fn wait(child: &mut Child, timeout: Duration) -> (Option<std::process::ExitStatus>, bool) {
    let deadline = Instant::now() + timeout;
    let (status, timed_out) = loop {
        match child.try_wait() {
            Ok(Some(status)) => break (Some(status), false),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            _ => {
                kill_tree(child.id());
                break (child.wait().ok(), true);
            }
        }
    };
    crate::orphans::reaped(child.id());
    kill_leftovers(child.id());
    crate::orphans::end_adopted();
    (status, timed_out)
}

/// Kills `pid`, its process group, and every descendant with its own process group: a call
/// on a pseudo-terminal (`script`) runs the tool in a session of its own, which a signal to
/// `script`'s group does not reach, and a tool that ignores SIGHUP would outlive the terminal.
pub fn kill_tree(pid: u32) {
    let table = process_table();
    let mut tree = vec![pid];
    let mut next = 0;
    while let Some(&parent) = tree.get(next) {
        next += 1;
        for (child, ppid, _) in &table {
            if *ppid == parent && !tree.contains(child) {
                tree.push(*child);
            }
        }
    }
    let mut groups: Vec<u32> = vec![pid];
    for (member, _, pgrp) in &table {
        if tree.contains(member) && !groups.contains(pgrp) && *pgrp > 1 {
            groups.push(*pgrp);
        }
    }
    let mut targets: Vec<String> = groups.iter().map(|g| format!("-{g}")).collect();
    targets.extend(tree.iter().map(u32::to_string));
    kill_all("KILL", &targets);
}

/// After the call's process ended: kills what still runs in its process group (the group
/// keeps the leader's id after the leader is gone).
fn kill_leftovers(pid: u32) {
    if process_table().iter().any(|(_, _, pgrp)| *pgrp == pid) {
        signal_group(pid, "KILL");
    }
}

//! `--idempotency-key KEY` on every command that changes something (CLI Agent Spec failure
//! mode 12, REQ-C-007), in every profile and over MCP: a key makes its call run **at most
//! once**.
//!
//! - **What a key stands for.** The whole effective input of the call ([`identity`]): the
//!   command, every argument's value however it was given (flag, environment, configuration
//!   file, default), stdin, the working directory and the tool's data directory. The same key
//!   with other input (another `--db`, another `TODO_DB`, another config file's db) is
//!   `ARGUMENT_CONFLICT` (exit 2, `details.reason: "IDEMPOTENCY_KEY_REUSED"`): a reply from one
//!   store is never replayed for another. Records are kept per tool, not per store, under
//!   `$XDG_STATE_HOME/<tool>/idempotency/` ([`slot`]).
//! - **Reserved before the handler runs.** The call takes the key's lock (an advisory `flock`
//!   the kernel drops when the process ends) and writes a `pending` record, atomically, before
//!   its handler runs; a record that cannot be written fails the call then
//!   (`GENERAL_ERROR`, `details.reason: "IDEMPOTENCY_NOT_RESERVED"`), before any effect. On
//!   success the record becomes `done` with the reply; on a handler error it is removed (the
//!   handler said it failed, so a retry runs again).
//! - **Concurrent repeats wait** for the first call (up to [`WAIT`]) and then replay its
//!   result; past that they get `GENERAL_ERROR` with `details.reason:
//!   "IDEMPOTENCY_KEY_IN_PROGRESS"`, `retryable` and `retry_after_ms`.
//! - **A repeat replays.** With the same key and input the handler does not run: the recorded
//!   data goes through the profile with the effect `noop`, marked `replayed` (see
//!   `crate::effect`).
//! - **A crashed first call is never run again.** A `pending` record whose lock is free was
//!   left by a call that ended (killed, crashed) between reserving and recording: its effect
//!   may or may not have happened, so a repeat answers `GENERAL_ERROR` with `details.reason:
//!   "IDEMPOTENCY_OUTCOME_UNKNOWN"` (not retryable, a hint naming a read command to check
//!   with; a new key is a new operation). Never two effects, never an acknowledged one lost.
//! - **A record that cannot be read** (cut, garbage, a link, a FIFO, over
//!   [`slot::RECORD_MAX`]) is an error naming it (`details.reason:
//!   "IDEMPOTENCY_RECORD_UNREADABLE"`), never a fresh run.
//!
//! A dry run neither replays nor records. Secrets are redacted before a record is written. A
//! streamed result is collected for its record (keyed calls are the retried mutations, rarely
//! long lists).

pub(crate) mod identity;
pub(crate) mod slot;
#[cfg(test)]
pub(crate) mod tests;

use std::fs::File;
use std::time::{Duration, SystemTime};

use pas_spec::{Command, Registry};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::codes;
use crate::effect::Change;
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::reply::{Body, Encoding, Object, Page, Reply, Stream, StreamKind};

use slot::Slot;

/// The clap id of the runtime's `--idempotency-key`.
pub(crate) const KEY_ID: &str = "pas_idempotency_key";

/// `details.reason` of the error a reused key with other input ends with.
pub(crate) const KEY_REUSED: &str = "IDEMPOTENCY_KEY_REUSED";

/// `details.reason` of a repeat that waited [`WAIT`] for the first call, still running.
pub(crate) const IN_PROGRESS: &str = "IDEMPOTENCY_KEY_IN_PROGRESS";

/// `details.reason` of a repeat whose first call ended before recording its outcome.
pub(crate) const OUTCOME_UNKNOWN: &str = "IDEMPOTENCY_OUTCOME_UNKNOWN";

/// `details.reason` of a repeat whose first call's reply was too large to keep.
pub(crate) const REPLY_NOT_KEPT: &str = "IDEMPOTENCY_REPLY_NOT_KEPT";

/// The longest key taken (a caller's UUID or hash fits many times over).
const KEY_MAX: usize = 256;

/// How long a repeat waits for a first call with its key that is still running.
pub(crate) const WAIT: Duration = Duration::from_secs(30);

/// What a keyed call does before its handler would run.
pub(crate) enum Begin {
    /// No key (or a dry run): the call runs as usual and records nothing.
    Unkeyed,
    /// A key never used, now reserved: the call runs, and its success is recorded.
    Fresh(Keyed),
    /// A repeat: the recorded reply, to render instead of running the handler.
    Replay(Reply),
}

/// A fresh keyed call: its reservation (held until the record is written or the call ends)
/// and what its record says.
pub(crate) struct Keyed {
    slot: Slot,
    /// The key's lock: dropped (released) once the outcome is recorded, or when the process
    /// ends, whichever comes first.
    _lock: File,
    key: String,
    command: String,
    input: String,
}

/// Where a record stands.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
enum State {
    /// Reserved: the call that wrote it was about to run its handler.
    Pending,
    /// The handler succeeded, and `reply` is what it answered.
    #[default]
    Done,
}

#[derive(Serialize, Deserialize)]
struct Record {
    key: String,
    command: String,
    /// SHA-256 of the call's effective input (see [`identity`]), hex.
    input: String,
    #[serde(default)]
    state: State,
    /// The process that reserved the key (a pending record), for the unknown-outcome error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    owner: Option<Owner>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    effect: Option<Change>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reply: Option<Recorded>,
}

#[derive(Serialize, Deserialize)]
struct Owner {
    pid: u32,
    started: String,
}

/// A reply as recorded: the JSON the profile was given, item by item for streams.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Recorded {
    Object {
        json: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    List {
        items: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        page: Option<RecordedPage>,
    },
    Events {
        items: Vec<String>,
    },
    Document {
        markdown: String,
    },
    Nothing,
    /// The reply was larger than a record may be ([`slot::RECORD_MAX`]): the call succeeded,
    /// and a repeat says so without its data.
    Omitted {
        bytes: u64,
    },
}

#[derive(Serialize, Deserialize)]
struct RecordedPage {
    total: Option<u64>,
    has_more: bool,
    next_cursor: Option<String>,
}

/// Adds `--idempotency-key <KEY>` to every command that changes something (the faces list it:
/// `pas_spec::faces::command_switches`).
pub(crate) fn augment(
    mut cmd: clap::Command,
    registry: &pas_spec::Registry,
    verbs: &[std::sync::Arc<Command>],
) -> clap::Command {
    let declared = registry.commands.iter();
    for command in declared.chain(verbs.iter().map(|v| &**v)) {
        if !pas_spec::faces::takes_idempotency_key(command) {
            continue;
        }
        cmd = crate::parse::clap_augment::at_path(cmd, &command.argv_path(), &mut |sub| {
            let long = pas_spec::faces::IDEMPOTENCY_KEY_FLAG;
            if sub.get_arguments().any(|a| a.get_long() == Some(long)) {
                return sub;
            }
            // From the row the faces list for the command.
            sub.args(crate::parse::flag_args::command_arg(
                KEY_ID, registry, command, long,
            ))
        });
    }
    cmd
}

/// The call's key, when the command takes one and the call gave it (a dry run has none).
pub(crate) fn given<'m>(
    command: &Command,
    leaf: &'m clap::ArgMatches,
    dry_run: bool,
) -> Option<&'m String> {
    if dry_run || !pas_spec::faces::takes_idempotency_key(command) {
        return None;
    }
    leaf.try_get_one::<String>(KEY_ID).ok().flatten()
}

/// Reads the call's key and decides: run as usual, reserve and run, or replay (see the module
/// docs). `matches` are the whole call's, `leaf` the command's; `stdin` what the handler reads.
pub(crate) fn begin(
    registry: &Registry,
    command: &Command,
    matches: &clap::ArgMatches,
    leaf: &clap::ArgMatches,
    stdin: Option<&[u8]>,
    dry_run: bool,
) -> Result<Begin, Error> {
    let Some(key) = given(command, leaf, dry_run) else {
        return Ok(Begin::Unkeyed);
    };
    if key.trim().is_empty() || key.len() > KEY_MAX || key.chars().any(char::is_control) {
        return Err(Error::new(
            codes::INVALID_VALUE,
            format!("--idempotency-key takes 1 to {KEY_MAX} printable characters"),
        )
        .with_suggestion("use one key per logical operation, e.g. a UUID"));
    }
    let tool = &registry.name;
    let dir = crate::xdg::state_home()
        .ok_or_else(|| {
            Error::general("--idempotency-key needs a state directory, and HOME is not set")
                .with_suggestion("set HOME or XDG_STATE_HOME")
        })?
        .join(tool)
        .join("idempotency");
    let call = Begun {
        registry,
        command,
        matches,
        stdin,
        key,
    };
    call.reserve(&dir, WAIT)
}

/// A keyed call about to run, with what [`begin`] found.
struct Begun<'a> {
    registry: &'a Registry,
    command: &'a Command,
    matches: &'a clap::ArgMatches,
    stdin: Option<&'a [u8]>,
    key: &'a String,
}

impl Begun<'_> {
    /// Replays, refuses, or reserves the key in `dir` (waiting up to `wait` for a call that
    /// holds it).
    fn reserve(self, dir: &std::path::Path, wait: Duration) -> Result<Begin, Error> {
        let Begun {
            registry,
            command,
            matches,
            stdin,
            key,
        } = self;
        let tool = &registry.name;
        let name = hex(&Sha256::digest(key.as_bytes()))[..32].to_owned();
        let slot = Slot::open(dir, name, key)?;
        let cwd = std::env::current_dir().ok();
        let data = crate::xdg::data_home().map(|home| home.join(tool));
        let input = identity::Input {
            command: &command.name,
            matches,
            stdin,
            cwd: cwd.as_deref(),
            data: data.as_deref(),
        }
        .hash();
        let call = Call {
            registry,
            key,
            command: &command.name,
            input: &input,
            wait,
        };
        // A finished record answers at once, without waiting for anyone.
        if let Some(record) = read(&slot)?
            && record.state == State::Done
        {
            return call.replay(&slot, record);
        }
        let Some(lock) = slot.lock(wait)? else {
            return Err(call.in_progress(read(&slot).ok().flatten()));
        };
        // Holding the lock: no other call with this key is running now.
        match read(&slot)? {
            None => {}
            Some(record) if record.state == State::Done => return call.replay(&slot, record),
            Some(record) => return Err(call.unknown(&slot, &record)),
        }
        let pending = Record {
            key: key.clone(),
            command: command.name.clone(),
            input: input.clone(),
            state: State::Pending,
            owner: Some(Owner {
                pid: std::process::id(),
                started: crate::time::rfc3339_millis(SystemTime::now()),
            }),
            effect: None,
            reply: None,
        };
        let bytes = serde_json::to_vec(&pending).map_err(|err| Error::internal(err.to_string()))?;
        slot.write(&bytes)
            .map_err(|error| slot::not_reserved(&slot.record_path(), key, error.message()))?;
        Ok(Begin::Fresh(Keyed {
            slot,
            _lock: lock,
            key: key.clone(),
            command: command.name.clone(),
            input,
        }))
    }
}

/// The record of a slot, parsed: a record that does not parse is an error naming it.
fn read(slot: &Slot) -> Result<Option<Record>, Error> {
    let Some(bytes) = slot.read()? else {
        return Ok(None);
    };
    let record = serde_json::from_slice::<Record>(&bytes)
        .map_err(|err| slot.unreadable(&format!("it is not an idempotency record ({err})")))?;
    if record.state == State::Done && record.reply.is_none() {
        return Err(slot.unreadable("it is finished but holds no reply"));
    }
    Ok(Some(record))
}

/// What `cleanup` does with the runtime's records: a finished record goes (its key may then
/// run again: the caller asked to forget it), and three kinds stay, counted, since removing them
/// could run a call twice: a record whose key a running call holds, a `pending` record nobody
/// holds (its call ended before recording how: the outcome is unknown), and a record that
/// cannot be read (no evidence that its call did not happen). Lock files stay: removing one a
/// waiting call has open would let a second caller lock a new file beside it.
#[derive(Serialize, Default, Debug, PartialEq, Eq)]
pub(crate) struct Forgotten {
    /// Finished records removed (or, in a dry run, that would be).
    pub(crate) removed: u64,
    /// Their bytes.
    pub(crate) bytes: u64,
    /// Kept: a running call holds the key.
    pub(crate) running: u64,
    /// Kept: pending, nobody holds it.
    pub(crate) outcome_unknown: u64,
    /// Kept: not a record the runtime can read.
    pub(crate) unreadable: u64,
}

/// Forgets the finished records in `dir` (the tool's `idempotency` directory), or with `dry`
/// counts what that would remove; see [`Forgotten`]. A missing directory holds nothing.
pub(crate) fn forget_finished(dir: &std::path::Path, dry: bool) -> Result<Forgotten, Error> {
    let mut done = Forgotten::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(err) => {
            return Err(Error::general(format!(
                "the idempotency records in {} cannot be listed: {err}",
                dir.display()
            )));
        }
    };
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".json").map(str::to_owned))
        .collect();
    names.sort();
    for name in names {
        let slot = Slot::open(dir, name.clone(), &name)?;
        let Some(_lock) = slot.lock(Duration::ZERO)? else {
            done.running += 1;
            continue;
        };
        match read(&slot) {
            Ok(None) => {}
            Ok(Some(record)) if record.state == State::Pending => done.outcome_unknown += 1,
            Ok(Some(_)) => {
                let bytes = std::fs::symlink_metadata(slot.record_path()).map_or(0, |m| m.len());
                if !dry {
                    slot.remove()?;
                }
                done.removed += 1;
                done.bytes += bytes;
            }
            Err(_) => done.unreadable += 1,
        }
    }
    Ok(done)
}

/// A keyed call, for the answers a repeat gets.
struct Call<'a> {
    registry: &'a Registry,
    key: &'a str,
    command: &'a str,
    input: &'a str,
    /// How long a repeat waits for a first call still running.
    wait: Duration,
}

impl Call<'_> {
    /// The recorded reply of the same call, or the conflict of another call with the same key.
    fn replay(&self, slot: &Slot, record: Record) -> Result<Begin, Error> {
        self.same(&record)?;
        let Some(recorded) = record.reply else {
            return Err(slot.unreadable("it is finished but holds no reply"));
        };
        match recorded.into_reply() {
            Ok(reply) => Ok(Begin::Replay(reply)),
            Err(bytes) => Err(Error::general(format!(
                "the first call with the idempotency key `{}` succeeded, and its reply ({bytes} bytes) was too large to keep for a replay",
                self.key
            ))
            .with_suggestion(format!(
                "the effect happened once; read the result with {}",
                self.read_command()
            ))
            .with_details(serde_json::json!({
                "reason": REPLY_NOT_KEPT,
                "idempotency_key": self.key,
                "effect": record.effect,
                "path": slot.record_path().display().to_string(),
            }))),
        }
    }

    /// `ARGUMENT_CONFLICT` when the record is another call's.
    fn same(&self, record: &Record) -> Result<(), Error> {
        if record.key == self.key && record.command == self.command && record.input == self.input {
            return Ok(());
        }
        let first = &record.command;
        let message = if *first == self.command {
            format!(
                "the idempotency key `{}` was used with other input for {first} (other arguments, stdin, store, configuration or working directory)",
                self.key
            )
        } else {
            format!(
                "the idempotency key `{}` was used for {first}, not {}",
                self.key, self.command
            )
        };
        Err(Error::new(codes::ARGUMENT_CONFLICT, message)
            .with_suggestion("use a new key for a new operation; repeat a call with its own key")
            .with_details(serde_json::json!({
                "reason": KEY_REUSED,
                "idempotency_key": self.key,
                "command": first,
            })))
    }

    /// The first call with the key still runs after the wait.
    fn in_progress(&self, record: Option<Record>) -> Error {
        let owner = record.as_ref().and_then(|r| r.owner.as_ref());
        let who = owner.map_or(String::new(), |o| {
            format!(" (pid {}, since {})", o.pid, o.started)
        });
        Error::general(format!(
            "a call with the idempotency key `{}` is still running{who}; waited {} ms for it",
            self.key,
            self.wait.as_millis()
        ))
        .with_suggestion(
            "repeat the same call with the same key later: it answers the first call's result once that has finished",
        )
        .with_retry_after_ms(1000)
        .with_details(serde_json::json!({
            "reason": IN_PROGRESS,
            "idempotency_key": self.key,
            "pid": owner.map(|o| o.pid),
            "started": owner.map(|o| &o.started),
        }))
    }

    /// A pending record nobody holds: its call ended before recording how.
    fn unknown(&self, slot: &Slot, record: &Record) -> Error {
        if let Err(reused) = self.same(record) {
            return reused;
        }
        let owner = record.owner.as_ref();
        let who = owner.map_or(String::new(), |o| {
            format!(" (pid {}, started {})", o.pid, o.started)
        });
        Error::general(format!(
            "the first call with the idempotency key `{}`{who} ended before its outcome was recorded: its effect may or may not have happened, so it is not run again",
            self.key
        ))
        .with_suggestion(format!(
            "check the current state with {}; if the effect is missing, repeat the call with a new key",
            self.read_command()
        ))
        .with_retryable(false)
        .with_details(serde_json::json!({
            "reason": OUTCOME_UNKNOWN,
            "idempotency_key": self.key,
            "command": record.command,
            "pid": owner.map(|o| o.pid),
            "started": owner.map(|o| &o.started),
            "path": slot.record_path().display().to_string(),
        }))
    }

    /// A command that reads the tool's state, for hints: the first one whose effect is `read`.
    fn read_command(&self) -> String {
        let registry = self.registry;
        let read = registry
            .commands
            .iter()
            .find(|c| c.effect == pas_spec::Effect::Read && !c.argv_path().is_empty());
        match read {
            Some(c) => format!("`{} {}`", registry.name, c.argv_path().join(" ")),
            None => "a command that reads the state it changes".to_owned(),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Keyed {
    /// The handler failed: the reservation is removed, so a retry runs again (the handler
    /// said it did not succeed). When it cannot be removed, a retry answers that the outcome
    /// is unknown, which is true of a failure too.
    pub(crate) fn abandon(self) {
        let _ = self.slot.remove();
    }

    /// Records a handler's successful reply (secrets redacted), releases the key and returns
    /// the reply to render. A stream that fails half-way, or a reply that cannot be encoded,
    /// is not recorded: the reservation stays, and a repeat answers that the outcome is
    /// unknown (something may have happened). A record that cannot be written is a warning
    /// saying the same.
    /// `redactor` is the call's, when it has secret values to take out.
    pub(crate) fn record(
        self,
        redactor: Option<Redactor>,
        reply: Reply,
        effect: Option<Change>,
    ) -> (Reply, Option<crate::warning::Warning>) {
        let clean = |text: &str| match &redactor {
            Some(r) => r
                .output(text.as_bytes(), true)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_else(|| text.to_owned()),
            None => text.to_owned(),
        };
        let (reply, recorded) = match reply.body {
            Body::Object(object) => {
                let recorded = match &object.json {
                    Ok(json) => Some(Recorded::Object {
                        json: clean(&String::from_utf8_lossy(json)),
                        text: object.human.as_deref().map(|t| match &redactor {
                            Some(r) => r.text(t),
                            None => t.to_owned(),
                        }),
                    }),
                    Err(_) => None,
                };
                (
                    Reply {
                        body: Body::Object(object),
                    },
                    recorded,
                )
            }
            Body::Document(markdown) => {
                let recorded = Recorded::Document {
                    markdown: match &redactor {
                        Some(r) => r.text(&markdown),
                        None => markdown.clone(),
                    },
                };
                (
                    Reply {
                        body: Body::Document(markdown),
                    },
                    Some(recorded),
                )
            }
            Body::Nothing => (Reply::none(), Some(Recorded::Nothing)),
            Body::Stream(mut stream) => {
                let mut items = Vec::new();
                let mut failed = None;
                let mut buf = Vec::new();
                while let Some(next) =
                    (stream.next)(Encoding::Json, &mut crate::reply::ItemOut::new(&mut buf))
                {
                    match next {
                        Ok(()) => items.push(String::from_utf8_lossy(&buf).into_owned()),
                        Err(error) => {
                            failed = Some(error);
                            break;
                        }
                    }
                    buf.clear();
                }
                let recorded = failed.is_none().then(|| {
                    let items = items.iter().map(|i| clean(i)).collect();
                    match stream.kind {
                        StreamKind::List => Recorded::List {
                            items,
                            page: stream.page.as_ref().map(|p| RecordedPage {
                                total: p.total,
                                has_more: p.has_more,
                                next_cursor: p.next_cursor.clone(),
                            }),
                        },
                        StreamKind::Events => Recorded::Events { items },
                    }
                });
                let reply = replay_stream(stream.kind, items, stream.page, failed);
                (reply, recorded)
            }
        };
        let not_recorded = |why: &str| {
            crate::warning::Warning::new(
                "IDEMPOTENCY_NOT_RECORDED",
                format!(
                    "the result was not recorded for --idempotency-key `{}`, so a repeat answers that the outcome is unknown (it does not run again): {why}",
                    self.key
                ),
            )
        };
        let Some(recorded) = recorded else {
            return (
                reply,
                Some(not_recorded("the reply could not be collected")),
            );
        };
        let record = |reply: Recorded| Record {
            key: self.key.clone(),
            command: self.command.clone(),
            input: self.input.clone(),
            state: State::Done,
            owner: None,
            effect,
            reply: Some(reply),
        };
        let encoded = serde_json::to_vec(&record(recorded)).and_then(|bytes| {
            // A record is read back with a bound: a larger one keeps the outcome, not the data.
            if bytes.len() as u64 <= slot::RECORD_MAX {
                return Ok(bytes);
            }
            let omitted = Recorded::Omitted {
                bytes: bytes.len() as u64,
            };
            serde_json::to_vec(&record(omitted))
        });
        let written = encoded
            .map_err(|err| Error::internal(err.to_string()))
            .and_then(|bytes| self.slot.write(&bytes));
        let warning = written.err().map(|error| not_recorded(error.message()));
        (reply, warning)
    }
}

impl Recorded {
    /// The reply to replay, or the size of one that was not kept.
    fn into_reply(self) -> Result<Reply, u64> {
        Ok(match self {
            Recorded::Object { json, text } => Reply {
                body: Body::Object(Object {
                    json: Ok(json.into_bytes()),
                    human: text,
                }),
            },
            Recorded::List { items, page } => replay_stream(
                StreamKind::List,
                items,
                page.map(|p| Page {
                    total: p.total,
                    has_more: p.has_more,
                    next_cursor: p.next_cursor,
                }),
                None,
            ),
            Recorded::Events { items } => replay_stream(StreamKind::Events, items, None, None),
            Recorded::Document { markdown } => Reply::document(markdown),
            Recorded::Nothing => Reply::none(),
            Recorded::Omitted { bytes } => return Err(bytes),
        })
    }
}

/// A stream of already encoded JSON items (and the error that ended it, if one did).
fn replay_stream(
    kind: StreamKind,
    items: Vec<String>,
    page: Option<Page>,
    failed: Option<Error>,
) -> Reply {
    let mut items = items.into_iter();
    let mut failed = failed;
    let next = move |encoding: Encoding, buf: &mut crate::reply::ItemOut<'_>| {
        let Some(item) = items.next() else {
            return failed.take().map(Err);
        };
        Some(match encoding {
            Encoding::Json => {
                buf.extend_from_slice(item.as_bytes());
                Ok(())
            }
            Encoding::Human => match serde_json::from_str::<serde_json::Value>(&item) {
                Ok(value) => crate::reply::human::item_line(&value, buf),
                Err(_) => {
                    buf.extend_from_slice(item.as_bytes());
                    Ok(())
                }
            },
        })
    };
    Reply {
        body: Body::Stream(Stream {
            kind,
            next: Box::new(next),
            page,
        }),
    }
}

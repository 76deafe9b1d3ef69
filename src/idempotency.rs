//! `--idempotency-key KEY` on every command that changes something (CLI Agent Spec failure
//! mode 12, REQ-C-007), in every profile and over MCP.
//!
//! The first successful call with a key records its result (the reply's data, the effect the
//! handler reported, the command and a hash of its input: argv without the key, and stdin)
//! under `$XDG_STATE_HOME/<tool>/idempotency/`, with the store's atomic writes. A repeat with
//! the same key and the same input does not run the handler: the runtime replays the recorded
//! data through the profile with the effect `noop`, marked `replayed` (see `crate::effect`).
//! The same key with other input (or another command) is `ARGUMENT_CONFLICT` (exit 2,
//! `details.reason: "IDEMPOTENCY_KEY_REUSED"`), and the handler does not run.
//!
//! A failed call records nothing, so a retry after an error runs again; a dry run neither
//! replays nor records. Secrets are redacted before a record is written. A streamed result is
//! collected for its record (keyed calls are the retried mutations, rarely long lists).

use std::ffi::OsString;

use pas_spec::Command;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::codes;
use crate::effect::Change;
use crate::ending::Shared;
use crate::error::Error;
use crate::reply::{Body, Encoding, Object, Page, Reply, Stream, StreamKind};
use crate::store::Root;

/// The clap id of the runtime's `--idempotency-key`.
pub(crate) const KEY_ID: &str = "pas_idempotency_key";

/// `details.reason` of the error a reused key with other input ends with.
pub(crate) const KEY_REUSED: &str = "IDEMPOTENCY_KEY_REUSED";

/// The longest key taken (a caller's UUID or hash fits many times over).
const KEY_MAX: usize = 256;

/// What a keyed call does before its handler would run.
pub(crate) enum Begin {
    /// No key (or a dry run): the call runs as usual and records nothing.
    Unkeyed,
    /// A key never used: the call runs, and its success is recorded.
    Fresh(Keyed),
    /// A repeat: the recorded reply, to render instead of running the handler.
    Replay(Reply),
}

/// A fresh keyed call: where its record goes and what it says.
pub(crate) struct Keyed {
    root: Root,
    file: String,
    key: String,
    command: String,
    input: String,
}

#[derive(Serialize, Deserialize)]
struct Record {
    key: String,
    command: String,
    /// SHA-256 of the call's input (argv without the key, then stdin), hex.
    input: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    effect: Option<Change>,
    reply: Recorded,
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
        cmd = crate::clap_augment::at_path(cmd, &command.argv_path(), &mut |sub| {
            let long = pas_spec::faces::IDEMPOTENCY_KEY_FLAG;
            if sub.get_arguments().any(|a| a.get_long() == Some(long)) {
                return sub;
            }
            sub.arg(
                clap::Arg::new(KEY_ID)
                    .long(long)
                    .value_name("KEY")
                    .action(clap::ArgAction::Set)
                    .help("Replay the first success of a repeat with the same key and input"),
            )
        });
    }
    cmd
}

/// Reads the call's key and decides: run as usual, run and record, or replay.
pub(crate) fn begin(
    tool: &str,
    command: &Command,
    leaf: &clap::ArgMatches,
    argv: &[OsString],
    stdin: Option<&[u8]>,
    dry_run: bool,
) -> Result<Begin, Error> {
    if dry_run || !pas_spec::faces::takes_idempotency_key(command) {
        return Ok(Begin::Unkeyed);
    }
    let Some(key) = leaf.try_get_one::<String>(KEY_ID).ok().flatten() else {
        return Ok(Begin::Unkeyed);
    };
    if key.trim().is_empty() || key.len() > KEY_MAX || key.chars().any(char::is_control) {
        return Err(Error::new(
            codes::INVALID_VALUE,
            format!("--idempotency-key takes 1 to {KEY_MAX} printable characters"),
        )
        .with_suggestion("use one key per logical operation, e.g. a UUID"));
    }
    let dir = crate::xdg::state_home()
        .ok_or_else(|| {
            Error::general("--idempotency-key needs a state directory, and HOME is not set")
                .with_suggestion("set HOME or XDG_STATE_HOME")
        })?
        .join(tool)
        .join("idempotency");
    let root = Root::open(&dir)?;
    let file = format!("{}.json", &hex(&Sha256::digest(key.as_bytes()))[..32]);
    let input = input_hash(&command.name, argv, stdin);
    let keyed = Keyed {
        root,
        file,
        key: key.clone(),
        command: command.name.clone(),
        input,
    };
    let Some(bytes) = keyed.root.read(&keyed.file)? else {
        return Ok(Begin::Fresh(keyed));
    };
    // A record that does not parse (cut by a crash before the atomic write existed, edited by
    // hand) is no evidence of a first call: the call runs and records afresh.
    let Ok(record) = serde_json::from_slice::<Record>(&bytes) else {
        return Ok(Begin::Fresh(keyed));
    };
    if record.key != keyed.key || record.command != keyed.command || record.input != keyed.input {
        return Err(reused(&keyed, &record.command));
    }
    Ok(Begin::Replay(record.reply.into_reply()))
}

fn reused(keyed: &Keyed, first: &str) -> Error {
    let message = if first == keyed.command {
        format!(
            "the idempotency key `{}` was used with other input for {first}",
            keyed.key
        )
    } else {
        format!(
            "the idempotency key `{}` was used for {first}, not {}",
            keyed.key, keyed.command
        )
    };
    Error::new(codes::ARGUMENT_CONFLICT, message)
        .with_suggestion("use a new key for a new operation; repeat a call with its own key")
        .with_details(serde_json::json!({
            "reason": KEY_REUSED,
            "idempotency_key": keyed.key,
            "command": first,
        }))
}

/// SHA-256 of the command, argv without `--idempotency-key` and its value, and stdin.
fn input_hash(command: &str, argv: &[OsString], stdin: Option<&[u8]>) -> String {
    let flag = format!("--{}", pas_spec::faces::IDEMPOTENCY_KEY_FLAG);
    let joined = format!("{flag}=");
    let mut hasher = Sha256::new();
    hasher.update(command.as_bytes());
    let mut args = argv.iter().skip(1);
    while let Some(arg) = args.next() {
        let bytes = arg.as_encoded_bytes();
        if bytes == flag.as_bytes() {
            args.next();
            continue;
        }
        if bytes.starts_with(joined.as_bytes()) {
            continue;
        }
        hasher.update([0]);
        hasher.update(bytes);
    }
    if let Some(stdin) = stdin {
        hasher.update([1]);
        hasher.update(stdin);
    }
    hex(&hasher.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Keyed {
    /// Records a handler's successful reply (secrets redacted) and returns it to render. A
    /// stream that fails half-way is not recorded (the call failed); its items and error are
    /// rendered as they would have been. A record that cannot be written is a warning.
    pub(crate) fn record(
        &self,
        shared: &Shared,
        reply: Reply,
        effect: Option<Change>,
    ) -> (Reply, Option<crate::robot::Warning>) {
        let redactor = {
            let output = shared.lock();
            output
                .redactor
                .has_values()
                .then(|| output.redactor.clone())
        };
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
                while let Some(next) = (stream.next)(Encoding::Json, &mut buf) {
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
        let Some(recorded) = recorded else {
            return (reply, None);
        };
        let record = Record {
            key: self.key.clone(),
            command: self.command.clone(),
            input: self.input.clone(),
            effect,
            reply: recorded,
        };
        let written = serde_json::to_vec(&record)
            .map_err(|err| Error::internal(err.to_string()))
            .and_then(|bytes| self.root.write(&self.file, &bytes));
        let warning = written.err().map(|error| {
            crate::robot::Warning::new(
                "IDEMPOTENCY_NOT_RECORDED",
                format!(
                    "the result was not recorded for --idempotency-key, so a repeat would run again: {}",
                    error.message()
                ),
            )
        });
        (reply, warning)
    }
}

impl Recorded {
    fn into_reply(self) -> Reply {
        match self {
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
        }
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
    let next = move |encoding: Encoding, buf: &mut Vec<u8>| {
        let Some(item) = items.next() else {
            return failed.take().map(Err);
        };
        Some(match encoding {
            Encoding::Json => {
                buf.extend_from_slice(item.as_bytes());
                Ok(())
            }
            Encoding::Human => match serde_json::from_str::<serde_json::Value>(&item) {
                Ok(value) => crate::render::human::item_line(&value, buf),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_input_hash_leaves_the_key_out_and_takes_stdin_in() {
        let plain = input_hash("add", &args(&["t", "add", "milk"]), None);
        let spaced = input_hash(
            "add",
            &args(&["t", "add", "--idempotency-key", "k1", "milk"]),
            None,
        );
        let joined = input_hash(
            "add",
            &args(&["t", "add", "--idempotency-key=k2", "milk"]),
            None,
        );
        assert_eq!(plain, spaced);
        assert_eq!(plain, joined);
        assert_ne!(plain, input_hash("add", &args(&["t", "add", "eggs"]), None));
        assert_ne!(
            plain,
            input_hash("add", &args(&["t", "add", "milk"]), Some(b"{}"))
        );
        assert_ne!(plain, input_hash("rm", &args(&["t", "add", "milk"]), None));
    }
}

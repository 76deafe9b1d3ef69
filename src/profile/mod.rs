//! Contract profiles: the policy that turns results, errors and exit codes into bytes.
//!
//! The runtime drives a profile through a small set of events (one object; a stream's start,
//! items and end; a document; nothing; an error; help) and never decides a byte itself, so the
//! `compose` and `robot` profiles slot in as new implementations chosen in `crate::run::rooms::profile_for_call` without
//! touching a handler or the runtime's control flow. Items reach the profile already encoded in
//! the form it asked for ([`Profile::item_encoding`]), so a profile costs no extra serialisation.

pub(crate) mod call_meta;
pub(crate) mod compose;
pub(crate) mod meta_line;
pub(crate) mod pas;
pub(crate) mod robot;
pub(crate) mod robot_state;

use std::io;

use pas_spec::{OutputKind, Registry};

use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::reply::{Encoding, Object, Page, StreamKind};
use crate::stdio::streams::Sinks;

/// How a profile wants handler progress shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProgressStyle {
    /// An indicatif bar on stderr (people at a terminal).
    Bar,
    /// NDJSON `progress` events on stdout (agents, for event-stream commands).
    Events,
    /// Nothing at all.
    Silent,
}

/// Per-call options the runtime parsed for the profile (its own flags).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CallOptions {
    /// `--format` on a list command: `ndjson` or `array`.
    pub(crate) format: Option<String>,
    /// The dotted name of the command (or built-in) argv selected.
    pub(crate) command: Option<String>,
    /// `--fields` (pas, compose): the fields of each list item to keep (see `crate::parse::fields`).
    pub(crate) fields: Option<Vec<String>>,
    /// The command's principal list inside an object result (`listField`).
    pub(crate) list_field: Option<String>,
}

/// A rendering policy. All methods write whole lines only (see the output lock).
pub(crate) trait Profile: Send {
    /// Takes the call's options, once argv parsed.
    fn configure(&mut self, options: CallOptions);
    /// The encoding stream items must arrive in.
    fn item_encoding(&self, kind: StreamKind) -> Encoding;
    /// Where the coming list page sits in the whole list (before `stream_start`).
    fn page(&mut self, _page: &Page) {}
    fn object(&mut self, sinks: &mut Sinks, object: &Object) -> io::Result<()>;
    fn stream_start(&mut self, sinks: &mut Sinks, kind: StreamKind) -> io::Result<()>;
    fn stream_item(&mut self, sinks: &mut Sinks, kind: StreamKind, item: &[u8]) -> io::Result<()>;
    /// Whether every item of this stream is written as its bytes and a newline, nothing else,
    /// so the render loop may join many into one [`Profile::stream_lines`] call (fewer lock
    /// round trips for a fast list to a sink no reader waits on).
    fn plain_lines(&self, _kind: StreamKind) -> bool {
        false
    }
    /// Whole lines (each an item and `\n`), as `stream_item` would have written them one by
    /// one; only called when [`Profile::plain_lines`] said so. The lines are `batch[1..]`:
    /// `batch[0]` is a spare byte the profile may overwrite with a separator, so what goes
    /// before the lines leaves in the same write (a separate one-byte write would cost a
    /// system call per batch once the buffer is full). The profile may rewrite the batch in
    /// place; the caller reuses it only after clearing it.
    fn stream_lines(
        &mut self,
        sinks: &mut Sinks,
        _kind: StreamKind,
        batch: &mut [u8],
    ) -> io::Result<()> {
        sinks.stdout.write(&batch[1..])?;
        sinks.stdout.end_line()
    }
    /// `complete` is false when the stream failed or was interrupted half-way.
    fn stream_end(&mut self, sinks: &mut Sinks, kind: StreamKind, complete: bool)
    -> io::Result<()>;
    fn document(&mut self, sinks: &mut Sinks, markdown: &str) -> io::Result<()>;
    fn nothing(&mut self, sinks: &mut Sinks) -> io::Result<()>;
    /// A handler or runtime error, already redacted, with its exit status.
    fn error(&mut self, sinks: &mut Sinks, error: &Error, exit: u8) -> io::Result<()>;
    /// argv was rejected: `error` is clap's error mapped to a constant (already redacted).
    fn parse_error(
        &mut self,
        sinks: &mut Sinks,
        clap_error: &clap::Error,
        error: &Error,
        redactor: &Redactor,
    ) -> io::Result<()>;
    /// The exit status for an error constant.
    fn exit_code(&self, error: &Error) -> u8;
    /// Help for the command path, if this profile renders help itself (false: clap's).
    fn help(&mut self, sinks: &mut Sinks, path: &[String]) -> io::Result<bool>;
    /// How progress is shown for a command with this output kind.
    fn progress_style(&self, output: OutputKind) -> ProgressStyle;
    /// One progress event (compact JSON), for [`ProgressStyle::Events`].
    fn progress_event(&mut self, sinks: &mut Sinks, event: &[u8]) -> io::Result<()>;
    /// The robot profile's call state, which handlers report into through their context.
    fn robot_state(&self) -> Option<crate::profile::robot_state::CallState> {
        None
    }
    /// The exit status of a successful call (the robot profile's handler-selected code).
    fn success_exit(&self) -> u8 {
        0
    }
    /// A transport without the envelope (`TOOL mcp`): the reply's data as the envelope's
    /// `data` holds it (robot adds its gates and applies its token controls).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    fn envelope_data(&self, data: serde_json::Value) -> serde_json::Value {
        data
    }
    /// A transport without the envelope (`TOOL mcp`): the error as the envelope reports it
    /// (robot reports runtime constants under their roles' codes, the constant in `kind`).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    fn envelope_error(&self, error: Error) -> Error {
        error
    }
    /// A non-fatal warning (a deprecated command ran, a handler's [`crate::handler::context::Context::warn`]):
    /// the `pas` profile writes it on stderr at once, compose keeps it for `meta.warnings`.
    /// The robot profile keeps its own (its call state), so it writes nothing here.
    fn warning(
        &mut self,
        _sinks: &mut Sinks,
        _warning: &crate::warning::Warning,
    ) -> io::Result<()> {
        Ok(())
    }
    /// What the call changed ([`crate::handler::context::Context::set_effect`], or a replay): each profile keeps
    /// it for its metadata (`crate::effect`).
    fn effect(&mut self, _effect: crate::effect::Reported) {}
    /// A list stopped at the output bound after `kept` bytes of whole items, the rest of its
    /// items in the file `rest` points at (before `stream_end`): compose marks
    /// `meta.truncated`, `meta.totalBytes` and `meta.rest`.
    fn truncated(&mut self, _kept: u64, _rest: Option<&crate::guards::output_file::Pointer>) {}
    /// The call ends with `exit` (after its result or error): the `pas` profile's meta line
    /// on request (`crate::profile::meta_line`).
    fn call_end(&mut self, _sinks: &mut Sinks, _exit: u8) -> io::Result<()> {
        Ok(())
    }
}

/// `--agent --help` as every profile prints it: the registry's agent help for `path` (the whole
/// tool when the path names no command), on stdout. Human help stays clap's (`false`).
pub(crate) fn agent_help(
    agent: bool,
    registry: &Registry,
    sinks: &mut Sinks,
    path: &[String],
) -> io::Result<bool> {
    if !agent {
        return Ok(false);
    }
    use pas_spec::faces::agent_help;
    let text =
        agent_help::render(registry, path).unwrap_or_else(|| agent_help::render_tool(registry));
    sinks.stdout.write(text.as_bytes())?;
    sinks.stdout.end_line()?;
    Ok(true)
}

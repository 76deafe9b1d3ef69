//! `TOOL mcp`: every pas CLI is also an MCP server over stdio, serving the same registry and
//! the same handlers as its command line (cargo feature `mcp` of pas-kit).
//!
//! - `tools/list` is the registry's MCP face, what `pas-gen mcp SPEC` prints
//!   ([`pas_spec::faces::mcp`]): one tool per command and per level 3/4 verb.
//! - `tools/call` validates the arguments against the tool's `inputSchema` (a violation is a
//!   tool error naming the argument), turns them into the argv the CLI would get
//!   (`arguments.rs`), and runs the handler in-process exactly as the CLI does (its guards too:
//!   a destructive command needs `force: true`, or `yes: true` in the robot profile, as the
//!   CLI needs `--force` or `--yes`; see `confirm.rs`). The reply becomes a result as `result.rs` says;
//!   a handler error or panic becomes `isError: true` with the structured error and the exit
//!   code the CLI would have used, and the server keeps serving.
//! - Levels 3 and 4: resources as MCP resources (see `resources.rs`).
//! - A call holding an old schema hash, or passing an argument the current schema lacks, is
//!   `SCHEMA_STALE`; every result carries the tool version and schema hash (`stale.rs`).
//! - A secret parameter is never an argument (the face leaves it out; it comes from its
//!   environment variable or the configuration file) and every secret is redacted from what
//!   the server writes.
//! - `notifications/cancelled` reaches the handler as [`crate::handler::context::Context::stop_requested`];
//!   progress ([`crate::handler::context::Context::progress`], and each event of an event stream) becomes
//!   `notifications/progress` when the call carries a progress token. Calls run concurrently,
//!   each on a thread of its own sharing the app (at most `MAX_CALLS`, 16, at once; handlers are
//!   `Send + Sync` for this), and the protocol itself (listing, cancelling, pinging) is served
//!   meanwhile. At most `MAX_WAITING` (256) requests wait for a slot; a cancel takes a waiting
//!   one out of the queue (it never runs). See `queue.rs`.
//! - Outcomes follow effects: a call whose handler returned is answered with its result, even
//!   if it was cancelled or stdin ended meanwhile. A call's time limit is its command's declared
//!   `timeout`, else the server's `TOOL mcp --call-timeout SECONDS` (no limit otherwise); past
//!   it the call is answered `TIMEOUT` and its slot goes to the next request. A running call
//!   cancelled and not returning within a second gives its slot back too. A `TIMEOUT` of a call
//!   whose handler was running carries `details.outcome` (`unknown`, or `changed` with the
//!   effect the handler reported) unless the command is idempotent or the handler reported no
//!   change (see `crate::end::outcome`); every error result carries `retryable`.
//! - The transport (`wire.rs`) answers every message it can take an id from with the code
//!   JSON-RPC names (-32700, -32600, -32601, -32602), reads at most `MAX_MESSAGE_BYTES` (16 MiB)
//!   a message, and scrubs every secret value from every frame it writes (keys included).
//! - EOF on stdin ends the session: the requests read before it still run (running handlers
//!   see a stop request), their replies are written (for up to rmcp's five seconds, then two
//!   more), and the server exits 0. SIGTERM (SIGINT) does the same for at most two seconds, then
//!   exits 143 (130).
//!
//! stdout carries only protocol messages; diagnostics go to stderr.

#[cfg(feature = "mcp")]
pub(crate) mod arguments;
#[cfg(feature = "mcp")]
pub(crate) mod bound;
#[cfg(feature = "mcp")]
pub(crate) mod confirm;
#[cfg(feature = "mcp")]
pub(crate) mod discovery;
#[cfg(feature = "mcp")]
pub(crate) mod ending;
#[cfg(feature = "mcp")]
pub(crate) mod exec;
#[cfg(feature = "mcp-http")]
pub(crate) mod http;
#[cfg(feature = "mcp")]
pub(crate) mod queue;
#[cfg(feature = "mcp")]
pub(crate) mod resources;
#[cfg(feature = "mcp")]
pub(crate) mod result;
#[cfg(feature = "mcp")]
mod runtime;
#[cfg(feature = "mcp")]
mod serve_app;
#[cfg(feature = "mcp")]
pub(crate) mod server;
#[cfg(feature = "mcp")]
pub(crate) mod stale;
#[cfg(feature = "mcp")]
pub(crate) mod tasks;
#[cfg(feature = "mcp")]
pub(crate) mod wire;

#[cfg(feature = "mcp")]
pub use exec::{MAX_HELD, MAX_ITEMS, MAX_RESOURCES};
#[cfg(feature = "mcp-http")]
pub use http::gate::{BODY_BUDGET, BODY_TIME, ENDPOINT};
#[cfg(feature = "mcp-http")]
pub use http::{HEADER_TIME, MAX_CONNECTIONS, MAX_HEADER_BYTES};
#[cfg(feature = "mcp")]
pub use queue::{MAX_CALLS, MAX_STUCK, MAX_WAITING};
#[cfg(feature = "mcp")]
pub(crate) use server::serve;
#[cfg(feature = "mcp")]
pub use wire::MAX_MESSAGE_BYTES;

pub use crate::parse::names::CALL_TIMEOUT_FLAG;
pub use crate::parse::names::MCP_WORD as WORD;

/// The constant of `TOOL mcp` in a tool built without the `mcp` feature.
pub use pas_spec::runtime_codes::MCP_NOT_BUILT;

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use pas_spec::Registry;

    use super::*;

    fn registry(commands: &str) -> Registry {
        let spec = format!(
            r#"{{"specVersion": 1, "name": "t", "version": "1.0.0", "summary": "A tool.",
               "commands": [{commands}]}}"#
        );
        let source = pas_spec::load::read_reader("t.json", spec.as_bytes()).unwrap();
        pas_spec::load::parse(&source).unwrap()
    }

    const GET: &str = r#"{"name": "get", "description": "Gets.", "output": "object"}"#;

    #[test]
    fn the_word_asks_for_the_server_unless_it_asks_for_text() {
        let get = registry(GET);
        let argv = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        let wants = |words: &[&str]| crate::parse::argv::wants_mcp(&get, &argv(words));
        assert!(wants(&["t", "mcp"]));
        assert!(wants(&["t", "mcp", "--call-timeout", "5"]));
        assert!(wants(&["t", "mcp", "--call-timeout=0.5"]));
        // Any other word is the server's to refuse (`mcp_options::read`), not a command's.
        assert!(wants(&["t", "mcp", "x"]));
        assert!(wants(&["t", "mcp", "--other", "5"]));
        assert!(!wants(&["t", "get"]));
        // Text, not a server.
        assert!(!wants(&["t", "mcp", "--print-config", "codex"]));
        assert!(!wants(&["t", "mcp", "--help"]));
        // A tool's own `mcp` command wins.
        let own = registry(r#"{"name": "mcp", "description": "Its own.", "output": "object"}"#);
        assert!(!crate::parse::argv::wants_mcp(&own, &argv(&["t", "mcp"])));
    }

    #[test]
    fn the_call_timeout_is_a_positive_number_of_seconds() {
        let read = |words: &[&str]| {
            let words: Vec<OsString> = words.iter().map(OsString::from).collect();
            match crate::parse::mcp_options::read(&registry(GET), &words)? {
                crate::parse::mcp_options::Asked::Run(m) => {
                    crate::parse::mcp_options::call_timeout(&m)
                }
                crate::parse::mcp_options::Asked::Help(_) => panic!("help"),
            }
        };
        assert_eq!(read(&[]).unwrap(), None);
        assert_eq!(
            read(&["--call-timeout", "1.5"]).unwrap(),
            Some(std::time::Duration::from_millis(1500))
        );
        assert_eq!(
            read(&["--call-timeout=2"]).unwrap(),
            Some(std::time::Duration::from_secs(2))
        );
        for bad in ["0", "-1", "nan", "inf", "1e300", "soon", ""] {
            let error = read(&["--call-timeout", bad]).unwrap_err();
            assert_eq!(error.code(), crate::codes::INVALID_ARGUMENT, "{bad}");
        }
        for bad in ["0", "nan", "inf", "1e300", "soon"] {
            let error = read(&["--call-timeout", bad]).unwrap_err();
            assert!(error.message().contains("--call-timeout"), "{bad}");
        }
    }

    #[test]
    fn without_the_feature_the_error_says_how_to_turn_it_on() {
        let error = crate::parse::mcp_options::not_built(&registry(GET));
        assert_eq!(error.code(), MCP_NOT_BUILT);
        assert!(error.suggestion().unwrap().contains("features = [\"mcp\"]"));
        // `--http` in a tool built with the server but not its HTTP transport.
        let error = crate::parse::mcp_options::http_not_built(&registry(GET));
        assert_eq!(error.code(), pas_spec::runtime_codes::FEATURE_NOT_BUILT);
        assert!(error.message().contains("--http"), "{}", error.message());
        assert!(
            error
                .suggestion()
                .unwrap()
                .contains("features = [\"mcp-http\"]")
        );
    }
}

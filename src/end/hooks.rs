//! What a call served over MCP changes in the handler's [`crate::handler::context::Context`]: stdout is the
//! protocol's, so progress goes to the client as notifications, standard input is the call's
//! `input` argument, and a `notifications/cancelled` from the client is a stop request.

/// Sends one progress event (compact JSON) to the client.
pub(crate) type ProgressLine = Box<dyn Fn(&[u8]) + Send + Sync>;

/// The per-call hooks an MCP server hands the call's context (compiled in every build, so the
/// context does not depend on the `mcp` feature; only the server sets them).
pub(crate) struct CallHooks {
    /// Whether the client cancelled the call (or the server is closing).
    pub(crate) cancelled: Box<dyn Fn() -> bool + Send + Sync>,
    /// Sends one progress event (compact JSON, the event the CLI would print) to the client.
    pub(crate) progress: ProgressLine,
    /// The `input` argument as the bytes a handler reads from its stdin, when given.
    pub(crate) input: Option<Vec<u8>>,
    /// What the handler said it changed so far ([`crate::handler::context::Context::set_effect`]), for the server
    /// to tell a call past its time limit that changed nothing from one that may have.
    pub(crate) effect: std::sync::Arc<std::sync::Mutex<Option<crate::effect::Change>>>,
    /// Set when the client takes MCP Tasks (SEP-2663) for this call: a job command then starts
    /// detached, as on the command line, and its descriptor is left here for the server to
    /// answer as a task (the task id is the job id). Unset, a job runs to its end in the call.
    pub(crate) task: Option<TaskStarted>,
}

/// Where a job started as an MCP task leaves its descriptor.
pub(crate) type TaskStarted = std::sync::Arc<std::sync::Mutex<Option<serde_json::Value>>>;

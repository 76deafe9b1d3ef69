//! The protocol side of `TOOL mcp`: rmcp (the official Rust SDK) over stdio on a tokio runtime
//! of its own thread, handing each call to the handler thread ([`super::exec`]) and relaying
//! its progress back in order, before its result.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pas_spec::Registry;
use pas_spec::faces::mcp::META_SCHEMA_HASH;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, CreateTaskResult,
    ErrorCode, GetTaskParams, GetTaskResult, InitializeResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    TASKS_EXTENSION_ID,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::ending::Ending;
use super::exec::Executor;
use super::queue::{
    Full, Job, MAX_CALLS, MAX_STUCK, MAX_WAITING, Queue, Refused, Request, Started,
};
use crate::guards::redact::Redactor;
use crate::run::app::App;

/// JSON-RPC's server-error code the server answers a request it cannot queue with.
const SERVER_BUSY: i32 = -32000;
/// The code of a request its client cancelled (MCP's, as the SDKs use it).
const REQUEST_CANCELLED: i32 = -32800;

/// The `_meta` key a call continues an unfinished list with.
pub const CONTINUATION_META: &str = "pas/continuation";

/// The `_meta` key a call gives its own time limit with, in seconds (a CLI call's `--timeout`:
/// it may only lower a command's declared limit; `0` is no limit of the caller's).
pub const TIMEOUT_META: &str = "pas-kit/timeout";

/// How long a handler still running when the session ends may take to return before the
/// process ends anyway (after rmcp's own wait for the replies in flight).
const CLOSING_GRACE: Duration = Duration::from_secs(2);

/// How long a running call cancelled by its client may take to return before its slot goes to
/// the next request (its thread is then left to end on its own; see [`super::queue`]).
const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// Where the server speaks MCP.
pub(crate) enum Transport {
    /// One JSON-RPC message a line on stdin and stdout ([`super::wire`]).
    Stdio,
    /// Streamable HTTP ([`super::http`]).
    #[cfg(feature = "mcp-http")]
    Http(super::http::Listen),
}

/// Serves MCP on stdio until EOF (exit 0), or on HTTP, until a signal (130, 143).
pub(crate) fn serve(
    app: App,
    registry: Arc<Registry>,
    command: clap::Command,
    redactor: Redactor,
    call_timeout: Option<Duration>,
    transport: Transport,
    serving: &crate::parse::mcp_options::Serving,
) -> ExitCode {
    let tools_list = pas_spec::faces::mcp::tools_list(&registry);
    let queue = Arc::new(Queue::default());
    let closing = Arc::new(AtomicBool::new(false));
    let ending = Arc::new(Ending::default());
    let discovery = super::discovery::Discovery::new(&registry, &tools_list, serving);
    // Job commands answered as tasks: the tool has one and links the job store.
    let tasks = registry.offers_jobs() && app.rooms().jobs.is_some();
    let server = match Server::new(
        &registry,
        &tools_list,
        discovery,
        tasks,
        queue.clone(),
        closing.clone(),
    ) {
        Ok(server) => server,
        Err(error) => {
            eprintln!("{}", json!({"error": "INTERNAL_ERROR", "message": error}));
            return ExitCode::from(1);
        }
    };
    end_on_signals(ending.clone());
    // The end of input (or a signal): the calls running are told to stop. The requests read
    // before it still run and are answered (rmcp writes their replies before it returns).
    let on_end: Arc<dyn Fn() + Send + Sync> = {
        let closing = closing.clone();
        Arc::new(move || closing.store(true, Ordering::SeqCst))
    };
    let (protocol_done, protocol_ended) = mpsc::channel::<()>();
    let protocol = std::thread::Builder::new()
        .name("mcp-protocol".into())
        .spawn({
            let (redactor, ending, queue) = (redactor.clone(), ending.clone(), queue.clone());
            move || {
                match transport {
                    Transport::Stdio => run_protocol(server, redactor, on_end.clone(), &ending),
                    #[cfg(feature = "mcp-http")]
                    Transport::Http(listen) => super::http::run(
                        server,
                        &redactor,
                        &listen,
                        on_end.clone(),
                        &ending,
                        &queue,
                    ),
                }
                // rmcp wrote the replies it could: what still waits for a slot is not run. The
                // main thread ends the process once the calls return, or this one after a
                // grace period if a call never does.
                on_end();
                queue.close();
                let _ = protocol_done.send(());
                std::thread::sleep(CLOSING_GRACE);
                std::process::exit(ending.status());
            }
        });
    if let Err(err) = protocol {
        eprintln!(
            "{}",
            json!({"error": "INTERNAL_ERROR", "message": format!("cannot start the MCP server: {err}")})
        );
        return ExitCode::from(1);
    }
    Executor::new(app, registry, command, redactor, &tools_list, call_timeout).serve(&queue);
    // Every call returned: the process ends once the protocol wrote their replies.
    let _ = protocol_ended.recv();
    ExitCode::from(u8::try_from(ending.status()).unwrap_or(1))
}

fn run_protocol(
    server: Server,
    redactor: Redactor,
    on_end: Arc<dyn Fn() + Send + Sync>,
    ending: &Arc<Ending>,
) {
    let Some(runtime) = super::runtime::protocol_runtime() else {
        return;
    };
    runtime.block_on(async move {
        let stdin = tokio::io::BufReader::new(tokio::io::stdin());
        let wire = super::wire::Wire::new(
            stdin,
            tokio::io::stdout(),
            redactor,
            on_end,
            ending.clone(),
        );
        match server.serve(wire).await {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            // The client left (or never initialized): the server ends, quietly on stdout.
            Err(err) => eprintln!(
                "{}",
                json!({"error": pas_spec::runtime_codes::MCP_SESSION_ENDED, "message": format!("the MCP session ended before it began: {err}")})
            ),
        }
    });
}

/// SIGTERM and SIGINT end the session as the end of input does (the calls running are told to
/// stop, and the replies of the calls that return within [`CLOSING_GRACE`] are written), with
/// the CLI's exit statuses (143, 130).
fn end_on_signals(ending: Arc<Ending>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("mcp-signals".into())
        .spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            ending.status.store(128 + signal, Ordering::SeqCst);
            ending.signalled.notify_one();
            // A signal asks for an end soon: the calls that return within the grace period
            // have their replies written, and the process ends then whatever still runs.
            std::thread::sleep(CLOSING_GRACE);
            std::process::exit(128 + signal);
        });
}

/// The protocol's handler: cheap to clone (its tables are shared), since the HTTP transport
/// makes one for each request.
#[derive(Clone)]
struct Server {
    info: InitializeResult,
    tools: Arc<ListToolsResult>,
    templates: Option<Arc<ListResourceTemplatesResult>>,
    /// Each tool's current schema hash, to answer a stale call (see [`super::stale`]).
    schemas: Arc<super::stale::Schemas>,
    /// The tools served and how they are listed (`--group`, `--tools`, `--discovery`).
    discovery: Arc<super::discovery::Discovery>,
    /// Whether job commands are answered as tasks to a client that takes them (SEP-2663).
    tasks: bool,
    queue: Arc<Queue>,
    closing: Arc<AtomicBool>,
}

fn typed<T: DeserializeOwned>(value: Value, what: &str) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("the {what} does not fit MCP: {e}"))
}

impl Server {
    fn new(
        registry: &Registry,
        tools_list: &Value,
        discovery: super::discovery::Discovery,
        tasks: bool,
        queue: Arc<Queue>,
        closing: Arc<AtomicBool>,
    ) -> Result<Server, String> {
        let has_resources = !registry.resources.is_empty();
        let mut capabilities = json!({ "tools": {} });
        if has_resources {
            capabilities["resources"] = json!({});
        }
        if tasks {
            capabilities["extensions"] = json!({ TASKS_EXTENSION_ID: {} });
        }
        let mut info = InitializeResult::default();
        info.capabilities = typed(capabilities, "capabilities")?;
        info.server_info = typed(
            json!({ "name": registry.name, "version": registry.version }),
            "server info",
        )?;
        info.instructions = Some(registry.summary.clone());
        let templates = if has_resources {
            Some(Arc::new(typed(
                complete(super::resources::templates(registry)),
                "templates",
            )?))
        } else {
            None
        };
        Ok(Server {
            info,
            tools: Arc::new(typed(complete(discovery.listed().clone()), "tools/list")?),
            templates,
            schemas: Arc::new(super::stale::Schemas::of(
                registry,
                tools_list,
                discovery.progressive(),
            )),
            discovery: Arc::new(discovery),
            tasks,
            queue,
            closing,
        })
    }

    /// Queues a request for the executor; relays its progress (when the client asked for it
    /// with a progress token) until its answer, then any progress sent just before it.
    ///
    /// A cancel for a request still waiting takes it out of the queue (it never runs). A
    /// running call sees the cancel as a stop request, and its slot goes to the next request
    /// if it has not returned within [`CANCEL_GRACE`]. A call past its time limit is answered
    /// with its `TIMEOUT` result and its slot goes to the next request.
    async fn submit(
        &self,
        request: Request,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let (answer_to, mut answer) = tokio::sync::oneshot::channel();
        let (started_to, mut started) = tokio::sync::oneshot::channel();
        let (progress_to, mut progress) = tokio::sync::mpsc::unbounded_channel::<Value>();
        let cancel = context.ct.clone();
        let closing = self.closing.clone();
        let job = Job {
            request,
            cancelled: Arc::new(move || cancel.is_cancelled() || closing.load(Ordering::SeqCst)),
            progress: Arc::new(move |value| {
                let _ = progress_to.send(value);
            }),
            reply: Box::new(move |result| {
                let _ = answer_to.send(result);
            }),
            started: Box::new(move |started| {
                let _ = started_to.send(started);
            }),
        };
        let number = self.queue.push(job).map_err(refused)?;
        let ct = &context.ct;
        // Waiting for a slot (a request refused at the session's end never starts).
        let started = tokio::select! {
            biased;
            started = &mut started => started.ok(),
            () = ct.cancelled() => match self.queue.withdraw(number) {
                Some(_) => return Err(cancelled()),
                None => started.await.ok(),
            },
        };
        let (slot, limit, on_timeout) = match started {
            Some(Started {
                slot,
                limit,
                on_timeout,
            }) => (Some(slot), limit, on_timeout),
            None => (None, None, None),
        };
        let token = context.meta.get_progress_token();
        let peer = &context.peer;
        let far = Duration::from_secs(60 * 60 * 24 * 365);
        let timeout = tokio::time::sleep(limit.unwrap_or(far));
        tokio::pin!(timeout);
        let grace = tokio::time::sleep(far);
        tokio::pin!(grace);
        let mut cancel_seen = false;
        let result = loop {
            tokio::select! {
                biased;
                Some(value) = progress.recv() => relay(peer, token.as_ref(), value).await,
                result = &mut answer => break result,
                () = &mut timeout, if limit.is_some() => {
                    if let Some(slot) = &slot {
                        slot.abandon();
                    }
                    return match on_timeout {
                        Some(on_timeout) => Ok(on_timeout()),
                        None => Err(ErrorData::internal_error("the call ran past its time limit", None)),
                    };
                }
                () = ct.cancelled(), if !cancel_seen => {
                    cancel_seen = true;
                    grace.as_mut().reset(tokio::time::Instant::now() + CANCEL_GRACE);
                }
                () = &mut grace, if cancel_seen => {
                    if let Some(slot) = &slot {
                        slot.abandon();
                    }
                    return Err(cancelled());
                }
            }
        };
        while let Ok(value) = progress.try_recv() {
            relay(peer, token.as_ref(), value).await;
        }
        match result {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(Refused { code, message })) => {
                Err(ErrorData::new(ErrorCode(code), message, None))
            }
            Err(_) => Err(ErrorData::internal_error(
                "the call ended without an answer",
                None,
            )),
        }
    }
}

/// The error of a cancelled request (rmcp writes no reply to a cancelled request; this one is
/// for the record).
fn cancelled() -> ErrorData {
    ErrorData::new(
        ErrorCode(REQUEST_CANCELLED),
        "the client cancelled the request",
        None,
    )
}

/// The error of a request the queue did not take: retryable, except when the session ends.
fn refused(full: Full) -> ErrorData {
    let message = match full {
        Full::Waiting => format!(
            "{MAX_WAITING} requests are waiting for one of the server's {MAX_CALLS} call slots: try again shortly"
        ),
        Full::Stuck => format!(
            "{MAX_STUCK} calls ran past their time limit or cancel and never returned: restart the server"
        ),
        Full::Closed => "the session is ending: the server takes no more calls".to_owned(),
    };
    let retryable = matches!(full, Full::Waiting);
    ErrorData::new(
        ErrorCode(SERVER_BUSY),
        message,
        Some(json!({ "retryable": retryable })),
    )
}

async fn relay(peer: &Peer<RoleServer>, token: Option<&ProgressToken>, value: Value) {
    let Some(token) = token else {
        return;
    };
    let mut param = value;
    param["progressToken"] = serde_json::to_value(token).unwrap_or(Value::Null);
    if let Ok(param) = serde_json::from_value::<ProgressNotificationParam>(param) {
        let _ = peer.notify_progress(param).await;
    }
}

fn invalid_result(err: String) -> ErrorData {
    ErrorData::internal_error(err, None)
}

impl ServerHandler for Server {
    fn get_info(&self) -> InitializeResult {
        self.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::clone(&self.tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let continuation = context
            .meta
            .get(CONTINUATION_META)
            .and_then(Value::as_str)
            .map(str::to_owned);
        let timeout = match context.meta.get(TIMEOUT_META) {
            None => None,
            Some(value) => Some(per_call_timeout(value)?),
        };
        let tool = request.name.to_string();
        let arguments = request.arguments.unwrap_or_default();
        // The discovery tools answer here; `tools__call` becomes the call it names, which runs
        // below as a direct one; a tool `--group`/`--tools` left out is refused (discovery.rs).
        let (tool, arguments) = match self.discovery.route(tool, arguments) {
            super::discovery::Route::Run { tool, arguments } => (tool, arguments),
            super::discovery::Route::Answer(value) => {
                let result: CallToolResult =
                    typed(complete(value), "result").map_err(invalid_result)?;
                return Ok(CallToolResponse::Complete(result));
            }
        };
        let held = context.meta.get(META_SCHEMA_HASH).and_then(Value::as_str);
        if let Some(stale) = self.schemas.stale(&tool, held, &arguments) {
            let value = complete(self.schemas.stale_result(&tool, &stale));
            let result: CallToolResult = typed(value, "result").map_err(invalid_result)?;
            return Ok(CallToolResponse::Complete(result));
        }
        // SEP-2663: a client takes tasks by declaring the extension, for its session or in
        // this request's `_meta`; the server then decides (a job command becomes one).
        let task = self.tasks
            && context
                .client_capabilities()
                .is_some_and(|capabilities| capabilities.supports_tasks());
        let call = Request::Call {
            task,
            tool: tool.clone(),
            arguments,
            continuation,
            timeout,
            max_output: context
                .meta
                .get(pas_spec::faces::mcp::META_MAX_OUTPUT_BYTES)
                .cloned(),
        };
        let mut value = self.submit(call, &context).await?;
        if value["resultType"] == "task" {
            let created: CreateTaskResult = typed(value, "task").map_err(invalid_result)?;
            return Ok(CallToolResponse::Task(created));
        }
        self.schemas.stamp(&tool, &mut value);
        let result: CallToolResult = typed(complete(value), "result").map_err(invalid_result)?;
        Ok(CallToolResponse::Complete(result))
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let task = Request::Task {
            id: request.task_id,
            cancel: false,
        };
        let mut value = self.submit(task, &context).await?;
        // The inlined result is stamped as the call's own would be.
        let command = value["_meta"][pas_spec::faces::mcp::META_JOB]["command"].as_str();
        if let Some(tool) = command.map(pas_spec::faces::mcp::tool_name_of)
            && let Some(result) = value.get_mut("result")
        {
            self.schemas.stamp(&tool, result);
        }
        typed(complete(value), "task").map_err(invalid_result)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let task = Request::Task {
            id: request.task_id,
            cancel: true,
        };
        self.submit(task, &context).await.map(|_| ())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        match &self.templates {
            Some(templates) => Ok(ListResourceTemplatesResult::clone(templates)),
            None => Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this tool has no resources",
                None,
            )),
        }
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        if self.templates.is_none() {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this tool has no resources",
                None,
            ));
        }
        let cursor = request.and_then(|r| r.cursor);
        let value = self
            .submit(Request::ListResources { cursor }, &context)
            .await?;
        typed(complete(value), "resource list").map_err(invalid_result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if self.templates.is_none() {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "this tool has no resources",
                None,
            ));
        }
        let value = self
            .submit(Request::ReadResource { uri: request.uri }, &context)
            .await?;
        let result: ReadResourceResult =
            typed(complete(value), "resource").map_err(invalid_result)?;
        Ok(ReadResourceResponse::Complete(result))
    }
}

/// A result the server built as JSON, marked `resultType: "complete"`: protocol 2026-07-28
/// requires the field on every result (a client on that version refuses a result without it),
/// and rmcp takes it out again for a peer on an older version
/// (`ServerResult::strip_result_type_for_legacy_peer`), whose results keep their old shape.
fn complete(mut value: Value) -> Value {
    if let Some(result) = value.as_object_mut() {
        result.insert("resultType".to_owned(), json!("complete"));
    }
    value
}

/// A call's `_meta` `pas-kit/timeout`: a number of seconds (decimals allowed) from 0 (no limit of
/// the caller's) to `PAS_TIMEOUT`'s largest; anything else is the call's invalid-params error,
/// so a limit the caller meant is never silently dropped.
fn per_call_timeout(value: &Value) -> Result<Option<Duration>, ErrorData> {
    let seconds = value
        .as_f64()
        .filter(|s| (0.0..=crate::parse::env_values::MAX_SECONDS).contains(s));
    match seconds {
        Some(0.0) => Ok(None),
        Some(seconds) => Ok(Some(
            Duration::from_secs_f64(seconds).max(Duration::from_millis(1)),
        )),
        None => Err(ErrorData::new(
            ErrorCode::INVALID_PARAMS,
            format!(
                "`_meta.{TIMEOUT_META}` is {value}: give a number of seconds from 0 (no limit) up"
            ),
            None,
        )),
    }
}

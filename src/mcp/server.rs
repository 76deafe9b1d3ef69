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
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode, InitializeResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ProgressToken, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::exec::{Executor, Job, Refused, Request};
use crate::app::App;
use crate::redact::Redactor;

/// The `_meta` key a call continues an unfinished list with.
pub const CONTINUATION_META: &str = "pas/continuation";

/// How long a handler still running when stdin closes may take to notice before the process
/// ends anyway.
const CLOSING_GRACE: Duration = Duration::from_secs(2);

/// Serves MCP on stdio until EOF (exit 0) or a signal.
pub(crate) fn serve(
    app: App,
    registry: Arc<Registry>,
    command: clap::Command,
    redactor: Redactor,
) -> ExitCode {
    let tools_list = pas_spec::faces::mcp::tools_list(&registry);
    let (jobs, queue) = mpsc::channel::<Job>();
    let closing = Arc::new(AtomicBool::new(false));
    let server = match Server::new(&registry, &tools_list, jobs, closing.clone()) {
        Ok(server) => server,
        Err(error) => {
            eprintln!("{}", json!({"error": "INTERNAL_ERROR", "message": error}));
            return ExitCode::from(1);
        }
    };
    end_on_signals();
    let protocol = std::thread::Builder::new()
        .name("mcp-protocol".into())
        .spawn(move || {
            run_protocol(server, closing.clone());
            // The handler thread may still be in a call: it is told to stop, and the process
            // ends after a grace period even if the handler does not look.
            closing.store(true, Ordering::SeqCst);
            std::thread::sleep(CLOSING_GRACE);
            std::process::exit(0);
        });
    if let Err(err) = protocol {
        eprintln!(
            "{}",
            json!({"error": "INTERNAL_ERROR", "message": format!("cannot start the MCP server: {err}")})
        );
        return ExitCode::from(1);
    }
    Executor::new(app, registry, command, redactor, &tools_list).serve(queue);
    ExitCode::SUCCESS
}

fn run_protocol(server: Server, closing: Arc<AtomicBool>) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!(
                "{}",
                json!({"error": "INTERNAL_ERROR", "message": format!("cannot start the MCP runtime: {err}")})
            );
            return;
        }
    };
    runtime.block_on(async move {
        let (stdin, stdout) = rmcp::transport::stdio();
        let stdin = EofWatch {
            inner: stdin,
            closing,
        };
        match server.serve((stdin, stdout)).await {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            // The client left (or never initialized): the server ends, quietly on stdout.
            Err(err) => eprintln!(
                "{}",
                json!({"error": "MCP_SESSION_ENDED", "message": format!("the MCP session ended before it began: {err}")})
            ),
        }
    });
}

/// stdin that says when it reached its end: rmcp waits for the calls in flight before it
/// closes, so they are told to stop at once (a handler sees `stop_requested`).
struct EofWatch<R> {
    inner: R,
    closing: Arc<AtomicBool>,
}

impl<R: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for EofWatch<R> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        if let std::task::Poll::Ready(Ok(())) = &polled
            && buf.filled().len() == before
            && buf.remaining() > 0
        {
            self.closing.store(true, Ordering::SeqCst);
        }
        polled
    }
}

/// SIGTERM and SIGINT end the server at once, with the CLI's exit statuses (143, 130): a call
/// in progress is abandoned, and stdout holds whole messages only (rmcp writes each in one go).
fn end_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("mcp-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                std::process::exit(128 + signal);
            }
        });
}

struct Server {
    info: InitializeResult,
    tools: ListToolsResult,
    templates: Option<ListResourceTemplatesResult>,
    /// Each tool's current schema hash, to answer a stale call (see [`super::stale`]).
    schemas: super::stale::Schemas,
    jobs: mpsc::Sender<Job>,
    closing: Arc<AtomicBool>,
}

fn typed<T: DeserializeOwned>(value: Value, what: &str) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("the {what} does not fit MCP: {e}"))
}

impl Server {
    fn new(
        registry: &Registry,
        tools_list: &Value,
        jobs: mpsc::Sender<Job>,
        closing: Arc<AtomicBool>,
    ) -> Result<Server, String> {
        let has_resources = !registry.resources.is_empty();
        let mut capabilities = json!({ "tools": {} });
        if has_resources {
            capabilities["resources"] = json!({});
        }
        let mut info = InitializeResult::default();
        info.capabilities = typed(capabilities, "capabilities")?;
        info.server_info = typed(
            json!({ "name": registry.name, "version": registry.version }),
            "server info",
        )?;
        info.instructions = Some(registry.summary.clone());
        let templates = if has_resources {
            Some(typed(super::resources::templates(registry), "templates")?)
        } else {
            None
        };
        Ok(Server {
            info,
            tools: typed(tools_list.clone(), "tools/list")?,
            templates,
            schemas: super::stale::Schemas::of(registry, tools_list),
            jobs,
            closing,
        })
    }

    /// Hands a request to the handler thread; relays its progress (when the client asked for
    /// it with a progress token) until its answer, then any progress sent just before it.
    async fn submit(
        &self,
        request: Request,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let (answer_to, mut answer) = tokio::sync::oneshot::channel();
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
        };
        self.jobs
            .send(job)
            .map_err(|_| ErrorData::internal_error("the handler thread has stopped", None))?;
        let token = context.meta.get_progress_token();
        let peer = &context.peer;
        let result = loop {
            tokio::select! {
                biased;
                Some(value) = progress.recv() => relay(peer, token.as_ref(), value).await,
                result = &mut answer => break result,
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
        Ok(self.tools.clone())
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
        let tool = request.name.to_string();
        let arguments = request.arguments.unwrap_or_default();
        let held = context.meta.get(META_SCHEMA_HASH).and_then(Value::as_str);
        if let Some(stale) = self.schemas.stale(&tool, held, &arguments) {
            let value = self.schemas.stale_result(&tool, &stale);
            let result: CallToolResult = typed(value, "result").map_err(invalid_result)?;
            return Ok(CallToolResponse::Complete(result));
        }
        let call = Request::Call {
            tool: tool.clone(),
            arguments,
            continuation,
        };
        let mut value = self.submit(call, &context).await?;
        self.schemas.stamp(&tool, &mut value);
        let result: CallToolResult = typed(value, "result").map_err(invalid_result)?;
        Ok(CallToolResponse::Complete(result))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        match &self.templates {
            Some(templates) => Ok(templates.clone()),
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
        typed(value, "resource list").map_err(invalid_result)
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
        let result: ReadResourceResult = typed(value, "resource").map_err(invalid_result)?;
        Ok(ReadResourceResponse::Complete(result))
    }
}

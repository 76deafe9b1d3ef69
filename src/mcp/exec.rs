//! The handler thread of `TOOL mcp`: the thread that built the [`App`] runs every call, one at
//! a time, while the protocol is served on another (handlers are not `Send`, so they stay on
//! the thread that owns them). A call is parsed, guarded and run exactly as the CLI would run
//! it ([`App::invoke`]); only what becomes of the reply differs (see [`super::result`]).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use pas_spec::{Command, Effect, Registry};
use serde_json::{Map, Value, json};

use super::arguments;
use super::hooks::CallHooks;
use super::result::{self, Collected, Items};
use crate::app::App;
use crate::builtins::guard::FORCE_REQUIRED;
use crate::error::Error;
use crate::output::{Output, Shared, Stop};
use crate::redact::Redactor;
use crate::reply::{Body, Encoding, Reply, Stream, StreamKind};
use crate::{codes, panics, parse_error, profile};

/// The most items one `tools/call` returns; the rest of a longer list waits for a
/// continuation (`_meta: {"pas/continuation": TOKEN}` on the next call).
pub const MAX_ITEMS: usize = 1000;
/// How many unfinished lists the server keeps for continuations; the oldest goes first.
pub const MAX_HELD: usize = 8;
/// The most resources one `resources/list` page holds.
pub const MAX_RESOURCES: usize = 1000;

/// Whether the client cancelled the call (or the server is closing).
pub(crate) type Cancelled = Arc<dyn Fn() -> bool + Send + Sync>;
/// One progress notification's `progress`, `total` and `message`, to the client.
pub(crate) type ProgressSink = Arc<dyn Fn(Value) + Send + Sync>;
/// The answer to a job, back to the protocol thread.
pub(crate) type Answer = Box<dyn FnOnce(Result<Value, Refused>) + Send>;

/// What the protocol thread asks of the handler thread.
pub(crate) enum Request {
    Call {
        tool: String,
        arguments: Map<String, Value>,
        continuation: Option<String>,
    },
    ReadResource {
        uri: String,
    },
    ListResources {
        cursor: Option<String>,
    },
}

/// A request that the protocol answers with a JSON-RPC error rather than a result.
pub(crate) struct Refused {
    pub(crate) code: i32,
    pub(crate) message: String,
}

/// JSON-RPC's invalid-params code, and MCP's resource-not-found.
pub(crate) const INVALID_PARAMS: i32 = -32602;
pub(crate) const RESOURCE_NOT_FOUND: i32 = -32002;

/// One request with the ways back to its client.
pub(crate) struct Job {
    pub(crate) request: Request,
    pub(crate) cancelled: Cancelled,
    /// One progress notification's `progress`, `total` and `message`.
    pub(crate) progress: ProgressSink,
    pub(crate) reply: Answer,
}

/// An unfinished list waiting for its continuation.
struct Held {
    token: String,
    tool: String,
    stream: Stream,
    redactor: Redactor,
}

pub(crate) struct Executor {
    app: App,
    registry: Arc<Registry>,
    command: clap::Command,
    redactor: Redactor,
    /// Every MCP tool by name: the command and its `inputSchema` from the face.
    tools: HashMap<String, (Arc<Command>, Value)>,
    validators: HashMap<String, jsonschema::Validator>,
    held: VecDeque<Held>,
    next_token: u64,
}

impl Executor {
    pub(crate) fn new(
        app: App,
        registry: Arc<Registry>,
        command: clap::Command,
        redactor: Redactor,
        tools_list: &Value,
    ) -> Self {
        let schemas: HashMap<&str, &Value> = tools_list["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| Some((t["name"].as_str()?, &t["inputSchema"])))
            .collect();
        let tools = registry
            .all_commands()
            .into_iter()
            .map(|command| {
                let name = pas_spec::faces::mcp::tool_name(&command);
                let schema = schemas.get(name.as_str()).map(|s| (*s).clone());
                (name, (Arc::new(command), schema.unwrap_or(Value::Null)))
            })
            .collect();
        Executor {
            app,
            registry,
            command,
            redactor,
            tools,
            validators: HashMap::new(),
            held: VecDeque::new(),
            next_token: 0,
        }
    }

    /// Serves jobs until the protocol thread hangs up.
    pub(crate) fn serve(mut self, jobs: std::sync::mpsc::Receiver<Job>) {
        while let Ok(job) = jobs.recv() {
            let answer = match job.request {
                Request::Call {
                    tool,
                    arguments,
                    continuation,
                } => self.call(
                    &tool,
                    arguments,
                    continuation,
                    &job.cancelled,
                    &job.progress,
                ),
                Request::ReadResource { uri } => self.read(&uri, &job.cancelled),
                Request::ListResources { cursor } => self.list(cursor, &job.cancelled),
            };
            (job.reply)(answer);
        }
    }

    fn call(
        &mut self,
        tool: &str,
        arguments: Map<String, Value>,
        continuation: Option<String>,
        cancelled: &Cancelled,
        progress: &ProgressSink,
    ) -> Result<Value, Refused> {
        // An unknown tool is a protocol error (MCP), not a tool's error.
        let Some((command, schema)) = self.tools.get(tool).cloned() else {
            return Err(Refused {
                code: INVALID_PARAMS,
                message: format!("unknown tool `{tool}`: tools/list names every tool"),
            });
        };
        Ok(self.run(
            tool,
            &command,
            &schema,
            arguments,
            continuation,
            cancelled,
            progress,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        tool: &str,
        command: &Arc<Command>,
        schema: &Value,
        arguments: Map<String, Value>,
        continuation: Option<String>,
        cancelled: &Cancelled,
        progress: &ProgressSink,
    ) -> Value {
        if let Some(token) = continuation {
            return self.resume(tool, &token, cancelled);
        }
        if let Err(error) = self.validate(tool, schema, &arguments) {
            return self.error_result(error, &self.redactor.clone());
        }
        if let Err(error) = self.force_given(command, &arguments) {
            return self.error_result(error, &self.redactor.clone());
        }
        let has_long = |long: &str| self.subcommand_has_long(command, long);
        let call = arguments::argv(&self.registry, command, &arguments, &has_long);
        let mut redactor = self.redactor.clone();
        redactor.scan_argv(&call.argv);
        let matches = match self.command.try_get_matches_from_mut(call.argv.iter()) {
            Ok(matches) => matches,
            Err(err) => {
                let help = format!("tools/list: {tool}");
                return self.error_result(parse_error::map(&err, &help), &redactor);
            }
        };
        let shared = self.shared(cancelled, progress, call.input, redactor);
        let argv: Vec<std::ffi::OsString> = call.argv.iter().map(Into::into).collect();
        let ran = self.app.invoke(&shared, &matches, &argv, |reply| {
            collect(reply, &shared, progress.as_ref())
        });
        let redactor = shared.lock().redactor.clone();
        match ran {
            Ok(Collected::Items(mut items)) => {
                if let Some(stream) = items.rest.take() {
                    items.continuation = Some(self.hold(tool, stream, redactor.clone()));
                }
                result::success(Collected::Items(items), &redactor)
            }
            Ok(collected) => result::success(collected, &redactor),
            Err(Stop::Failed(error)) => self.error_result(error, &redactor),
            Err(Stop::Closed) => {
                self.error_result(Error::general("the call's output was closed"), &redactor)
            }
        }
    }

    /// The next items of a list a former call left unfinished.
    fn resume(&mut self, tool: &str, token: &str, cancelled: &Cancelled) -> Value {
        let position = self
            .held
            .iter()
            .position(|h| h.token == token && h.tool == tool);
        let Some(held) = position.and_then(|i| self.held.remove(i)) else {
            let error = Error::invalid_argument(format!(
                "no unfinished list of {tool} has the continuation `{token}`"
            ))
            .with_suggestion(format!(
                "a continuation is good once, for the same tool, and only the {MAX_HELD} newest are kept; call the tool again without it"
            ));
            return self.error_result(error, &self.redactor.clone());
        };
        let Held {
            stream, redactor, ..
        } = held;
        let never = |_: Value| {};
        let pulled = panics::catch(|| pull(stream, cancelled.as_ref(), &never));
        match pulled {
            Ok(Ok(mut items)) => {
                if let Some(stream) = items.rest.take() {
                    items.continuation = Some(self.hold(tool, stream, redactor.clone()));
                }
                result::success(Collected::Items(items), &redactor)
            }
            Ok(Err(error)) | Err(error) => self.error_result(error, &redactor),
        }
    }

    fn hold(&mut self, tool: &str, stream: Stream, redactor: Redactor) -> String {
        self.next_token += 1;
        let token = format!("{}-{}", std::process::id(), self.next_token);
        if self.held.len() == MAX_HELD {
            self.held.pop_front();
        }
        self.held.push_back(Held {
            token: token.clone(),
            tool: tool.to_owned(),
            stream,
            redactor,
        });
        token
    }

    fn validate(
        &mut self,
        tool: &str,
        schema: &Value,
        arguments: &Map<String, Value>,
    ) -> Result<(), Error> {
        if !self.validators.contains_key(tool) {
            let validator = jsonschema::validator_for(schema).map_err(|e| {
                Error::internal(format!("the inputSchema of {tool} does not compile: {e}"))
            })?;
            self.validators.insert(tool.to_owned(), validator);
        }
        let validator = &self.validators[tool];
        let instance = Value::Object(arguments.clone());
        let problems: Vec<(String, String)> = validator
            .iter_errors(&instance)
            .map(|error| (argument_named(&error), error.to_string()))
            .collect();
        let Some((name, _)) = problems.first() else {
            return Ok(());
        };
        let message = problems
            .iter()
            .map(|(name, what)| format!("argument `{name}`: {what}"))
            .collect::<Vec<_>>()
            .join("; ");
        Err(Error::new(codes::INVALID_ARGUMENT, message)
            .with_suggestion(format!("tools/list shows the inputSchema of {tool}"))
            .with_details(json!({
                "argument": name,
                "problems": problems.iter().map(|(n, m)| json!({"argument": n, "message": m})).collect::<Vec<_>>(),
            })))
    }

    /// A destructive command needs `force: true` (or a dry run). When the CLI has a `--force`
    /// for it, the runtime's own guard decides (it gets `--force` from the argument); this
    /// covers the commands whose CLI confirmation is not the runtime's.
    fn force_given(&self, command: &Command, arguments: &Map<String, Value>) -> Result<(), Error> {
        let on = |name: &str| arguments.get(name) == Some(&Value::Bool(true));
        if command.effect != Effect::Destructive
            || on("force")
            || (command.dry_run && on("dry-run"))
            || self.subcommand_has_long(command, "force")
        {
            return Ok(());
        }
        Err(Error::new(
            FORCE_REQUIRED,
            format!("{} is destructive and needs force", command.name),
        )
        .with_suggestion(force_hint(command)))
    }

    fn subcommand_has_long(&self, command: &Command, long: &str) -> bool {
        let mut cmd = &self.command;
        for word in command.argv_path() {
            match cmd.find_subcommand(&word) {
                Some(sub) => cmd = sub,
                None => return false,
            }
        }
        cmd.get_arguments().any(|a| a.get_long() == Some(long))
    }

    fn shared(
        &self,
        cancelled: &Cancelled,
        progress: &ProgressSink,
        input: Option<Vec<u8>>,
        redactor: Redactor,
    ) -> Arc<Shared> {
        let cancelled = cancelled.clone();
        let progress = progress.clone();
        let hooks = CallHooks {
            cancelled: Box::new(move || cancelled()),
            progress: Box::new(move |line| {
                if let Ok(event) = serde_json::from_slice::<Value>(line) {
                    progress(progress_of(&event));
                }
            }),
            input,
        };
        let profile = profile::for_call(self.registry.clone(), true, &[]);
        let output = Output::new(profile, redactor, None);
        Arc::new(Shared::new(self.registry.clone(), true, output).with_mcp(hooks))
    }

    fn error_result(&self, mut error: Error, redactor: &Redactor) -> Value {
        if error.code() == FORCE_REQUIRED {
            // The CLI's hint names `--force`; over MCP the confirmation is an argument.
            let hint = self
                .registry
                .all_commands()
                .into_iter()
                .find(|c| error.message().starts_with(&format!("{} ", c.name)))
                .map(|c| force_hint(&c))
                .unwrap_or_else(|| "call again with `force: true`".to_owned());
            error = error.with_suggestion(hint);
        }
        redactor.error(&mut error);
        let profile = profile::for_call(self.registry.clone(), true, &[]);
        let exit = profile.exit_code(&error);
        result::error(&error, exit)
    }

    /// `resources/read`: the `cat` verb of the path the URI names.
    fn read(&mut self, uri: &str, cancelled: &Cancelled) -> Result<Value, Refused> {
        let path = super::resources::path_of(&self.registry.name, uri).ok_or_else(|| Refused {
            code: RESOURCE_NOT_FOUND,
            message: format!(
                "{uri} is not a resource of {}: URIs are {}:///PATH",
                self.registry.name, self.registry.name
            ),
        })?;
        let collected = self
            .verb(&["cat", &path], cancelled)
            .map_err(|error| Refused {
                code: RESOURCE_NOT_FOUND,
                message: format!("{uri}: {}: {}", error.code(), error.message()),
            })?;
        Ok(super::resources::contents(uri, collected))
    }

    /// `resources/list`: every file `ls` reaches from `/`, one page at a time.
    fn list(&mut self, cursor: Option<String>, cancelled: &Cancelled) -> Result<Value, Refused> {
        let skip: usize = match cursor.as_deref().map(str::parse) {
            None => 0,
            Some(Ok(skip)) => skip,
            Some(Err(_)) => {
                return Err(Refused {
                    code: INVALID_PARAMS,
                    message: "the cursor is not one this server gave".to_owned(),
                });
            }
        };
        let offers_ls = self
            .registry
            .resources
            .iter()
            .any(|r| r.verbs.contains(&pas_spec::Verb::Ls));
        let mut files: Vec<Value> = Vec::new();
        let mut dirs: VecDeque<String> = VecDeque::from(["/".to_owned()]);
        let mut seen = 0usize;
        let mut more = false;
        while let Some(dir) = dirs.pop_front().filter(|_| offers_ls) {
            // A directory that cannot be listed is left out, not the whole list.
            let Ok(Collected::Items(items)) = self.verb(&["ls", &dir], cancelled) else {
                continue;
            };
            for entry in items.items {
                let path = entry["path"].as_str().unwrap_or_default().to_owned();
                if entry["type"] == "dir" {
                    dirs.push_back(path);
                } else if seen < skip {
                    seen += 1;
                } else if files.len() == MAX_RESOURCES {
                    more = true;
                    break;
                } else {
                    files.push(super::resources::resource(&self.registry.name, &entry));
                }
            }
            if more {
                break;
            }
        }
        let mut page = json!({ "resources": files });
        if more {
            page["nextCursor"] = (skip + MAX_RESOURCES).to_string().into();
        }
        Ok(page)
    }

    /// Runs a verb command on a path, as a resource request does.
    fn verb(&mut self, words: &[&str], cancelled: &Cancelled) -> Result<Collected, Error> {
        let mut argv: Vec<String> = vec![self.registry.name.clone()];
        argv.push(words[0].to_owned());
        argv.push("--".to_owned());
        argv.extend(words[1..].iter().map(|w| (*w).to_owned()));
        let matches = self
            .command
            .try_get_matches_from_mut(argv)
            .map_err(|err| parse_error::map(&err, "resources/templates/list"))?;
        let never: ProgressSink = Arc::new(|_| {});
        let shared = self.shared(cancelled, &never, None, self.redactor.clone());
        let ran = self.app.invoke(&shared, &matches, &[], |reply| {
            collect(reply, &shared, &|_| {})
        });
        let redactor = shared.lock().redactor.clone();
        match ran {
            Ok(collected) => Ok(redactor.collected(collected)),
            Err(Stop::Failed(mut error)) => {
                redactor.error(&mut error);
                Err(error)
            }
            Err(Stop::Closed) => Err(Error::general("the call's output was closed")),
        }
    }
}

/// The hint of a destructive call without `force`.
fn force_hint(command: &Command) -> String {
    let mut hint = format!(
        "call {} again with `force: true` to confirm",
        pas_spec::faces::mcp::tool_name(command)
    );
    if command.dry_run {
        hint.push_str(", or `dry-run: true` to see what it would do");
    }
    hint
}

/// The argument a schema violation is about: the first segment of its instance path, else the
/// property a `required` or `additionalProperties` error names.
fn argument_named(error: &jsonschema::ValidationError<'_>) -> String {
    use jsonschema::error::ValidationErrorKind;
    if let Some(segment) = error.instance_path().iter().next() {
        return segment.to_string();
    }
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            property.as_str().unwrap_or_default().to_owned()
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => unexpected.join(", "),
        _ => String::new(),
    }
}

/// A CLI progress event (`{"event","position","total","message"}`) as MCP progress.
fn progress_of(event: &Value) -> Value {
    let mut progress = json!({ "progress": event["position"].as_f64().unwrap_or(0.0) });
    if let Some(total) = event["total"].as_f64() {
        progress["total"] = total.into();
    }
    if let Some(message) = event["message"].as_str() {
        progress["message"] = message.into();
    }
    progress
}

/// The reply as data: an object, the first [`MAX_ITEMS`] items of a list (the rest kept), the
/// events of a stream (each also sent as progress), a document, or nothing.
fn collect(reply: Reply, shared: &Shared, progress: &dyn Fn(Value)) -> Result<Collected, Stop> {
    let cancelled = || shared.mcp.as_ref().is_some_and(|hooks| (hooks.cancelled)());
    if cancelled() {
        return Err(Stop::Failed(cancelled_error()));
    }
    match reply.body {
        Body::Object(object) => {
            let bytes = object.json.map_err(Stop::Failed)?;
            let value = serde_json::from_slice(&bytes)
                .map_err(|e| Stop::Failed(crate::reply::serialise_error(e)))?;
            Ok(Collected::Object(value))
        }
        Body::Document(markdown) => Ok(Collected::Document(markdown)),
        Body::Nothing => Ok(Collected::Nothing),
        Body::Stream(stream) => Ok(Collected::Items(pull(stream, &cancelled, progress)?)),
    }
}

/// Pulls up to [`MAX_ITEMS`] items of a stream. A list longer than that keeps its rest for a
/// continuation; an event stream is drained (each event is progress) and keeps only the first
/// [`MAX_ITEMS`] in the result.
fn pull(
    mut stream: Stream,
    cancelled: &dyn Fn() -> bool,
    progress: &dyn Fn(Value),
) -> Result<Items, Error> {
    let mut items = Items {
        items: Vec::new(),
        page: stream.page.take(),
        truncated: false,
        rest: None,
        continuation: None,
    };
    let mut buf = Vec::new();
    let mut count = 0u64;
    loop {
        if cancelled() {
            return Err(cancelled_error());
        }
        if stream.kind == StreamKind::List && items.items.len() == MAX_ITEMS {
            items.rest = Some(stream);
            return Ok(items);
        }
        buf.clear();
        match (stream.next)(Encoding::Json, &mut buf) {
            None => return Ok(items),
            Some(Err(error)) => return Err(error),
            Some(Ok(())) => {}
        }
        let value: Value = serde_json::from_slice(&buf).map_err(crate::reply::serialise_error)?;
        if stream.kind == StreamKind::Events {
            count += 1;
            progress(json!({ "progress": count, "message": String::from_utf8_lossy(&buf) }));
            if items.items.len() == MAX_ITEMS {
                items.truncated = true;
                continue;
            }
        }
        items.items.push(value);
    }
}

fn cancelled_error() -> Error {
    Error::new("CANCELLED", "the client cancelled the call")
}

impl Redactor {
    /// The data with every known secret replaced.
    pub(crate) fn collected(&self, collected: Collected) -> Collected {
        match collected {
            Collected::Object(mut value) => {
                self.json(&mut value);
                Collected::Object(value)
            }
            Collected::Items(mut items) => {
                items.items.iter_mut().for_each(|v| self.json(v));
                Collected::Items(items)
            }
            Collected::Document(text) => Collected::Document(self.text(&text)),
            Collected::Nothing => Collected::Nothing,
        }
    }
}

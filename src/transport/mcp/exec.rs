//! The calls of `TOOL mcp`: the thread that built the [`App`] hands each request to a thread of
//! its own (at most [`super::queue::MAX_CALLS`] at once, the rest wait their turn in
//! [`super::queue`]), all
//! sharing the app, while
//! the protocol is served on another thread. Handlers are `Send + Sync` for this (see
//! [`crate::run::app::Handler`]); a reply need not be: it is consumed on the thread that made it, and
//! a list left unfinished for a continuation waits on that thread too (see [`Executor::park`]).
//! A call is parsed, guarded and run exactly as the CLI would run it ([`App::invoke`]); only
//! what becomes of the reply differs (see [`super::result`]).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use pas_spec::{Command, Registry};
use serde_json::{Map, Value, json};

use super::queue::{
    Answer, Cancelled, Job, Next, ProgressSink, Queue, Refused, Request, Slot, Started,
};
use super::result::{self, Collected, Items};
use super::{arguments, confirm};
use crate::end::call_state::{Output, Shared, Stop};
use crate::end::hooks::{CallHooks, TaskStarted};
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::parse::argv::Prescan;
use crate::reply::{Body, Encoding, Reply, Stream, StreamKind};
use crate::run::app::App;
use crate::{codes, end::panics, parse::parse_error, profile};

/// The most items one `tools/call` returns; the rest of a longer list waits for a
/// continuation (`_meta: {"pas/continuation": TOKEN}` on the next call).
pub const MAX_ITEMS: usize = 1000;
/// How many unfinished lists the server keeps for continuations; the oldest goes first.
pub const MAX_HELD: usize = 8;
/// The most resources one `resources/list` page holds.
pub const MAX_RESOURCES: usize = 1000;
// (Unfinished lists, at most [`MAX_HELD`], wait for their continuations on threads besides
// the `MAX_CALLS` of the calls.)

// The app is shared by the threads of concurrent calls: everything it holds must be `Sync`
// (handlers, resource handlers, health checks, robot probes). This fails to compile otherwise.
const _: fn() = || {
    fn shared_by_threads<T: Sync>() {}
    shared_by_threads::<App>();
    shared_by_threads::<Executor>();
};

/// JSON-RPC's invalid-params code, and MCP's resource-not-found.
pub(crate) const INVALID_PARAMS: i32 = -32602;
pub(crate) const RESOURCE_NOT_FOUND: i32 = -32002;

/// JSON-RPC's internal-error code.
const INTERNAL_ERROR: i32 = -32603;

/// What the client gave a `tools/call`: its arguments, its output bound
/// (`_meta: {"pas-kit/maxOutputBytes": N}`), and whether it takes tasks.
struct Given {
    arguments: Map<String, Value>,
    max_output: Option<Value>,
    task: bool,
}

/// An unfinished list waiting for its continuation: the way to the thread that holds it.
struct Held {
    token: String,
    tool: String,
    resume: mpsc::Sender<Resume>,
}

/// A continuation's call, handed to the thread that holds the list.
struct Resume {
    cancelled: Cancelled,
    reply: Answer,
}

/// What a `tools/call` came to.
enum Called {
    /// The result.
    Done(Value),
    /// The result of a list with more to come, and the rest, kept for its continuation.
    Unfinished(Value, Box<Parked>),
    /// A continuation: the call goes to the thread that keeps the list.
    Resume(String),
}

/// A list left unfinished, kept by the thread that made it (a stream need not be `Send`).
struct Parked {
    tool: String,
    stream: Stream,
    /// The item read past the last page's byte bound, and the bound of every page.
    carried: Option<Value>,
    bound: Option<u64>,
    redactor: Redactor,
    resumes: mpsc::Receiver<Resume>,
}

pub(crate) struct Executor {
    app: App,
    registry: Arc<Registry>,
    /// The parser, shared: locked only while a call's argv is parsed.
    command: Mutex<clap::Command>,
    redactor: Redactor,
    /// Every MCP tool by name: the command and its `inputSchema` from the face.
    tools: HashMap<String, (Arc<Command>, Value)>,
    validators: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
    held: Mutex<VecDeque<Held>>,
    next_token: AtomicU64,
    /// The time limit of a call whose command declares none (`TOOL mcp --call-timeout`).
    call_timeout: Option<Duration>,
}

/// A lock that a panic elsewhere did not spoil (the data behind it stays consistent: every
/// critical section here is a plain insert, remove or parse).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Executor {
    pub(crate) fn new(
        app: App,
        registry: Arc<Registry>,
        command: clap::Command,
        redactor: Redactor,
        tools_list: &Value,
        call_timeout: Option<Duration>,
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
            command: Mutex::new(command),
            redactor,
            tools,
            validators: Mutex::new(HashMap::new()),
            held: Mutex::new(VecDeque::new()),
            next_token: AtomicU64::new(0),
            call_timeout,
        }
    }

    /// Serves requests until the queue ends, each on a thread of its own (at most
    /// [`super::queue::MAX_CALLS`] at once), then waits for the calls still running.
    pub(crate) fn serve(self, queue: &Arc<Queue>) {
        std::thread::scope(|scope| {
            loop {
                let (job, slot) = match queue.next() {
                    Next::Run(job, slot) => (job, slot),
                    Next::Refuse(job) => {
                        (job.reply)(Ok(self.error_result(not_run(), &self.redactor)));
                        continue;
                    }
                    Next::End => break,
                };
                let this = &self;
                let ends = slot.clone();
                let spawned = std::thread::Builder::new()
                    .name("mcp-call".into())
                    .spawn_scoped(scope, move || {
                        // A panic outside the handler's own catcher drops the job's answer
                        // (the client gets an internal error) and never the server.
                        let parked = panics::catch(|| this.answer(job, slot)).unwrap_or(None);
                        ends.finished();
                        if let Some(parked) = parked {
                            let _ = panics::catch(|| this.park(parked));
                        }
                    });
                if let Err(err) = spawned {
                    // The job is dropped with its answer channel: the client gets an internal
                    // error for this request, and the server goes on.
                    eprintln!(
                        "{}",
                        json!({"error": "INTERNAL_ERROR", "message": format!("cannot start a thread for a call: {err}")})
                    );
                }
            }
            // Lists kept for a continuation end with the session.
            lock(&self.held).clear();
        });
    }

    /// Serves one request on the calling thread; a list left unfinished is returned, for the
    /// thread to keep until its continuation comes (see [`Executor::park`]).
    fn answer(&self, job: Job, slot: Arc<Slot>) -> Option<Parked> {
        let Job {
            request,
            cancelled,
            progress,
            reply,
            started,
        } = job;
        let effect = Arc::new(Mutex::new(None));
        let (limit, on_timeout) = match &request {
            Request::Call {
                tool,
                continuation: None,
                timeout,
                ..
            } => match self.limit_of(tool, *timeout, &effect) {
                Some((limit, on_timeout)) => (Some(limit), Some(on_timeout)),
                None => (None, None),
            },
            _ => (None, None),
        };
        started(Started {
            slot,
            limit,
            on_timeout,
        });
        match request {
            Request::Call {
                tool,
                arguments,
                continuation,
                max_output,
                task,
                ..
            } => match self.call(
                &tool,
                Given {
                    arguments,
                    max_output,
                    task,
                },
                continuation,
                &cancelled,
                &progress,
                effect,
            ) {
                Ok(Called::Done(value)) => reply(Ok(value)),
                Ok(Called::Unfinished(value, parked)) => {
                    reply(Ok(value));
                    return Some(*parked);
                }
                Ok(Called::Resume(resume)) => self.resume(&tool, resume, cancelled, reply),
                Err(refused) => reply(Err(refused)),
            },
            Request::ReadResource { uri } => reply(self.read(&uri, &cancelled)),
            Request::ListResources { cursor } => reply(self.list(cursor, &cancelled)),
            Request::Task { id, cancel } => reply(self.task(&id, cancel)),
        }
        None
    }

    fn call(
        &self,
        tool: &str,
        given: Given,
        continuation: Option<String>,
        cancelled: &Cancelled,
        progress: &ProgressSink,
        effect: Effect,
    ) -> Result<Called, Refused> {
        // An unknown tool is a protocol error (MCP), not a tool's error.
        let Some(found) = self.tools.get(tool).cloned() else {
            return Err(Refused {
                code: INVALID_PARAMS,
                message: format!("unknown tool `{tool}`: tools/list names every tool"),
            });
        };
        if let Some(token) = continuation {
            return Ok(Called::Resume(token));
        }
        Ok(self.run(tool, &found, given, cancelled, progress, effect))
    }

    /// The time limit of a call of `tool` and the result it ends with when the limit passes
    /// while the handler runs: `TIMEOUT`, with what is known of the call's effect (see
    /// [`crate::end::outcome`]). The limit is the command's declared `timeout`, else the server's
    /// `--call-timeout`; the caller's limit (the call's `_meta` `pas-kit/timeout`, else the
    /// server's own `--timeout`/`PAS_TIMEOUT`, as a CLI call's) may only lower it, and stands
    /// alone where neither exists: the rule of a CLI call ([`crate::guards::deadline::call_limit`]).
    fn limit_of(
        &self,
        tool: &str,
        per_call: Option<Option<Duration>>,
        effect: &Effect,
    ) -> Option<(Duration, Box<dyn FnOnce() -> Value + Send>)> {
        let (command, _) = self.tools.get(tool)?;
        let declared = crate::guards::deadline::declared(command);
        let caller = per_call.unwrap_or_else(|| crate::guards::deadline::caller().limit());
        let base = declared.or(self.call_timeout);
        let limit = match (base, caller) {
            (Some(base), Some(caller)) => base.min(caller),
            (base, caller) => base.or(caller)?,
        };
        let by_declaration = declared == Some(limit);
        let ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX);
        let hint = match (by_declaration, base == Some(limit)) {
            (true, _) => "narrow the call: the command declares this limit".to_owned(),
            (false, true) => format!(
                "narrow the call, or start the server with a longer limit (`{} --call-timeout SECONDS`)",
                pas_spec::surface::builtin_call(&self.registry, super::WORD)
            ),
            (false, false) => {
                "narrow the call, or give it a longer limit (`_meta: {\"pas-kit/timeout\": SECONDS}`)"
                    .to_owned()
            }
        };
        let declared = declared.filter(|_| by_declaration);
        let error = Error::new(
            codes::TIMEOUT,
            format!("the call ran past its time limit of {ms} ms"),
        )
        .with_suggestion(hint)
        .with_details(json!({ "limit_ms": ms, "declared": declared.is_some() }));
        let facts = crate::end::outcome::Facts::of(&self.registry, command, false, |c| {
            pas_spec::faces::mcp::tool_name(c)
        });
        let profile = crate::run::rooms::profile_for_call(
            self.app.rooms(),
            self.registry.clone(),
            &Prescan::agent_only(),
        );
        let exit = profile.exit_code(&error);
        let effect = effect.clone();
        let on_timeout = move || {
            let reported = *effect.lock().unwrap_or_else(PoisonError::into_inner);
            let error = crate::end::outcome::interrupted(error, &facts, reported);
            result::error(&error, exit)
        };
        Some((limit, Box::new(on_timeout)))
    }

    /// Runs `tool`, found as its command and its `inputSchema`.
    fn run(
        &self,
        tool: &str,
        (command, schema): &(Arc<Command>, Value),
        Given {
            arguments,
            max_output,
            task,
        }: Given,
        cancelled: &Cancelled,
        progress: &ProgressSink,
        effect: Effect,
    ) -> Called {
        let max_output = max_output.as_ref();
        if let Err(error) = self.validate(tool, schema, &arguments) {
            return Called::Done(self.error_result(error, &self.redactor));
        }
        let bound = match super::bound::of(command, max_output) {
            Ok(bound) => bound,
            Err(error) => return Called::Done(self.error_result(error, &self.redactor)),
        };
        if let Err(error) = self.confirmed(command, &arguments) {
            return Called::Done(self.error_result(error, &self.redactor));
        }
        let has_long = |long: &str| self.subcommand_has_long(command, long);
        let call = arguments::argv(&self.registry, command, &arguments, &has_long);
        let mut redactor = self.redactor.clone();
        redactor.scan_argv(&call.argv);
        let parsed = lock(&self.command).try_get_matches_from_mut(call.argv.iter());
        let matches = match parsed {
            Ok(matches) => matches,
            Err(err) => {
                let help = format!("tools/list: {tool}");
                return Called::Done(self.error_result(parse_error::map(&err, &help), &redactor));
            }
        };
        // A client that takes tasks: a job command starts detached and is answered as a task.
        let started = (task && self.offers_tasks()).then(TaskStarted::default);
        let shared = self.shared(
            cancelled,
            progress,
            call.input,
            redactor,
            effect,
            started.clone(),
        );
        let argv: Vec<std::ffi::OsString> = call.argv.iter().map(Into::into).collect();
        let ran = self.app.invoke(&shared, &matches, &argv, |reply| {
            collect(reply, &shared, progress.as_ref(), bound)
        });
        let descriptor = started.and_then(|cell| lock(&cell).take());
        if let (Ok(_), Some(descriptor)) = (&ran, descriptor) {
            return Called::Done(super::tasks::created(&descriptor));
        }
        let (redactor, ran) = {
            let output = shared.lock();
            // The data as the CLI's envelope holds it (compose and robot; item 7 of issue 12).
            let ran = ran.map(|collected| envelope_data(&*output.profile, collected));
            (output.redactor.clone(), ran)
        };
        match ran {
            Ok(Collected::Items(items)) => self.items_result(tool, items, bound, redactor),
            Ok(collected) => match bound {
                Some(bound) => {
                    Called::Done(self.bounded(command, &arguments, collected, bound, &redactor))
                }
                None => Called::Done(result::success(collected, &redactor)),
            },
            Err(Stop::Failed(error)) => Called::Done(self.error_result(error, &redactor)),
            Err(Stop::Closed) => Called::Done(
                self.error_result(Error::general("the call's output was closed"), &redactor),
            ),
        }
    }

    /// The result of a list's items; a list with more to come is kept for its continuation.
    fn items_result(
        &self,
        tool: &str,
        mut items: Items,
        bound: Option<u64>,
        redactor: Redactor,
    ) -> Called {
        let Some(stream) = items.rest.take() else {
            return Called::Done(result::success(Collected::Items(items), &redactor));
        };
        let carried = items.carried.take();
        let (resume, resumes) = mpsc::channel();
        items.continuation = Some(self.hold(tool, resume));
        let value = result::success(Collected::Items(items), &redactor);
        let parked = Parked {
            tool: tool.to_owned(),
            stream,
            carried,
            bound,
            redactor,
            resumes,
        };
        Called::Unfinished(value, Box::new(parked))
    }

    /// The result of an object or document under a `bound`: as it is when it fits, else
    /// written whole to a file of the tool's and answered with its pointer (and, for a level
    /// 3/4 `cat`, a link to the resource). A file that cannot be written leaves the result
    /// whole, as on the command line (nothing is lost either way).
    fn bounded(
        &self,
        command: &Command,
        arguments: &Map<String, Value>,
        collected: Collected,
        bound: u64,
        redactor: &Redactor,
    ) -> Value {
        let collected = redactor.collected(collected);
        let (media_type, bytes, what) = match &collected {
            Collected::Object(value) => (
                "application/json",
                value.to_string().into_bytes(),
                "The whole result (one JSON value)",
            ),
            Collected::Document(markdown) => (
                "text/markdown",
                markdown.clone().into_bytes(),
                "The whole document (Markdown)",
            ),
            _ => return result::success(collected, redactor),
        };
        if bytes.len() as u64 <= bound {
            return result::success(collected, redactor);
        }
        match crate::guards::output_file::write_whole(&self.registry.name, media_type, &bytes, what)
        {
            Ok(pointer) => {
                let path = arguments.get("path").and_then(Value::as_str);
                let link = path
                    .filter(|_| {
                        command.name == "cat"
                            && pas_spec::verbs::takes_many_paths(&self.registry, command)
                    })
                    .map(|path| {
                        (
                            super::resources::uri_of(&self.registry.name, path),
                            path.to_owned(),
                        )
                    });
                result::pointer(&pointer, link)
            }
            Err(error) => {
                let mut value = result::success(collected, redactor);
                let warning = crate::guards::output_limit::failed_warning(&error);
                value["_meta"] = json!({ "pas-kit/warnings": [warning] });
                value
            }
        }
    }

    /// Keeps an unfinished list on this thread and serves its continuations, until the list
    /// ends, fails, or is dropped (a newer one took its place, or the session ended).
    fn park(&self, parked: Parked) {
        let Parked {
            tool,
            mut stream,
            mut carried,
            bound,
            redactor,
            mut resumes,
        } = parked;
        while let Ok(Resume { cancelled, reply }) = resumes.recv() {
            let never = |_: Value| {};
            let first = carried.take();
            let pulled = panics::catch(|| pull(stream, first, cancelled.as_ref(), &never, bound));
            let items = match pulled {
                Ok(Ok(items)) => items,
                Ok(Err(error)) | Err(error) => {
                    reply(Ok(self.error_result(error, &redactor)));
                    return;
                }
            };
            match self.items_result(&tool, items, bound, redactor.clone()) {
                Called::Unfinished(value, next) => {
                    reply(Ok(value));
                    stream = next.stream;
                    carried = next.carried;
                    resumes = next.resumes;
                }
                Called::Done(value) => {
                    reply(Ok(value));
                    return;
                }
                Called::Resume(_) => return,
            }
        }
    }

    /// The next items of a list a former call left unfinished: the call goes to the thread
    /// that keeps the list.
    fn resume(&self, tool: &str, token: String, cancelled: Cancelled, reply: Answer) {
        let held = {
            let mut held = lock(&self.held);
            let position = held.iter().position(|h| h.token == token && h.tool == tool);
            position.and_then(|i| held.remove(i))
        };
        let gone = || {
            let error = Error::invalid_argument(format!(
                "no unfinished list of {tool} has the continuation `{token}`"
            ))
            .with_suggestion(format!(
                "a continuation is good once, for the same tool, and only the {MAX_HELD} newest are kept; call the tool again without it"
            ));
            self.error_result(error, &self.redactor)
        };
        let Some(held) = held else {
            return reply(Ok(gone()));
        };
        if let Err(mpsc::SendError(resume)) = held.resume.send(Resume { cancelled, reply }) {
            (resume.reply)(Ok(gone()));
        }
    }

    fn hold(&self, tool: &str, resume: mpsc::Sender<Resume>) -> String {
        let next = self.next_token.fetch_add(1, Ordering::Relaxed) + 1;
        let token = format!("{}-{next}", std::process::id());
        let mut held = lock(&self.held);
        if held.len() == MAX_HELD {
            // Its thread sees the channel close and drops the list.
            held.pop_front();
        }
        held.push_back(Held {
            token: token.clone(),
            tool: tool.to_owned(),
            resume,
        });
        token
    }

    fn validate(
        &self,
        tool: &str,
        schema: &Value,
        arguments: &Map<String, Value>,
    ) -> Result<(), Error> {
        let compiled = lock(&self.validators).get(tool).cloned();
        let validator = match compiled {
            Some(validator) => validator,
            None => {
                let validator = Arc::new(jsonschema::validator_for(schema).map_err(|e| {
                    Error::internal(format!("the inputSchema of {tool} does not compile: {e}"))
                })?);
                lock(&self.validators).insert(tool.to_owned(), validator.clone());
                validator
            }
        };
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

    /// A command that needs confirming needs its confirmation argument (`force: true`, robot's
    /// `yes: true`; see [`confirm`]) or a dry run. When the CLI has that flag on it, the runtime's
    /// own guard decides (it gets the flag from the argument); this covers the commands whose
    /// CLI confirmation is not the runtime's.
    fn confirmed(&self, command: &Command, arguments: &Map<String, Value>) -> Result<(), Error> {
        let on = |name: &str| arguments.get(name) == Some(&Value::Bool(true));
        let flag = confirm::argument(&self.registry);
        if !confirm::needed(&self.registry, command)
            || on(flag)
            || (command.dry_run && on("dry-run"))
            || self.subcommand_has_long(command, flag)
        {
            return Ok(());
        }
        Err(Error::new(
            confirm::error_code(&self.registry).to_owned(),
            format!("{} is destructive and needs {flag}", command.name),
        )
        .with_suggestion(confirm::hint(&self.registry, command)))
    }

    fn subcommand_has_long(&self, command: &Command, long: &str) -> bool {
        let root = lock(&self.command);
        let mut cmd = &*root;
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
        effect: Effect,
        task: Option<TaskStarted>,
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
            effect,
            task,
        };
        let profile = crate::run::rooms::profile_for_call(
            self.app.rooms(),
            self.registry.clone(),
            &Prescan::agent_only(),
        );
        // robot: the call's state (confirmation, session, token controls), as on the CLI.
        let robot = profile.robot_state();
        let output = Output::new(profile, redactor, None);
        let shared = Shared::new(self.registry.clone(), true, output).with_robot(robot);
        Arc::new(shared.with_mcp(hooks))
    }

    fn error_result(&self, mut error: Error, redactor: &Redactor) -> Value {
        if confirm::is_refusal(&self.registry, &error) {
            // The CLI's hint names its flag; over MCP the confirmation is an argument.
            let named = |c: &Command| {
                error.message().starts_with(&format!("{} ", c.name))
                    || error.message().starts_with(&format!("`{}` ", c.name))
            };
            let hint = self
                .registry
                .all_commands()
                .into_iter()
                .find(named)
                .map(|c| confirm::hint(&self.registry, &c))
                .unwrap_or_else(|| {
                    format!(
                        "call again with `{}: true`",
                        confirm::argument(&self.registry)
                    )
                });
            error = error.with_suggestion(hint);
        }
        redactor.error(&mut error);
        let profile = crate::run::rooms::profile_for_call(
            self.app.rooms(),
            self.registry.clone(),
            &Prescan::agent_only(),
        );
        let exit = profile.exit_code(&error);
        result::error(&profile.envelope_error(error), exit)
    }

    /// Whether this server answers job commands as tasks: the tool has a job command and
    /// links the job store.
    pub(crate) fn offers_tasks(&self) -> bool {
        self.registry.offers_jobs() && self.app.rooms().jobs.is_some()
    }

    /// `tasks/get` (or `tasks/cancel`) of the task that is job `id` (see [`super::tasks`]).
    fn task(&self, id: &str, cancel: bool) -> Result<Value, Refused> {
        let jobs = self.app.rooms().jobs.filter(|_| self.offers_tasks());
        let Some(jobs) = jobs else {
            return Err(Refused {
                code: INVALID_PARAMS,
                message: format!("no task `{id}`: this tool has no job commands"),
            });
        };
        let refused = |error: Error| Refused {
            code: match error.code() {
                pas_spec::builtin_codes::JOB_NOT_FOUND => INVALID_PARAMS,
                _ => INTERNAL_ERROR,
            },
            message: format!("{}: {}", error.code(), error.message()),
        };
        if cancel {
            // An empty acknowledgement; the cancelled state shows in the next tasks/get.
            return (jobs.cancel)(&self.registry, id, "MCP `tasks/cancel`")
                .map(|()| json!({}))
                .map_err(refused);
        }
        let manifest = (jobs.follow)(&self.registry, id).map_err(refused)?;
        Ok(super::tasks::detailed(
            &manifest,
            &self.redactor,
            &|error| self.error_result(error, &self.redactor),
        ))
    }

    /// `resources/read`: the `cat` verb of the path the URI names.
    fn read(&self, uri: &str, cancelled: &Cancelled) -> Result<Value, Refused> {
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
    fn list(&self, cursor: Option<String>, cancelled: &Cancelled) -> Result<Value, Refused> {
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
    fn verb(&self, words: &[&str], cancelled: &Cancelled) -> Result<Collected, Error> {
        let mut argv: Vec<String> = vec![self.registry.name.clone()];
        argv.push(words[0].to_owned());
        argv.push("--".to_owned());
        argv.extend(words[1..].iter().map(|w| (*w).to_owned()));
        let matches = lock(&self.command)
            .try_get_matches_from_mut(argv)
            .map_err(|err| parse_error::map(&err, "resources/templates/list"))?;
        let never: ProgressSink = Arc::new(|_| {});
        let shared = self.shared(
            cancelled,
            &never,
            None,
            self.redactor.clone(),
            Effect::default(),
            None,
        );
        let ran = self.app.invoke(&shared, &matches, &[], |reply| {
            collect(reply, &shared, &|_| {}, None)
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

/// The collected reply with the data as the profile's envelope would hold it.
fn envelope_data(profile: &dyn profile::Profile, collected: Collected) -> Collected {
    match collected {
        Collected::Object(value) => Collected::Object(profile.envelope_data(value)),
        Collected::Items(mut items) => {
            let list = Value::Array(std::mem::take(&mut items.items));
            match profile.envelope_data(list) {
                Value::Array(list) => items.items = list,
                // A profile that made the list something else: keep it whole.
                other => return Collected::Object(other),
            }
            Collected::Items(items)
        }
        other => other,
    }
}

/// The reply as data: an object, the first [`MAX_ITEMS`] items of a list (the rest kept), the
/// events of a stream (each also sent as progress), a document, or nothing.
///
/// The handler returned: what it did is done, and its result is reported even when the call
/// was cancelled (or the session ended) meanwhile. Only a stream still being read stops early
/// on a cancel (its items are made as it is read).
fn collect(
    reply: Reply,
    shared: &Shared,
    progress: &dyn Fn(Value),
    bound: Option<u64>,
) -> Result<Collected, Stop> {
    let cancelled = || shared.mcp.as_ref().is_some_and(|hooks| (hooks.cancelled)());
    match reply.body {
        Body::Object(object) => {
            let bytes = object.json.map_err(Stop::Failed)?;
            let value = serde_json::from_slice(&bytes)
                .map_err(|e| Stop::Failed(crate::error::serialise_error(e)))?;
            Ok(Collected::Object(value))
        }
        Body::Document(markdown) => Ok(Collected::Document(markdown)),
        Body::Nothing => Ok(Collected::Nothing),
        Body::Stream(stream) => Ok(Collected::Items(pull(
            stream, None, &cancelled, progress, bound,
        )?)),
    }
}

/// Pulls up to [`MAX_ITEMS`] items of a stream, `first` (an item the former page read past its
/// bound) first. A list longer than that, or than `bound` bytes of items (compact JSON, a comma
/// each), keeps its rest for a continuation, the page ending at its last whole item under the
/// bound (at least one item, whole: a value is never cut); an event stream is drained (each
/// event is progress) and keeps only the first [`MAX_ITEMS`] in the result.
fn pull(
    mut stream: Stream,
    first: Option<Value>,
    cancelled: &dyn Fn() -> bool,
    progress: &dyn Fn(Value),
    bound: Option<u64>,
) -> Result<Items, Error> {
    let mut items = Items {
        items: Vec::new(),
        page: stream.page.take(),
        truncated: false,
        rest: None,
        continuation: None,
        carried: None,
    };
    let mut bytes = 0u64;
    if let Some(first) = first {
        bytes += first.to_string().len() as u64 + 1;
        items.items.push(first);
    }
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
        match (stream.next)(Encoding::Json, &mut crate::reply::ItemOut::new(&mut buf)) {
            None => return Ok(items),
            Some(Err(error)) => return Err(error),
            Some(Ok(())) => {}
        }
        let value: Value = serde_json::from_slice(&buf).map_err(crate::error::serialise_error)?;
        if stream.kind == StreamKind::List
            && let Some(bound) = bound
        {
            let size = buf.len() as u64 + 1;
            if !items.items.is_empty() && bytes + size > bound {
                items.carried = Some(value);
                items.rest = Some(stream);
                return Ok(items);
            }
            bytes += size;
        }
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
    Error::new(
        pas_spec::runtime_codes::CANCELLED,
        "the client cancelled the call",
    )
}

/// The error of a request still waiting when the session ended (its reply is written only if
/// the client still reads): nothing happened, so it may be made again.
fn not_run() -> Error {
    Error::new(
        pas_spec::runtime_codes::CANCELLED,
        "the session ended before the call ran: nothing was done",
    )
    .with_suggestion("make the call again if it is still wanted")
    .with_retryable(true)
}

/// What a call's handler said it changed so far (shared with its context's hooks).
type Effect = Arc<Mutex<Option<crate::effect::Change>>>;

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

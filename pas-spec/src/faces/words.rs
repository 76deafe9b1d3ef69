//! Words and lines several faces share (agent help, `.llm`): signatures, parameter facts, effect
//! and output texts. One spelling for each fact, so the faces cannot describe a command two ways.

use std::fmt::Write as _;

use crate::builtin_codes as codes;
use crate::robot::ExitRole;
use crate::surface::{self, ErrorChannel, ListShape};
use crate::{Command, Effect, OutputKind, ParamKind, ParamType, Parameter, Registry, StdinMode};

pub(crate) fn usage_line(registry: &Registry, path: &[String], command: &Command) -> String {
    let mut words = surface::of(registry.profile).invocation_prefix(registry);
    words.extend(path.iter().cloned());
    let mut optional_flags = false;
    for param in &command.parameters {
        match param.kind {
            ParamKind::Flag if param.required => {
                words.push(format!("{} <{}>", flag_name(param), type_word(param)));
            }
            ParamKind::Flag => optional_flags = true,
            _ => words.push(positional_signature(param)),
        }
    }
    if optional_flags || !registry.global_flags.is_empty() {
        words.push("[flags]".to_owned());
    }
    words.join(" ")
}

pub(crate) fn flag_name(param: &Parameter) -> String {
    format!("--{}", param.name)
}

pub(crate) fn positional_signature(param: &Parameter) -> String {
    let dots = if param.kind == ParamKind::Variadic {
        "..."
    } else {
        ""
    };
    if param.required {
        format!("<{}>{dots}", param.name)
    } else {
        format!("[<{}>{dots}]", param.name)
    }
}

pub(crate) fn param_signature(param: &Parameter) -> String {
    match param.kind {
        ParamKind::Flag => {
            let mut text = match param.short {
                Some(short) => format!("-{short}, {}", flag_name(param)),
                None => flag_name(param),
            };
            if param.ty != ParamType::Boolean {
                let _ = write!(text, " <{}>", type_word(param));
            }
            text
        }
        ParamKind::Positional | ParamKind::Variadic => {
            let dots = if param.kind == ParamKind::Variadic {
                "..."
            } else {
                ""
            };
            format!("<{}>{dots}", param.name)
        }
    }
}

/// The JSON type of one value as given on the command line.
pub(crate) fn type_word(param: &Parameter) -> &'static str {
    param.element_type().as_str()
}

/// Type, constraints and meaning of a parameter, in one line.
pub(crate) fn param_facts(param: &Parameter) -> String {
    let mut facts: Vec<String> = Vec::new();
    facts.push(
        if param.kind == ParamKind::Flag && param.ty == ParamType::Boolean {
            "boolean switch".to_owned()
        } else if param.is_many() {
            let how = if param.kind == ParamKind::Variadic {
                ""
            } else {
                ", repeat the flag"
            };
            format!("array of {}{how}", type_word(param))
        } else {
            type_word(param).to_owned()
        },
    );
    if param.required {
        facts.push("required".to_owned());
    }
    if let Some(values) = &param.values {
        facts.push(format!("one of: {}", values.join(", ")));
    }
    if let Some(default) = &param.default
        && !param.secret
    {
        facts.push(format!("default {default}"));
    }
    if let Some(env) = &param.env {
        facts.push(format!("env {env}"));
    }
    if param.secret {
        facts.push("secret (redacted in errors and logs)".to_owned());
    }
    facts.extend(crate::declare::constraint_words(param, &[]));
    if let Some(words) = crate::hardening::face_words(param) {
        facts.push(words.to_owned());
    }
    let mut text = facts.join(", ");
    text.push('.');
    if !param.description.is_empty() {
        text.push(' ');
        text.push_str(&one_line(&param.description));
    }
    text
}

/// The effect sentence. Every profile confirms a declared destructive command with its confirm
/// flag (`--force`); the synthesised `rm` verb needs it for a wildcard path (PAS 6.1) and for a
/// container, which it deletes with everything in it.
pub(crate) fn effect_line(registry: &Registry, command: &Command) -> String {
    let idempotent = if command.is_idempotent() {
        "idempotent"
    } else {
        "not idempotent"
    };
    let verb_rm = command.name == crate::Verb::Rm.as_str()
        && !registry.commands.iter().any(|c| c.name == command.name);
    let surface = surface::of(registry.profile);
    let confirm = surface.confirm_flag;
    let extra = match command.effect {
        Effect::Destructive if verb_rm => format!("; {} needs --{confirm}", rm_confirmed(registry)),
        _ if surface.needs_confirm(command) => format!("; needs --{confirm}"),
        _ => String::new(),
    };
    let dry_run = if command.dry_run {
        "; --dry-run changes nothing"
    } else {
        ""
    };
    format!(
        "Effect: {}, {idempotent}{extra}{dry_run}.",
        command.effect.as_str()
    )
}

/// What the synthesised `rm` needs the confirm flag for: a wildcard path, and a container of
/// the tool's resources (deleted with everything in it), named by its templates.
fn rm_confirmed(registry: &Registry) -> String {
    let containers = crate::verbs::rm_containers(registry);
    if containers.is_empty() {
        "a wildcard path".to_owned()
    } else {
        format!("a wildcard path or a container ({})", containers.join(", "))
    }
}

/// The declarations of a command the runtime enforces, one sentence each: side effects, needed
/// requirements, credentials and scopes, untrusted output fields. Agent help prints them under
/// the effect line and `.llm` adds them to the command's notes.
pub(crate) fn declared_notes(registry: &Registry, command: &Command) -> Vec<String> {
    let mut notes = Vec::new();
    if !command.side_effects.is_empty() {
        let effects: Vec<String> = command.side_effects.iter().map(|e| e.summary()).collect();
        let has = |kind| command.side_effects.iter().any(|e| e.kind == kind);
        let what = match (
            has(crate::declare::SideEffectKind::Filesystem),
            has(crate::declare::SideEffectKind::Background),
        ) {
            (true, false) => Some(("the files", "removes them")),
            (false, true) => Some(("the processes kept", "ends them")),
            (true, true) => Some((
                "the files and processes kept",
                "removes the files and ends the processes",
            )),
            (false, false) => None,
        };
        let cleanup = match what.filter(|_| offers_cleanup(registry)) {
            Some((listed, done)) => format!(
                " (`{0} cleanup` lists {listed}, `{0} cleanup --{1}` {done})",
                registry.name,
                surface::of(registry.profile).confirm_flag
            ),
            None => String::new(),
        };
        notes.push(format!("Side effects: {}{cleanup}.", effects.join("; ")));
    }
    let needs: Vec<String> = command
        .needs
        .iter()
        .filter_map(|name| registry.requirements.iter().find(|r| &r.name == name))
        .map(|r| match &r.version {
            Some(range) => format!(
                "{} {} {range} (fix: {}; RUNTIME_VERSION when out of range)",
                r.kind.as_str(),
                r.target,
                r.fix
            ),
            None => format!("{} {} (fix: {})", r.kind.as_str(), r.target, r.fix),
        })
        .collect();
    if !needs.is_empty() {
        notes.push(format!(
            "Needs: {}; checked before it runs (REQUIREMENT_MISSING).",
            needs.join("; ")
        ));
    }
    if let Some(auth) = registry.auth.as_ref().filter(|_| command.auth) {
        let mut line = format!(
            "Needs credentials ({}), else AUTH_REQUIRED",
            auth.env.join(" or ")
        );
        if let Some(login) = &auth.login {
            let _ = write!(
                line,
                "; expired ones: CREDENTIALS_EXPIRED, renew with `{login}`"
            );
        }
        line.push('.');
        notes.push(line);
    }
    if !command.scopes.is_empty() {
        notes.push(format!(
            "Required scopes: {}; granted scopes named in {} beyond these are warned of \
             (OVER_PRIVILEGED).",
            command.scopes.join(", "),
            scopes_env_var(&registry.name)
        ));
    }
    if !command.untrusted.is_empty() {
        notes.push(format!(
            "Untrusted fields (external content, returned apart under `untrusted`): {}.",
            command.untrusted.join(", ")
        ));
    }
    notes.extend(super::limits::note(command));
    notes.extend(super::masking::note(registry, command));
    notes.extend(super::limits::lock_note(command));
    notes
}

/// The declared constants (`AUTH_REQUIRED`, ...) a command can end with.
pub(crate) fn declared_codes_of(registry: &Registry, command: &Command) -> Vec<&'static str> {
    let mut names = Vec::new();
    if command.auth && registry.auth.is_some() {
        names.push(crate::declare::AUTH_REQUIRED);
        names.push(crate::declare::CREDENTIALS_EXPIRED);
    }
    if !command.needs.is_empty() {
        names.push(crate::declare::REQUIREMENT_MISSING);
    }
    let versioned = |name: &String| {
        registry
            .requirements
            .iter()
            .any(|r| &r.name == name && r.version.is_some())
    };
    if command.needs.iter().any(versioned) {
        names.push(crate::declare::RUNTIME_VERSION);
    }
    if command.lock.is_some() && registry.exit_codes.iter().any(|c| c.name == "LOCK_HELD") {
        names.push("LOCK_HELD");
    }
    names
}

pub(crate) fn output_label(registry: &Registry, kind: OutputKind) -> &'static str {
    let envelope = matches!(
        surface::of(registry.profile).list_shape,
        ListShape::EnvelopeArray | ListShape::RobotEnvelope
    );
    match kind {
        OutputKind::Object => "object",
        OutputKind::Job => "job descriptor",
        OutputKind::List | OutputKind::Events if envelope => "array",
        OutputKind::List => "NDJSON",
        OutputKind::Document => "Markdown",
        OutputKind::Events => "NDJSON events",
        OutputKind::None => "nothing",
    }
}

pub(crate) fn output_text(registry: &Registry, kind: OutputKind) -> &'static str {
    if surface::of(registry.profile).list_shape == ListShape::RobotEnvelope {
        return match kind {
            OutputKind::Object => "One envelope on stdout; data is one JSON object.",
            OutputKind::List => {
                "One envelope on stdout; data is the JSON array of items, streamed (--fields and \
                 --compact select). A failure half-way ends the same envelope with status:error \
                 and error; data keeps the whole items written before it."
            }
            OutputKind::Document => "One envelope on stdout; data is a Markdown string.",
            OutputKind::Events => {
                "One envelope on stdout, at the end; data is the JSON array of events."
            }
            OutputKind::None => "One envelope on stdout; data is null.",
            OutputKind::Job => JOB_TEXT_ENVELOPE,
        };
    }
    if surface::of(registry.profile).list_shape == ListShape::EnvelopeArray {
        return match kind {
            OutputKind::Object => "One envelope on stdout; data is one JSON object.",
            OutputKind::List => {
                "One envelope on stdout; data is the JSON array of items, and meta has count, \
                 total and hasMore; --fields a,b keeps only those fields of each item. On failure \
                 the envelope is the error, never half a list."
            }
            OutputKind::Document => "One envelope on stdout; data is a Markdown string.",
            OutputKind::Events => {
                "One envelope on stdout, at the end; data is the JSON array of events."
            }
            OutputKind::None => "One envelope on stdout; data is null.",
            OutputKind::Job => JOB_TEXT_ENVELOPE,
        };
    }
    match kind {
        OutputKind::Object => "One JSON object on stdout.",
        OutputKind::List => {
            "NDJSON on stdout: one JSON value per line, streamed as produced. --format=array \
             prints one JSON array instead; --fields a,b keeps only those fields of each item. \
             On failure the lines already written stay (whole \
             lines only), then the error goes to stderr."
        }
        OutputKind::Document => "A Markdown document on stdout.",
        OutputKind::Events => "NDJSON events on stdout, one per line, as they happen.",
        OutputKind::None => "Nothing on stdout; the exit code is the result.",
        OutputKind::Job => {
            "An async job: one JSON job descriptor on stdout at once (job_id, status, terminal, \
             status_command, cancel_command, poll_interval_ms, timeout_ms, started_at), exit 0, \
             while the command runs detached; poll status_command, whose result is the \
             outputSchema. --wait runs it to the end instead."
        }
    }
}

/// What a job command prints in an envelope profile (compose, robot).
const JOB_TEXT_ENVELOPE: &str = "An async job: one envelope on stdout at once whose data is the \
     job descriptor (job_id, status, terminal, status_command, cancel_command, poll_interval_ms, \
     timeout_ms, started_at), while the command runs detached; poll status_command, whose result \
     is the outputSchema. --wait runs it to the end instead.";

pub(crate) fn stdin_text(mode: StdinMode) -> String {
    match mode {
        StdinMode::None => "Does not read stdin.".to_owned(),
        StdinMode::Optional => format!(
            "Reads stdin when data is piped in; ignores a terminal. {}",
            stdin_wait_text()
        ),
        StdinMode::Required => format!(
            "Reads stdin: pipe the data in. A terminal on stdin fails at once with MISSING_INPUT. {}",
            stdin_wait_text()
        ),
    }
}

/// How long the runtime waits for a silent pipe on stdin by default, in seconds (the runtime's
/// `pas::input::DEFAULT_STDIN_WAIT_MS`; its defaults test checks the two agree).
pub(crate) const STDIN_WAIT_SECONDS: u64 = 10;

/// The runtime's default cap on one input, in MiB (`pas::input::DEFAULT_LIMIT`; checked as
/// [`STDIN_WAIT_SECONDS`] is).
pub(crate) const INPUT_LIMIT_MIB: u64 = 256;

/// What every mode does with a pipe on stdin that stays silent, and how much it reads, as the
/// faces say it.
pub(crate) fn stdin_wait_text() -> String {
    format!(
        "A pipe silent for {STDIN_WAIT_SECONDS} s gives no input (PAS_STDIN_WAIT=MS; 0: wait for ever); input that has begun is read to its end, however slowly it comes, up to {INPUT_LIMIT_MIB} MiB (PAS_INPUT_LIMIT=BYTES)."
    )
}

/// The INPUT text of a command: [`stdin_text`], and for a command that declares an
/// `inputSchema`, what the runtime does with the JSON before the command runs (the runtime's
/// `stdin_body`).
pub(crate) fn input_text(registry: &Registry, command: &Command) -> String {
    let mut text = stdin_text(command.stdin);
    if super::limits::has_input_file(command) {
        let _ = write!(
            text,
            " `--{} PATH` reads the same input from a file instead (`-`: stdin): use it for large inputs.",
            super::limits::INPUT_FILE_FLAG
        );
    }
    if command.input_schema.is_some() && command.stdin != StdinMode::None {
        let _ = write!(
            text,
            " JSON on stdin is checked against the inputSchema (`{} {}`) before the \
             command runs: loose JSON (trailing commas, comments, single quotes, bare keys, a \
             code fence) is corrected, each correction an INPUT_CORRECTED warning; JSON that \
             breaks the schema is INVALID_VALUE with every problem in details.violations.",
            crate::surface::builtin_call(registry, "tools"),
            command.name
        );
    }
    text
}

/// The ERROR CODES rows: 0, the built-in constants grouped by meaning, and the registry's codes:
/// all of them (`only` is `None`) or those a command names; each with the exit code it really
/// ends with in the tool's profile (compose: 1, or 2 for a blocking code). Sorted by exit code,
/// built-ins first, then declaration order, so the order is stable. A number the registry
/// declares itself (a robot table's success code) is the registry's: no built-in row shares it.
pub(crate) fn exit_code_rows(registry: &Registry, only: Option<&[&str]>) -> Vec<(u16, String)> {
    let surface = surface::of(registry.profile);
    let mut rows: Vec<(u16, u8, String)> = Vec::new();
    if !registry.exit_codes.iter().any(|c| c.code == 0) {
        rows.push((0, 0, "Success".to_owned()));
    }
    // Built-ins grouped by (exit code in this profile, their PAS group), in table order.
    let mut groups: Vec<(u8, u8, Vec<&codes::Builtin>)> = Vec::new();
    if surface.errors == ErrorChannel::RobotEnvelope {
        // robot 11: a runtime error is reported under the constant of its role (the precise
        // one is the envelope's error.details.kind), so the table is the spec's own, plus a
        // row for each role the runtime raises that the spec gives no code.
        let mut seen: Vec<ExitRole> = Vec::new();
        for builtin in codes::BUILTINS {
            let role = crate::robot::builtin_role(builtin.name).unwrap_or(ExitRole::Internal);
            if seen.contains(&role) || registry.code_for_role(role).is_some() {
                continue;
            }
            seen.push(role);
            let (name, exit) = registry.role_code(role);
            rows.push((
                u16::from(exit),
                0,
                format!("{} ({name})", role_meaning(role)),
            ));
        }
    }
    for builtin in codes::BUILTINS
        .iter()
        .filter(|_| surface.errors != ErrorChannel::RobotEnvelope)
    {
        let exit = surface.exit_of(registry, builtin.name);
        match groups
            .iter_mut()
            .find(|(e, pas, _)| *e == exit && *pas == builtin.exit)
        {
            Some((_, _, group)) => group.push(builtin),
            None => groups.push((exit, builtin.exit, vec![builtin])),
        }
    }
    let declared = |exit: u8| {
        surface.errors == ErrorChannel::StderrTable
            && registry
                .exit_codes
                .iter()
                .any(|c| c.code == u16::from(exit) && codes::builtin(&c.name).is_none())
    };
    for (exit, _, group) in groups {
        if declared(exit) {
            continue;
        }
        let names: Vec<&str> = group.iter().map(|b| b.name).collect();
        // compose's two blocking constants (configuration, schema version) share exit 2 and no
        // meaning: the row says both, where a large group says its first, general one.
        let meaning = match group.as_slice() {
            [first, second] if first.exit == 2 => {
                format!("{}; {}", first.meaning, second.meaning.to_lowercase())
            }
            _ => group[0].meaning.to_owned(),
        };
        rows.push((
            u16::from(exit),
            0,
            format!("{meaning} ({})", names.join(", ")),
        ));
    }
    // The runtime refuses a destructive command without its confirm flag: a constant of the
    // profile, documented wherever such a command exists (and it is not the registry's own).
    let confirm = surface.confirm_error_in(registry);
    let destructive = registry
        .all_commands_ref()
        .iter()
        .any(|c| surface.needs_confirm(c))
        && only.is_none_or(|names| names.contains(&confirm));
    let confirm_exit = surface.exit_of(registry, confirm);
    if destructive
        && !registry.exit_codes.iter().any(|c| c.name == confirm)
        && !declared(confirm_exit)
    {
        rows.push((
            u16::from(confirm_exit),
            0,
            format!(
                "Destructive command without --{} ({confirm})",
                surface.confirm_flag
            ),
        ));
    }
    // `job status ID`'s own codes (failure mode 49), where the tool has the `job` word; compose
    // keeps its 0/1/2 and says the state in error.code, robot's table names them itself.
    if registry.offers_jobs() && surface.errors == ErrorChannel::StderrTable {
        for job in codes::JOB_CODES {
            if only.is_none_or(|names| names.contains(&job.name)) {
                let meaning = job.meaning.replace("job status", "`job status`");
                rows.push((u16::from(job.exit), 0, format!("{meaning} ({})", job.name)));
            }
        }
    }
    // The constants the runtime raises for what the spec declares (auth, requirements), unless
    // the registry gives them an exit code of its own (then they are listed below).
    for (name, meaning) in crate::declare::DECLARED_CODES {
        if crate::declare::declared_code_in(registry, name)
            && !registry.exit_codes.iter().any(|c| &c.name == name)
            && only.is_none_or(|names| names.contains(name))
        {
            let exit = surface.exit_of(registry, name);
            rows.push((u16::from(exit), 0, format!("{meaning} ({name})")));
        }
    }
    for code in &registry.exit_codes {
        // A robot table's own JOB_* rows are its job codes (the pas rows are listed above).
        let robot_job = surface.errors == ErrorChannel::RobotEnvelope
            && codes::JOB_CODES.iter().any(|b| b.name == code.name);
        if codes::builtin(&code.name).is_some() && !robot_job {
            continue;
        }
        if only.is_some_and(|names| !names.contains(&code.name.as_str())) {
            continue;
        }
        let exit = match surface.errors {
            ErrorChannel::StderrTable => code.code,
            ErrorChannel::Envelope | ErrorChannel::RobotEnvelope => {
                u16::from(surface.exit_of(registry, &code.name))
            }
        };
        let success = if code.success { ", success" } else { "" };
        rows.push((
            exit,
            1,
            format!("{} ({}{success})", one_line(&code.meaning), code.name),
        ));
    }
    crate::sorting::sort_by_key(&mut rows, |(code, origin, _)| (*code, *origin));
    rows.into_iter()
        .map(|(code, _, text)| (code, text))
        .collect()
}

/// What a role's code means, for a robot table row the spec does not declare.
fn role_meaning(role: ExitRole) -> &'static str {
    match role {
        ExitRole::Arguments => "Invalid arguments",
        ExitRole::Internal => "Internal error",
        ExitRole::Interrupted => "Interrupted by SIGINT or SIGTERM",
        ExitRole::Session => "Session not found or invalid",
        ExitRole::Lock => "Lock contention",
        ExitRole::Blocked => "A safety gate blocked the action",
        ExitRole::Confirmation => "Needs confirmation",
        ExitRole::Partial => "Some actions failed",
        ExitRole::Capability => "A required capability is missing",
        ExitRole::Io => "I/O error",
    }
}

/// The variable that names a tool's configuration file: the name in upper snake case and
/// `_CONFIG` (`todo` reads `TODO_CONFIG`, `my-tool` reads `MY_TOOL_CONFIG`).
pub fn config_env_var(tool: &str) -> String {
    let mut name: String = tool
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    name.push_str("_CONFIG");
    name
}

/// The variable a caller names its credentials' granted scopes in (upper snake case and
/// `_SCOPES`: `todo` reads `TODO_SCOPES`), for the runtime's over-privilege warning.
pub fn scopes_env_var(tool: &str) -> String {
    let mut name = config_env_var(tool);
    name.truncate(name.len() - "_CONFIG".len());
    name.push_str("_SCOPES");
    name
}

/// The variable `TOOL mcp --http` reads its bearer token from (upper snake case and
/// `_MCP_TOKEN`: `todo` reads `TODO_MCP_TOKEN`): a token never travels in argv.
pub fn mcp_token_env_var(tool: &str) -> String {
    let mut name = config_env_var(tool);
    name.truncate(name.len() - "_CONFIG".len());
    name.push_str("_MCP_TOKEN");
    name
}

/// The flags the runtime gives every tool of its profile, as (signature, meaning) rows.
pub(crate) fn runtime_flag_rows(registry: &Registry) -> Vec<(String, String)> {
    surface::of(registry.profile).flag_rows(registry)
}

/// Registry texts may hold newlines; help lines must not.
pub(crate) fn one_line(text: &str) -> String {
    // Pushed word by word rather than collected and joined: agent help calls this for every
    // row, on every `--agent --help`.
    let mut line = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    line
}

/// The flags the runtime adds to one command, as every face lists them: `--dry-run` where the
/// spec offers it, the profile's confirm flag (`--force`, robot's `--yes`) where the command
/// needs it ([`surface::Surface::needs_confirm`]), and robot's `--session <ID>`/`--resume` on a
/// command that continues or reads a session. Agent help, `.llm`, the catalog and the MCP export
/// all list them, and the runtime's clap command has them.
pub fn command_switches(registry: &Registry, command: &Command) -> Vec<surface::CommandFlag> {
    let surface = surface::of(registry.profile);
    let mut switches = Vec::new();
    if command.dry_run {
        switches.push(surface::CommandFlag {
            long: "dry-run",
            value: None,
            meaning: "Validate and report what would change, changing nothing.".to_owned(),
            required: false,
        });
    }
    if surface.needs_confirm(command) {
        let verb_rm = command.name == crate::Verb::Rm.as_str()
            && !registry.commands.iter().any(|c| c.name == command.name);
        let what = if verb_rm {
            format!(
                "Confirm {}; without it such a call is refused with {} and changes nothing.",
                rm_confirmed(registry),
                surface.confirm_error_in(registry)
            )
        } else if command.effect == Effect::Destructive {
            format!(
                "Confirm the destructive change; without it the command refuses with {} and \
                 changes nothing.",
                surface.confirm_error_in(registry)
            )
        } else {
            format!(
                "Confirm; without it the command refuses with {} and acts on nothing.",
                surface.confirm_error_in(registry)
            )
        };
        switches.push(surface::CommandFlag {
            long: surface.confirm_flag,
            value: None,
            meaning: what,
            required: false,
        });
    }
    switches.extend(surface.session_flags_of(registry, command));
    if command.is_job() {
        switches.push(surface::CommandFlag {
            long: crate::job::WAIT_FLAG,
            value: None,
            meaning: "Run the job to its end in the foreground: the result and exit code of the \
                      command itself, no descriptor to poll."
                .to_owned(),
            required: false,
        });
    }
    if takes_idempotency_key(command) {
        switches.push(surface::CommandFlag {
            long: IDEMPOTENCY_KEY_FLAG,
            value: Some("KEY"),
            meaning: IDEMPOTENCY_KEY_MEANING.to_owned(),
            required: false,
        });
    }
    switches
}

/// Whether the tool has the runtime's `cleanup` word (CLI Agent Spec failure modes 30 and
/// 17): a command declares a `filesystem` or `background` side effect, no command is named
/// `cleanup`, and no root command takes words of its own.
pub fn offers_cleanup(registry: &Registry) -> bool {
    let declares = registry.commands.iter().any(|c| {
        c.side_effects.iter().any(|e| {
            matches!(
                e.kind,
                crate::declare::SideEffectKind::Filesystem
                    | crate::declare::SideEffectKind::Background
            )
        })
    });
    declares
        && registry.commands.iter().all(|c| {
            let path = c.argv_path();
            !path.is_empty() && path.first().map(String::as_str) != Some("cleanup")
        })
}

/// The long name of the runtime's `--idempotency-key` (CLI Agent Spec failure mode 12).
pub const IDEMPOTENCY_KEY_FLAG: &str = "idempotency-key";

/// What `--idempotency-key` does, as every face says it.
const IDEMPOTENCY_KEY_MEANING: &str = "At most once: the key is reserved before the command \
     runs; a repeat with the same key and input (every argument however given, stdin, working \
     directory) returns the first success (effect noop, replayed) without running again, after \
     waiting for it if it still runs; other input with it is ARGUMENT_CONFLICT; a first call \
     that ended before recording its outcome is not run again (IDEMPOTENCY_OUTCOME_UNKNOWN: \
     check the state, then use a new key).";

/// Whether the runtime gives this command `--idempotency-key`: every command that changes
/// something (effect write or destructive), unless it declares a parameter of that name itself.
pub fn takes_idempotency_key(command: &Command) -> bool {
    command.effect != Effect::Read
        && !command
            .parameters
            .iter()
            .any(|p| p.name == IDEMPOTENCY_KEY_FLAG || p.name == "idempotency_key")
}

/// A command flag as a parameter row: (`--long` or `--long <VALUE>`, facts).
pub(crate) fn command_flag_row(flag: &surface::CommandFlag) -> (String, String) {
    match flag.value {
        None => (
            format!("--{}", flag.long),
            format!("boolean switch. {}", flag.meaning),
        ),
        Some(value) => (
            format!("--{} <{value}>", flag.long),
            format!("string. {}", flag.meaning),
        ),
    }
}

/// `Stability: beta (...)` for a command that is not `stable` (failure mode 22), else nothing.
pub(crate) fn stability_note(command: &Command) -> Option<String> {
    (!command.stability.is_stable()).then(|| {
        format!(
            "Stability: {} (its output may change in any release; running it warns \
             UNSTABLE_COMMAND).",
            command.stability.as_str()
        )
    })
}

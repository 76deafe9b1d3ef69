//! The runtime's flags, held to the one table the faces read (`pas_spec::surface`).
//!
//! The runtime adds flags to a tool's clap command from many files (`parse/clap_augment.rs`,
//! `parse/robot_flags.rs`, `parse/input_file.rs`, `parse/fields.rs`, `builtins/mod.rs`,
//! `builtins/jobs.rs`, `builtins/cleanup.rs`, `services/idempotency/mod.rs`, put together by
//! `full_command` in `run/app.rs`), while agent help, `.llm`, the catalog and the MCP export list
//! them from the surface table: the flags of every command (`Surface::flags`, plus `--timeout`
//! where `runtime_timeout_flag` gives it), the flags of one command (`faces::command_switches`:
//! `--dry-run`, the confirm flag, robot's `--session`/`--resume`, `--wait`,
//! `--idempotency-key`; `faces::has_input_file`'s `--input-file`; `--format` on a list where
//! `Surface::list_format_flag`), and the flags a built-in word names in its `BUILTIN_WORDS` row.
//!
//! For each profile this test builds one tool with a command of every kind the table tells
//! apart, walks its documented clap command (`App::command()`, what help, completions and man
//! pages are made from) and checks both ways:
//!
//! (a) every flag the table gives a command is declared there, with the arity the table says
//!     (a value or a switch), and a call with it parses;
//! (b) every long the runtime added (an arg the registry's own clap face does not have) is one
//!     the table lists there.
//!
//! The runtime declares each of these args from its table row (`parse/flag_args.rs`), so the
//! two sides agree by construction; this test holds them there: a new flag in any of those files
//! without a table row, or a row clap does not take, fails here.

use std::collections::{BTreeMap, BTreeSet};

use pas::spec::surface::{self, Surface};
use pas::spec::{Format, Profile, Registry, Severity, Source, faces};

/// Every profile the table has a row for.
const PROFILES: [Profile; 3] = [Profile::Pas, Profile::Compose, Profile::Robot];

/// Flags clap gives every command by itself, for people: `--help` is in no table (the
/// validator reserves it: `validate::context::builtin_flags`).
const CLAP_OWN: &[&str] = &["help"];

/// A tool with a command of every kind the table tells apart: a spec-declared global flag (the
/// spec's own, never the runtime's), a paged list (`--format` where the profile has it,
/// `--fields`), a destructive command that offers a dry run and leaves files (the confirm flag,
/// `--dry-run`, `--idempotency-key`, the `cleanup` word), a write command reading an
/// `inputSchema` on stdin (`--input-file`, `--idempotency-key`), and an async job (`--wait`,
/// the `job` word).
const COMMANDS: &str = r#"
globalFlags:
  - {name: shelf-dir, description: Where the shelf lives.}
commands:
  - name: item.list
    description: Every item, a page at a time.
    output: list
    paging: {limit: limit, cursor: cursor}
    parameters:
      - {name: limit, type: integer, description: How many items a page holds.}
      - {name: cursor, description: Where the page starts.}
    outputSchema:
      type: object
      properties:
        id: {type: integer}
        name: {type: string}
  - name: item.delete
    description: Delete an item.
    effect: destructive
    idempotent: false
    dryRun: true
    sideEffects:
      - {kind: filesystem, target: ~/.cache/shelf/, description: the item files}
    parameters:
      - {name: id, kind: positional, type: integer, required: true, description: The item's id.}
  - name: item.add
    description: Add an item from the JSON object on stdin.
    effect: write
    stdin: optional
    inputSchema:
      type: object
      properties:
        name: {type: string}
  - name: item.index
    description: Rebuild the index, as an async job.
    effect: write
    output: job
"#;

/// robot's own kinds on top: a command that reads a session (`--session`), one that continues
/// it (`--session`, `--resume`), and a write command marked `confirm` (`--yes`); with the
/// declared sessions the `sessions` word comes too, and `capabilities` always.
const ROBOT_COMMANDS: &str = r#"
  - name: item.note
    description: The note a session keeps.
    session: read
    errors: [SESSION_NOT_FOUND]
  - name: item.check
    description: Check a session's plan again.
    effect: write
    session: continue
    errors: [SESSION_NOT_FOUND]
  - name: item.hold
    description: Hold an item back.
    effect: write
    confirm: true
"#;

/// robot's header: named exit codes (the roles and the job codes it needs) and sessions.
const ROBOT_HEADER: &str = r#"
schemaVersion: 1.0.0
exitCodes:
  - {code: 0, name: OK, meaning: Done}
  - {code: 10, name: ERR_ARGS, meaning: Invalid arguments, role: arguments}
  - {code: 20, name: ERR_INTERNAL, meaning: Internal error, role: internal}
  - {code: 5, name: SESSION_NOT_FOUND, meaning: No session has this id, role: session}
  - {code: 74, name: JOB_NOT_FOUND, meaning: No job has this id}
  - {code: 75, name: JOB_RUNNING, meaning: The job still runs; poll again}
  - {code: 76, name: JOB_FAILED, meaning: The job failed}
  - {code: 77, name: JOB_CANCELLED, meaning: The job was cancelled}
  - {code: 78, name: JOB_TIMED_OUT, meaning: The job ran past its time limit}
robot:
  sessions:
    prefix: shelf
    states:
      - {name: open, resumable: true, next: [interrupted, complete]}
      - {name: interrupted, resumable: true}
      - {name: complete}
      - {name: expired}
"#;

/// The tool's registry in `profile`, checked by the validator (a spec the validator refuses
/// would test shapes no tool has).
fn registry(profile: Profile) -> Registry {
    let name = profile_name(profile);
    let mut text = format!(
        "specVersion: 1\nname: shelf\nversion: 1.0.0\nsummary: Keep items on a shelf.\n\
         profile: {name}\n"
    );
    if profile == Profile::Robot {
        text.push_str(ROBOT_HEADER);
    }
    text.push_str(COMMANDS);
    if profile == Profile::Robot {
        text.push_str(ROBOT_COMMANDS);
    }
    let source = Source::new(format!("shelf-{name}.yaml"), text, Format::Yaml);
    let (registry, diagnostics) = pas::spec::check_source(&source);
    let errors: Vec<_> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}: {}", d.code, d.pointer, d.message))
        .collect();
    assert!(
        errors.is_empty(),
        "{name}: the spec is refused: {errors:#?}"
    );
    registry.expect("a spec without errors is read")
}

/// One long flag of a built clap command.
#[derive(Debug, Clone)]
struct Flag {
    id: String,
    /// Declared `global(true)`: clap gives it to every subcommand.
    global: bool,
    takes_value: bool,
    /// The first value clap accepts, when it names them (`--format json|md`).
    example: Option<String>,
    /// Its help text, as `--help`, completions and man pages show it.
    help: Option<String>,
}

/// Each command path (argv words after the tool's name; empty for the root) and the long flags
/// clap accepts there, by long name. The command is built first, so that global args are
/// propagated to every subcommand and clap's own `--help`/`--version` are there, as in a call.
/// clap's `help` subcommand is clap's own and left out.
fn flags_by_path(command: &clap::Command) -> BTreeMap<Vec<String>, BTreeMap<String, Flag>> {
    fn walk(
        command: &clap::Command,
        path: Vec<String>,
        out: &mut BTreeMap<Vec<String>, BTreeMap<String, Flag>>,
    ) {
        let flags = command
            .get_arguments()
            .filter_map(|arg| {
                let long = arg.get_long()?;
                let flag = Flag {
                    id: arg.get_id().to_string(),
                    global: arg.is_global_set(),
                    takes_value: arg.get_action().takes_values(),
                    example: arg
                        .get_possible_values()
                        .first()
                        .map(|v| v.get_name().to_owned()),
                    help: arg.get_help().map(ToString::to_string),
                };
                Some((long.to_owned(), flag))
            })
            .collect();
        out.insert(path.clone(), flags);
        for sub in command.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let mut path = path.clone();
            path.push(sub.get_name().to_owned());
            walk(sub, path, out);
        }
    }
    let mut command = command.clone();
    command.build();
    let mut out = BTreeMap::new();
    walk(&command, Vec::new(), &mut out);
    out
}

/// A table flag: its long name and whether it takes a value.
type Listed = BTreeMap<&'static str, bool>;

/// The flags the table gives every command of this tool.
fn global_flags(surface: &Surface, registry: &Registry) -> Listed {
    let mut listed: Listed = surface
        .flags
        .iter()
        .map(|f| (f.long, f.value.is_some()))
        .collect();
    // `--timeout` is the table's too, outside `Surface::flags` because a tool may own the name.
    if surface::runtime_timeout_flag(registry) {
        listed.insert(surface::TIMEOUT.long, surface::TIMEOUT.value.is_some());
    }
    listed
}

/// The flags the table gives the command (or built-in word) at `path` beyond the global ones.
fn scoped_flags(surface: &Surface, registry: &Registry, path: &[String]) -> Listed {
    let mut listed = Listed::new();
    if let Some(command) = registry.commands.iter().find(|c| c.argv_path() == path) {
        for flag in faces::command_switches(registry, command) {
            listed.insert(flag.long, flag.value.is_some());
        }
        if faces::has_input_file(command) {
            listed.insert(faces::INPUT_FILE_FLAG, true);
        }
        if surface.list_format_flag && command.output == pas::spec::OutputKind::List {
            listed.insert("format", true);
        }
        return listed;
    }
    // A built-in word's flags are its row's (`BuiltinWord::flags`); `cleanup`'s are
    // `Surface::cleanup_flags`.
    if let [word] = path {
        if word == surface::CLEANUP_WORD && faces::offers_cleanup(registry) {
            for flag in surface.cleanup_flags() {
                listed.insert(flag.long, flag.value.is_some());
            }
        } else if let Some(row) = surface
            .reachable_words(registry)
            .find(|b| b.word == word.as_str())
        {
            for flag in row.flags {
                listed.insert(flag.long, flag.value.is_some());
            }
        }
    }
    listed
}

fn profile_name(profile: Profile) -> &'static str {
    match profile {
        Profile::Pas => "pas",
        Profile::Compose => "compose",
        Profile::Robot => "robot",
    }
}

/// Whether clap takes this call: a parse that succeeds, or that answers help or version.
fn parses(command: &clap::Command, argv: &[String]) -> Result<(), String> {
    match command.clone().try_get_matches_from(argv) {
        Ok(_) => Ok(()),
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn the_runtime_flags_clap_accepts_are_the_surface_tables() {
    let mut failures = Vec::new();
    for profile in PROFILES {
        let name = profile_name(profile);
        let registry = registry(profile);
        let app = pas::App::new(registry);
        let registry = app.registry();
        let surface = surface::of(profile);
        let documented = flags_by_path(app.command());
        // The spec's own args: the clap command the registry alone makes, with no runtime.
        let own = flags_by_path(&pas::clap_face::command_from_registry(registry));
        let globals = global_flags(surface, registry);

        // The spec must reach every kind the table tells apart, or the test checks less than it
        // says: each scoped flag the table can name appears on some command here.
        let scoped_longs: BTreeSet<&str> = documented
            .keys()
            .flat_map(|path| scoped_flags(surface, registry, path).into_keys())
            .collect();
        let mut kinds = vec![
            "dry-run",
            surface.confirm_flag,
            "input-file",
            "wait",
            "idempotency-key",
        ];
        if surface.list_format_flag {
            kinds.push("format");
        }
        if surface.session_flags {
            // robot's session flags, and its `capabilities` word's own.
            kinds.extend(["session", "resume", "check-action", "detail", "limit"]);
        }
        for kind in kinds {
            assert!(
                scoped_longs.contains(kind),
                "{name}: the spec has no command the table gives --{kind}"
            );
        }

        let (root, own_root) = (&documented[&Vec::new()], &own[&Vec::new()]);
        let mut undeclared = BTreeSet::new();
        let mut unlisted = BTreeSet::new();
        for (path, flags) in &documented {
            let words = path.join(" ");
            let scoped = scoped_flags(surface, registry, path);

            // (a) The table's flags are declared here, with the table's arity. A flag of every
            // command is looked for at the root, and below it where the root has it (one
            // missing at the root is missing once, not at every path). clap's `--version` is the
            // root's alone (clap does not propagate it), so it is looked for at the root only.
            let table = globals
                .iter()
                .filter(|(long, _)| {
                    path.is_empty() || (**long != "version" && root.contains_key(**long))
                })
                .chain(&scoped);
            for (long, valued) in table {
                match flags.get(*long) {
                    None => {
                        undeclared.insert((words.clone(), (*long).to_owned()));
                    }
                    Some(flag) if flag.takes_value != *valued => failures.push(format!(
                        "{name} `{words}`: --{long} takes {} in clap, {} in the table",
                        if flag.takes_value { "a value" } else { "none" },
                        if *valued { "a value" } else { "none" },
                    )),
                    Some(_) => {}
                }
            }

            // (b) Every long the runtime added here is one the table lists here. An arg is the
            // spec's own when the registry's clap face has the same id at the same path, or as
            // a global flag (which clap gives the runtime's built-in words too).
            let same = |o: Option<&Flag>, flag: &Flag| o.is_some_and(|o| o.id == flag.id);
            for (long, flag) in flags {
                let here = own.get(path).and_then(|own| own.get(long));
                let global = own_root.get(long).filter(|o| o.global);
                let spec_own = same(here, flag) || same(global, flag);
                // A runtime global flag is the root's, said once there rather than at every path.
                let from_root = !path.is_empty() && flag.global && same(root.get(long), flag);
                if spec_own || from_root || CLAP_OWN.contains(&long.as_str()) {
                    continue;
                }
                if !globals.contains_key(long.as_str()) && !scoped.contains_key(long.as_str()) {
                    unlisted.insert((words.clone(), long.clone()));
                }
            }
        }
        if !undeclared.is_empty() {
            failures.push(format!(
                "{name}: table flags clap does not declare (path, long): {undeclared:?}"
            ));
        }
        if !unlisted.is_empty() {
            failures.push(format!(
                "{name}: runtime flags the table does not list (path, long): {unlisted:?}"
            ));
        }

        // A call with each global flag clap declares parses: on the paged list (no required
        // argument), and `--version` at the root, where clap answers it. A value is the first
        // clap names (`--format json`), else any word.
        let list = ["item".to_owned(), "list".to_owned()];
        for long in globals.keys() {
            let at = if *long == "version" {
                &[][..]
            } else {
                &list[..]
            };
            let Some(flag) = documented[&at.to_vec()].get(*long) else {
                continue; // undeclared: (a) has it
            };
            let mut argv = vec!["shelf".to_owned()];
            argv.extend(at.iter().cloned());
            argv.push(format!("--{long}"));
            if flag.takes_value {
                argv.push(flag.example.clone().unwrap_or_else(|| "1".to_owned()));
            }
            if let Err(e) = parses(app.command(), &argv) {
                failures.push(format!("{name}: `{}` is refused: {e}", argv.join(" ")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `--help`, completions and man pages say what the faces say: the help of each runtime flag
/// is its table row's meaning (a flag of every command, at the root; a built-in word's, on the
/// word; a command's, its row of `faces::command_switches`).
#[test]
fn the_runtime_flags_help_is_the_tables_meaning() {
    let mut failures = Vec::new();
    for profile in PROFILES {
        let name = profile_name(profile);
        let app = pas::App::new(registry(profile));
        let registry = app.registry();
        let surface = surface::of(profile);
        let documented = flags_by_path(app.command());
        let own = flags_by_path(&pas::clap_face::command_from_registry(registry));
        let mut expect = |path: &[String], long: &str, meaning: String| {
            let Some(flag) = documented.get(path).and_then(|flags| flags.get(long)) else {
                return; // undeclared: the test above says so
            };
            let spec_own = own
                .get(path)
                .and_then(|own| own.get(long))
                .is_some_and(|o| o.id == flag.id);
            if !spec_own && flag.help.as_deref() != Some(meaning.as_str()) {
                failures.push(format!(
                    "{name} `{}` --{long}: help {:?}, table {meaning:?}",
                    path.join(" "),
                    flag.help
                ));
            }
        };
        let timeout = surface::runtime_timeout_flag(registry).then_some(&surface::TIMEOUT);
        for row in surface.flags.iter().chain(timeout) {
            if row.long != "version" {
                expect(&[], row.long, surface::meaning_in(row, registry));
            }
        }
        for word in surface.reachable_words(registry) {
            for row in word.flags {
                expect(&[word.word.to_owned()], row.long, row.meaning.to_owned());
            }
        }
        if faces::offers_cleanup(registry) {
            for row in surface.cleanup_flags() {
                expect(
                    &[surface::CLEANUP_WORD.to_owned()],
                    row.long,
                    row.meaning.to_owned(),
                );
            }
        }
        for command in &registry.commands {
            for row in faces::command_switches(registry, command) {
                expect(&command.argv_path(), row.long, row.meaning.clone());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

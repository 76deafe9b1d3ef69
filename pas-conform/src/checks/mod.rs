//! The checks: one small function each, grouped by the part of the contract they hold the tool
//! to, and the table that says which contract and level demands each.

mod agent_flag;
mod built;
mod compose;
mod declared;
mod errors;
mod failure_modes;
mod guard;
mod help;
mod jobs;
mod known_codes;
mod level3;
mod level4;
mod many_paths;
mod robot;
mod signals;
mod streams;
mod terminal;
mod truth;
mod versions;

use crate::context::Ctx;
use crate::report::{Evidence, Outcome};
use crate::runner::Run;
use crate::target::Contract;

/// What a check function returns.
pub struct Verdict {
    pub outcome: Outcome,
    pub reason: String,
    pub evidence: Vec<Evidence>,
}

impl Verdict {
    /// The tool keeps the rule; these runs show it.
    pub fn pass(runs: &[&Run]) -> Verdict {
        Verdict {
            outcome: Outcome::Pass,
            reason: String::new(),
            evidence: runs.iter().map(|r| Evidence::of(r)).collect(),
        }
    }

    /// The tool breaks the rule.
    pub fn fail(reason: impl Into<String>, runs: &[&Run]) -> Verdict {
        Verdict {
            outcome: Outcome::Fail,
            reason: reason.into(),
            evidence: runs.iter().map(|r| Evidence::of(r)).collect(),
        }
    }

    /// Every run must satisfy `rule`: the first that does not fails the check with its reason
    /// as evidence; otherwise all runs pass.
    pub fn every<T>(runs: &[Run], rule: impl Fn(&Run) -> Result<T, String>) -> Verdict {
        for run in runs {
            if let Err(why) = rule(run) {
                return Verdict::fail(why, &[run]);
            }
        }
        Verdict::pass(&runs.iter().collect::<Vec<_>>())
    }

    /// The check cannot run.
    pub fn skip(reason: impl Into<String>) -> Verdict {
        Verdict {
            outcome: Outcome::Skip,
            reason: reason.into(),
            evidence: Vec::new(),
        }
    }

    /// A pass with a note (e.g. what was not covered).
    pub fn note(mut self, note: impl Into<String>) -> Verdict {
        self.reason = note.into();
        self
    }
}

/// One row of the table.
pub struct Check {
    pub id: &'static str,
    pub section: &'static str,
    pub level: u8,
    pub title: &'static str,
    pub contracts: &'static [Contract],
    pub run: fn(&mut Ctx) -> Verdict,
}

const PAS: &[Contract] = &[Contract::Pas];
const COMPOSE: &[Contract] = &[Contract::Compose];
const ROBOT: &[Contract] = &[Contract::Robot];
const ALL: &[Contract] = &[Contract::Pas, Contract::Compose, Contract::Robot];

macro_rules! check {
    ($id:literal, $section:literal, $level:literal, $contracts:expr, $title:literal, $run:path) => {
        Check {
            id: $id,
            section: $section,
            level: $level,
            title: $title,
            contracts: $contracts,
            run: $run,
        }
    };
}

/// Every check, in the order they run. Later checks read what earlier ones ran (errors.shape and
/// exit_codes.* look at every run made before them), so the order matters.
pub const CHECKS: &[Check] = &[
    // Outputs first: they run the spec's examples that later checks reuse.
    check!(
        "output.json",
        "PAS 2.1.1",
        1,
        PAS,
        "examples print valid JSON (one value, or NDJSON lines)",
        streams::json_valid
    ),
    check!(
        "output.ndjson",
        "PAS 3.1",
        2,
        PAS,
        "list and events commands print NDJSON, one object per line",
        streams::ndjson
    ),
    check!(
        "output.schema",
        "PAS 3.1",
        2,
        ALL,
        "outputs validate against the spec's outputSchema",
        streams::schema
    ),
    check!(
        "output.format_array",
        "PAS 3.1",
        2,
        PAS,
        "--format=array prints one JSON array of the same items",
        streams::format_array
    ),
    check!(
        "output.deterministic",
        "PAS 9.1",
        2,
        PAS,
        "the same call prints the same bytes three times",
        streams::deterministic
    ),
    check!(
        "agent.any_position",
        "PAS 2.1",
        1,
        PAS,
        "--agent first, last or after the command gives the same bytes",
        agent_flag::any_position
    ),
    check!(
        "errors.unknown_flag",
        "PAS 2.1.1",
        1,
        PAS,
        "an unknown flag fails with stdout empty and a JSON error on stderr",
        errors::unknown_flag
    ),
    check!(
        "exit_codes.usage",
        "PAS 3.3",
        2,
        PAS,
        "an unknown flag exits 2 (misuse)",
        errors::usage_exit
    ),
    check!(
        "help.agent",
        "PAS 4.1",
        2,
        PAS,
        "--agent --help: USAGE, COMMON PATTERNS, ERROR CODES; exit 0; no ANSI",
        help::agent_help
    ),
    check!(
        "help.human",
        "PAS 4.1",
        2,
        PAS,
        "--help exits 0 and differs from the agent help",
        help::human_help
    ),
    check!(
        "version",
        "PAS 9.2",
        2,
        ALL,
        "--version exits 0 with one line naming the version",
        help::version
    ),
    check!(
        "streams.pipe_close",
        "PAS 9.1",
        1,
        ALL,
        "a reader that closes after one line (head -1) causes no stderr noise",
        streams::pipe_close
    ),
    check!(
        "terminal.no_ansi",
        "PAS 2.1.3",
        1,
        ALL,
        "machine output on a terminal has no ANSI codes or bells",
        terminal::no_ansi
    ),
    check!(
        "terminal.stdin",
        "PAS 2.1.2",
        1,
        ALL,
        "a terminal on stdin never blocks: every call ends on its own",
        terminal::stdin_never_blocks
    ),
    // Named by the CLI Agent Spec's failure modes (docs/cli-agent-spec.md).
    check!(
        "fm08.forced_colour",
        "CLI Spec §8",
        1,
        ALL,
        "CLICOLOR_FORCE=1 on a pipe: still no ANSI in machine output or its errors",
        failure_modes::forced_colour
    ),
    check!(
        "fm19.retryable",
        "CLI Spec §19",
        1,
        ALL,
        "an argument error says retryable: false (a boolean an agent branches on)",
        failure_modes::retryable
    ),
    check!(
        "fm21.bare_call",
        "CLI Spec §21",
        1,
        ALL,
        "the tool's name alone exits 0 with the root help (robot: a success envelope)",
        failure_modes::bare_call
    ),
    check!(
        "fm22.schema_version",
        "CLI Spec §22",
        1,
        ALL,
        "changelog answers the releases and schema_version; --schema-version runs a compatible call and refuses 999999.0.0 with SCHEMA_VERSION_UNSUPPORTED",
        versions::schema_version
    ),
    check!(
        "fm50.idle_stdin",
        "CLI Spec §50",
        1,
        ALL,
        "an open, silent stdin pipe never makes a call that does not read stdin wait",
        failure_modes::idle_stdin
    ),
    check!(
        "fm54.validate_only",
        "CLI Spec §54",
        1,
        ALL,
        "--validate-only, where offered, answers valid: true without running the command",
        failure_modes::validate_only
    ),
    check!(
        "fm57.locale",
        "CLI Spec §57",
        1,
        ALL,
        "errors name the same constant and message under a French locale as under C",
        failure_modes::locale
    ),
    check!(
        "fm63.columns",
        "CLI Spec §63",
        1,
        ALL,
        "COLUMNS=20 wraps nothing: the same JSON lines and the same agent help",
        failure_modes::columns
    ),
    check!(
        "fm49.job_status",
        "CLI Spec §49",
        1,
        ALL,
        "a job command answers a typed descriptor; job status exits the running code (not 0) while it runs, 0 once it succeeded, and JOB_NOT_FOUND's code for an unknown id",
        jobs::job_status
    ),
    check!(
        "fm70.many_paths",
        "CLI Spec §70",
        3,
        PAS,
        "stat FILE FILE answers one {path, ok, result} line per path; a failed path exits non-zero",
        many_paths::many_paths
    ),
    check!(
        "signals.sigterm",
        "PAS 9.1",
        2,
        ALL,
        "SIGTERM during a long call ends it promptly with whole lines",
        signals::sigterm
    ),
    // Level 3: the navigation verbs.
    check!(
        "nav.ls",
        "PAS 5.2",
        3,
        PAS,
        "ls prints NDJSON of {path, type: file|dir}",
        level3::ls
    ),
    check!(
        "nav.cat",
        "PAS 5.2",
        3,
        PAS,
        "cat prints valid JSON",
        level3::cat
    ),
    check!(
        "nav.stat",
        "PAS 5.2",
        3,
        PAS,
        "stat prints {path, type, size (files)}",
        level3::stat
    ),
    check!(
        "nav.paths",
        "PAS 5.3",
        3,
        PAS,
        "root as / and as \"\", with and without a trailing slash, agree",
        level3::paths
    ),
    // Level 4: the state verbs.
    check!(
        "state.rm_guard",
        "PAS 6.1",
        4,
        PAS,
        "rm without a path, or with a wildcard, is refused without --force",
        level4::rm_guard
    ),
    check!(
        "state.rm_container",
        "PAS 6.1",
        4,
        PAS,
        "rm of a container (a path with children) is refused without --force, and it stays",
        level4::rm_container
    ),
    check!(
        "state.shapes",
        "PAS 6.1-6.4",
        4,
        PAS,
        "cp, rm, sync and feedback outputs have their PAS shapes",
        level4::shapes
    ),
    check!(
        "state.sync_source",
        "PAS 6.2, 2.1.1",
        4,
        PAS,
        "sync of a missing source fails before its first event: stdout empty",
        level4::sync_source
    ),
    // compose.
    check!(
        "compose.envelope",
        "compose 3",
        1,
        COMPOSE,
        "every call prints one {ok,data,meta} envelope on stdout",
        compose::envelope_check
    ),
    check!(
        "compose.error",
        "compose 4",
        1,
        COMPOSE,
        "an error is {ok:false,error:{code,message,hint},meta}, exit 1 or 2",
        compose::error
    ),
    check!(
        "compose.tools",
        "compose 2",
        1,
        COMPOSE,
        "tools: a catalog with globalFlags and every per-tool field",
        compose::tools
    ),
    check!(
        "compose.tools_order",
        "compose 2",
        1,
        COMPOSE,
        "tools are sorted by category, then name",
        compose::tools_order
    ),
    check!(
        "compose.tools_detail",
        "compose 2",
        1,
        COMPOSE,
        "tools <name> prints that tool's entry",
        compose::tools_detail
    ),
    check!(
        "compose.health",
        "compose 1",
        1,
        COMPOSE,
        "health: status ready|degraded|blocked and checks[] with fix",
        compose::health
    ),
    check!(
        "compose.config_show",
        "compose 1",
        1,
        COMPOSE,
        "config show prints an envelope",
        compose::config_show
    ),
    check!(
        "compose.toon",
        "compose 3",
        1,
        COMPOSE,
        "--toon prints the same envelope as TOON (not JSON)",
        compose::toon
    ),
    check!(
        "compose.exit_codes",
        "compose 4",
        1,
        COMPOSE,
        "every exit code seen is 0, 1 or 2",
        compose::exit_codes
    ),
    // robot.
    check!(
        "robot.envelope",
        "robot 3.1",
        1,
        ROBOT,
        "every call prints the common envelope",
        robot::envelope_check
    ),
    check!(
        "robot.error",
        "robot 3.3",
        1,
        ROBOT,
        "an error is status:error with error{code,message,recoverable}",
        robot::error
    ),
    check!(
        "robot.exit_codes",
        "robot 11",
        1,
        ROBOT,
        "every exit code seen is a named code of the spec",
        robot::exit_codes
    ),
    // The help, held to what the binary does (every profile).
    check!(
        "docs.truth",
        "PAS 4.1, 3.3",
        1,
        ALL,
        "the help's exit codes, output shapes and flags are what the binary does",
        truth::docs_truth
    ),
    check!(
        "docs.built",
        "PAS 4.1",
        1,
        ALL,
        "every built-in the help lists is built: none answers FEATURE_NOT_BUILT or MCP_NOT_BUILT",
        built::listed_builtins_are_built
    ),
    check!(
        "safety.force",
        "compose 4, PAS 6.1",
        1,
        ALL,
        "a destructive command without --force is refused and changes nothing",
        guard::force
    ),
    check!(
        "robot.arguments",
        "robot 11",
        1,
        ROBOT,
        "an argument error exits with the spec's arguments code, never a success code",
        robot::arguments
    ),
    check!(
        "robot.capabilities",
        "robot 5.8",
        1,
        ROBOT,
        "`capabilities` reports the OS, privileges, storage and limits",
        robot::capabilities
    ),
    check!(
        "robot.sessions",
        "robot 5.7, 2",
        1,
        ROBOT,
        "`sessions` lists total and resumable_count; an unknown session is the session code",
        robot::sessions
    ),
    check!(
        "robot.fields",
        "robot 8.2",
        1,
        ROBOT,
        "--fields keeps only the named fields; an unknown one is an argument error",
        robot::fields
    ),
    check!(
        "robot.compact",
        "robot 8.1",
        1,
        ROBOT,
        "--compact drops the fields the spec marks optional",
        robot::compact
    ),
    check!(
        "robot.gates",
        "robot 9.2",
        1,
        ROBOT,
        "safety_gates name declared gates, each with passed, and all_gates_passed is their AND",
        robot::gates
    ),
    check!(
        "robot.resume",
        "robot 7",
        1,
        ROBOT,
        "sessions show declared states; --resume of an unknown or finished session is refused",
        robot::resume
    ),
    check!(
        "robot.confirm",
        "robot 6.4",
        1,
        ROBOT,
        "a command that needs confirmation refuses to act without --yes",
        robot::confirm
    ),
    // Last: they judge every run made above (the triggers' runs included).
    check!(
        "errors.declared",
        "PAS 3.3, 7.1",
        2,
        ALL,
        "each exit code's trigger fails with that code and names its constant",
        declared::declared
    ),
    check!(
        "errors.shape",
        "PAS 7.1",
        1,
        PAS,
        "every error is JSON on stderr: UPPER_SNAKE error, message; stdout empty",
        errors::shape
    ),
    check!(
        "errors.known",
        "PAS 3.3, 7.1",
        2,
        PAS,
        "no failure names an error constant the tool does not declare",
        known_codes::known
    ),
    check!(
        "exit_codes.documented",
        "PAS 3.3",
        2,
        PAS,
        "every exit code seen or declared is listed in ERROR CODES",
        errors::documented
    ),
    check!(
        "exit_codes.semantic",
        "PAS 3.3",
        2,
        PAS,
        "every exit code seen is 0, 1, 2, 64-78, 100-125 or a signal's 128+n",
        errors::semantic
    ),
];

/// Skips when `runs` is empty, with the context's explanation.
pub fn need_examples(ctx: &mut Ctx) -> Result<Vec<(crate::plan::Planned, Run)>, Verdict> {
    let runs = ctx.example_runs();
    if runs.is_empty() {
        return Err(Verdict::skip(ctx.why_no_example()));
    }
    Ok(runs)
}

/// Parses one JSON value, or says why not.
pub fn json(text: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str(text.trim_end_matches('\n')).map_err(|e| e.to_string())
}

/// Whether text has an ANSI escape or a bell.
pub fn has_ansi(bytes: &[u8]) -> bool {
    bytes.contains(&0x1b) || bytes.contains(&0x07)
}

/// The string words of an argv.
pub fn words(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| (*s).to_owned()).collect()
}

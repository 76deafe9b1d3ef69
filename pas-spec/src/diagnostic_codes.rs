//! Every diagnostic code, with a one-line summary. `specs/README.md` lists this table, and a test
//! keeps the two in step. Codes are stable: a code is never reused for another problem.
//!
//! Ranges: `E001`-`E009` loader (reading and shape), `E010`-`E099` validator errors,
//! `W001`-`W099` validator warnings.

/// (code, summary) for every diagnostic pas-spec can emit, in code order.
// One entry per line, so the table reads (and diffs) as a table.
#[rustfmt::skip]
pub const CODES: &[(&str, &str)] = &[
    ("E001", "the spec cannot be read (missing, a directory, or an I/O error)"),
    ("E002", "the spec is larger than the loader accepts"),
    ("E003", "the spec is not valid UTF-8"),
    ("E004", "the spec is empty"),
    ("E005", "YAML or JSON syntax error"),
    ("E006", "a value has the wrong shape (type, missing key, unknown enum value)"),
    ("E007", "unknown key"),
    ("E008", "duplicate key"),
    ("E009", "the document exceeds the parsing budget (nesting depth, aliases, size)"),
    // Validator: the tool's identity.
    ("E010", "specVersion is not 1"),
    ("E011", "the tool name is not kebab-case"),
    ("E012", "the tool version is not a semantic version"),
    ("E013", "the tool summary is empty"),
    ("E014", "the robot schemaVersion is not a semantic version"),
    ("E015", "the tool has no commands (and no resources to generate verbs from)"),
    // Validator: levels and resources.
    ("E016", "the level is not 1, 2, 3 or 4"),
    ("E017", "level 3 or 4 is claimed but resources do not offer the verbs it needs"),
    ("E018", "a resource path is malformed (not absolute, empty segment, trailing slash, braces)"),
    ("E019", "a resource path placeholder is not an identifier, or is used twice in one path"),
    ("E020", "two resources have the same path template"),
    ("E021", "a resource lists no verbs, or a verb twice"),
    // Validator: exit codes.
    ("E022", "an exit code name is not UPPER_SNAKE_CASE"),
    ("E023", "an exit code name is used twice, or is an implicit code's name"),
    ("E024", "an exit code number is used twice"),
    ("E025", "an exit code is above 255"),
    ("E026", "pas/compose: exit code 0, 1 or 2 is declared (they are implicit)"),
    ("E027", "pas/compose: exit code in the reserved range 64-78"),
    ("E028", "pas/compose: exit code outside the tool range 100-125"),
    ("E029", "a command's errors name an exit code that is not declared"),
    // Validator: command names and argv paths.
    ("E030", "a command name is not dotted kebab-case (`group.action`)"),
    ("E031", "two commands have the same name"),
    ("E032", "an argv path word or alias is not kebab-case"),
    ("E033", "two commands (or aliases) are selected by the same argv words"),
    ("E034", "a command's argv path is a strict prefix of another command's path"),
    ("E035", "an empty argv path in a tool with more than one command"),
    ("E036", "an argv word is taken by a built-in or generated command"),
    // Validator: parameters.
    ("E040", "a parameter name is not kebab-case"),
    ("E041", "two parameters of a command (global flags included) have the same name"),
    ("E042", "a short flag is not an ASCII letter or digit"),
    ("E043", "a short flag is used twice (or is the built-in -h or -V)"),
    ("E044", "a positional parameter has a short flag"),
    ("E045", "a parameter takes the name of a built-in flag"),
    ("E046", "a variadic positional is not the last positional, or there are two"),
    ("E047", "a required positional comes after an optional one"),
    ("E048", "a global flag is not of kind flag"),
    ("E049", "`items` without `type: array`, or an array of arrays"),
    ("E050", "`enum` on a parameter whose values are not strings"),
    ("E051", "an `enum` is empty or lists a value twice"),
    ("E052", "a default does not match the parameter's type"),
    ("E053", "a default is not one of the enum values"),
    ("E054", "an environment variable name is invalid"),
    // Validator: Rust names.
    ("E055", "a parameter maps to `self`, `super` or `crate` and has no rustName"),
    ("E056", "a rustName is not a snake_case non-keyword Rust identifier"),
    ("E057", "two parameters map to the same Rust field"),
    ("E058", "a command maps to the Rust type name `Self`"),
    ("E059", "two commands map to the same Rust type name"),
    // Validator: secrets.
    ("E060", "a secret parameter has a default"),
    ("E061", "an example shows a literal value for a secret parameter"),
    // Validator: JSON Schemas.
    ("E062", "an outputSchema or inputSchema is not a valid JSON Schema (draft 2020-12)"),
    ("E063", "a schema cannot be compiled (bad regular expression, unresolvable $ref)"),
    ("E064", "a schema declares a `$schema` dialect other than draft 2020-12"),
    // Validator: command behaviour.
    ("E065", "paging names a parameter the command does not have (or the same one twice)"),
    ("E066", "paging on a command whose output is not a list"),
    ("E067", "deprecated.replacement does not name another command"),
    // Validator: examples.
    ("E070", "an example is not a shell command (unclosed quote, empty)"),
    ("E071", "an example does not run the tool"),
    ("E072", "an example selects no command, an unknown one, or not the one it illustrates"),
    ("E073", "an example uses a flag the command does not have"),
    ("E074", "an example gives a flag or positional a wrong value (type, enum, missing, repeated)"),
    ("E075", "an example leaves out a required parameter"),
    ("E076", "an example gives more positional values than the command takes"),
    ("E077", "an exit code's trigger runs no command of the tool (a built-in, --help, nothing)"),
    // Validator: the robot contract.
    ("E078", "an exit-code role is given twice, or to a success code"),
    ("E079", "robot: a role left to its fallback exit code lands on a success code"),
    ("E080", "robot sessions: bad prefix, no states, a state twice or not snake_case, an unknown next or interrupted/expired state"),
    ("E081", "a safety gate name is not snake_case, is `all_gates_passed`, or is used twice"),
    ("E082", "a command takes part in a session, and the spec declares no sessions"),
    ("E083", "a flag alias is not kebab-case, or clashes with another flag or alias"),
    ("E084", "a one-command compose tool takes a positional at its root, hiding the built-in words"),
    // Validator: declarations the runtime enforces.
    ("E085", "a constraint does not fit the parameter's type (minimum/maximum on text, minLength/maxLength/pattern/format on numbers)"),
    ("E086", "a minimum is above its maximum, or a minLength above its maxLength"),
    ("E087", "a parameter's pattern is not a valid regular expression"),
    ("E088", "a parameter's default breaks its own constraints"),
    ("E089", "requires/conflicts names an unknown parameter, the parameter itself, or one it also requires"),
    ("E090", "a requirement is malformed (name, target, fix, version) or a command needs an undeclared one"),
    ("E091", "auth is malformed, or a command needs credentials or scopes the auth block does not declare"),
    ("E092", "untrusted fields on a command without structured output, or not in its outputSchema"),
    ("E093", "a side effect has an empty target"),
    ("E094", "a job command's settings are wrong: a `job` block without `output: job`, a zero or inconsistent pollIntervalMs/timeoutMs, a `timeout` on a job, or the `job` word unreachable"),
    ("E095", "pas/compose: an exit code takes the name of an error constant the runtime raises itself (TIMEOUT, INTERRUPTED, FORCE_REQUIRED, ...)"),
    ("E096", "pas: an exit code takes the number the runtime gives one of its own constants (124, TIMEOUT)"),
    ("E097", "a changelog entry's version is not a semantic version, is above the tool's, or is listed twice; or its date is not YYYY-MM-DD"),
    ("E098", "a command's lock name is not a safe file name, or the tool declares no LOCK_HELD exit code"),
    ("E099", "a command's declared limit (timeout, maxOutputBytes, maxInputBytes) is not a positive number"),
    // Validator warnings.
    ("W001", "resources are declared but the level is below 3"),
    ("W002", "schemaVersion is set outside the robot profile"),
    ("W003", "`blocking` on an exit code outside the compose profile"),
    ("W004", "`success` on an exit code outside the robot profile"),
    ("W005", "an exit code has no meaning"),
    ("W006", "a command lists an exit code twice in errors"),
    ("W007", "a required parameter has a default"),
    ("W008", "a boolean flag defaults to true and can never be turned off"),
    ("W009", "a variadic positional has `type: array` (its type names each value)"),
    ("W010", "a parameter has no description"),
    ("W011", "a secret parameter has no env, so it must be passed on the command line"),
    ("W012", "a list or events command's outputSchema is `type: array` (it describes one item)"),
    ("W013", "an outputSchema on a command whose output is none or document"),
    ("W014", "an inputSchema on a read command"),
    ("W015", "dryRun on a read command"),
    ("W016", "a command has no description"),
    ("W017", "an anti-pattern has an empty pattern or instead"),
    ("W018", "the paging limit parameter is not an integer"),
    ("W019", "a robot key (robot, role, session, confirm, listField, compactOmit) outside the robot profile"),
    ("W020", "a command keeps background processes but the tool has no `cleanup` word to end them"),
    ("W021", "a string parameter is named like an id or a path but declares no `format`"),
];

/// The summary of a code, if it exists.
pub fn summary(code: &str) -> Option<&'static str> {
    CODES.iter().find(|(c, _)| *c == code).map(|(_, s)| *s)
}

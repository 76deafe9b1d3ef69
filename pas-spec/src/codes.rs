//! Every diagnostic code, with a one-line summary. `specs/README.md` lists this table, and a test
//! keeps the two in step. Codes are stable: a code is never reused for another problem.
//!
//! Ranges: `E001`-`E009` loader (reading and shape), `E010`-`E099` validator errors,
//! `W001`-`W099` validator warnings.

/// (code, summary) for every diagnostic pas-spec can emit, in code order.
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
];

/// The summary of a code, if it exists.
pub fn summary(code: &str) -> Option<&'static str> {
    CODES.iter().find(|(c, _)| *c == code).map(|(_, s)| *s)
}

//! Agent hardening (CLI Agent Spec 34 and 35): the spellings an agent hallucinates in a value
//! that names a thing (an id, a name, a path) and a person rarely types. Each passes a string
//! type check and then fails obscurely, or worse, succeeds somewhere unintended:
//!
//! | pattern | example | corrected to |
//! |---|---|---|
//! | `control_character` | `abc\n`, a NUL, a zero-width space | the value without them |
//! | `percent_encoding` | `acme%2Fwidgets` | `acme/widgets` |
//! | `double_percent_encoding` | `acme%252Fwidgets` | `acme/widgets` |
//! | `query_string` | `users?active=true` | `users` |
//! | `fragment` | `repos/main#readme` | `repos/main` |
//! | `path_traversal` | `../../etc/passwd`, `a/./b` | `etc/passwd`, `a/b` |
//! | `shell_metacharacter` | `widgets; rm -rf /`, `$HOME/x` | `widgets`, `HOME/x` |
//! | `null_literal` | `null`, `undefined`, `None` | the empty string: leave it out |
//!
//! A leading `./` and a lone `.` are a relative path's usual spelling and pass. Every refusal
//! carries the value the call most likely meant (`corrected_input`), which itself passes.
//! Which parameters are checked: [`is_hardened`].

use crate::{ParamType, Parameter};

/// Why a value was refused and what it most likely meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The first pattern found, snake_case (`percent_encoding`, `path_traversal`, ...).
    pub pattern: &'static str,
    /// What is wrong, in words an agent can act on (completes "the value ...").
    pub why: &'static str,
    /// The value with every pattern corrected: what to call again with.
    pub corrected: String,
}

/// The words the faces print after a hardened parameter.
pub const FACE_WORDS: &str =
    "literal (refuses %XX, ?, #, .., ; | & $ ` < >, control characters and null)";

/// Parameter names (or their last `-` word) that name a thing rather than describe it.
const THING_WORDS: &[&str] = &[
    "id",
    "ids",
    "uuid",
    "name",
    "names",
    "slug",
    "key",
    "keys",
    "ref",
    "path",
    "paths",
    "file",
    "files",
    "dir",
    "dirs",
    "directory",
];

/// Whether the runtime checks this parameter's values: as declared (`agentHardening`), else
/// for a string parameter without an `enum`, not secret, whose name or last word is one of
/// `id`, `ids`, `uuid`, `name`, `names`, `slug`, `key`, `keys`, `ref`, `path`, `paths`,
/// `file`, `files`, `dir`, `dirs` or `directory` (`user-id`, `output-file`).
pub fn is_hardened(param: &Parameter) -> bool {
    if let Some(declared) = param.agent_hardening {
        return declared;
    }
    let last = param.name.rsplit(['-', '_']).next().unwrap_or(&param.name);
    param.element_type() == ParamType::String
        && param.values.is_none()
        && !param.secret
        && THING_WORDS.contains(&last)
}

/// The refusal of `value`, or `None` when it is none of the patterns.
pub fn refuse(value: &str) -> Option<Refusal> {
    let (pattern, why) = first_pattern(value)?;
    let mut corrected = value.to_owned();
    // Each pass fixes what it finds; a fix can reveal another (a decoded `%3F` is a `?`).
    for _ in 0..6 {
        match first_pattern(&corrected) {
            Some((found, _)) => corrected = fix(found, &corrected),
            None => break,
        }
    }
    Some(Refusal {
        pattern,
        why,
        corrected,
    })
}

const NULL_LITERALS: &[&str] = &[
    "null",
    "NULL",
    "Null",
    "nil",
    "undefined",
    "None",
    "NaN",
    "Infinity",
];

const SHELL: &[char] = &[';', '|', '&', '$', '`', '<', '>'];

fn first_pattern(value: &str) -> Option<(&'static str, &'static str)> {
    Some(if value.chars().any(is_control) {
        (
            "control_character",
            "holds a control or invisible character (a newline, a tab, a NUL, a zero-width space)",
        )
    } else if has_percent_escape(value) {
        if has_percent_escape(&percent_decoded(value)) {
            (
                "double_percent_encoding",
                "is percent-encoded twice (`%252F` is `/`); give the value itself",
            )
        } else {
            (
                "percent_encoding",
                "is percent-encoded (`%2F` is `/`); give the value itself, not its URL encoding",
            )
        }
    } else if value.contains('?') {
        ("query_string", "has a `?` query, as in a URL")
    } else if value.contains('#') {
        ("fragment", "has a `#` fragment, as in a URL")
    } else if has_dot_segment(value) {
        (
            "path_traversal",
            "has a `..` (or inner `.`) segment: path traversal",
        )
    } else if value.contains(SHELL) {
        (
            "shell_metacharacter",
            "holds a shell metacharacter (; | & $ ` < >); values reach the tool as they are, never through a shell",
        )
    } else if NULL_LITERALS.contains(&value) {
        (
            "null_literal",
            "is a null literal, not a value; leave the parameter out to give none",
        )
    } else {
        return None;
    })
}

fn fix(pattern: &str, value: &str) -> String {
    match pattern {
        "control_character" => value
            .chars()
            .filter(|c| !is_control(*c))
            .collect::<String>(),
        "percent_encoding" | "double_percent_encoding" => percent_decoded(value),
        "query_string" => value[..value.find('?').unwrap_or(value.len())].to_owned(),
        "fragment" => value[..value.find('#').unwrap_or(value.len())].to_owned(),
        "path_traversal" => without_dot_segments(value),
        "shell_metacharacter" => {
            let cut = value[..value.find(SHELL).unwrap_or(value.len())].trim_end();
            if cut.is_empty() {
                value.replace(SHELL, "")
            } else {
                cut.to_owned()
            }
        }
        _ => String::new(),
    }
}

/// A control character, or one that shows nothing or reorders text (zero-width, bidi marks).
fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// Whether `value` holds a `%XX` escape (two hex digits after `%`).
pub fn has_percent_escape(value: &str) -> bool {
    value
        .as_bytes()
        .windows(3)
        .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
}

/// `value` with each `%XX` decoded once (bytes that are not UTF-8 become U+FFFD).
pub fn percent_decoded(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn segments(value: &str) -> impl Iterator<Item = &str> {
    value.split(['/', '\\'])
}

/// A `..` segment anywhere, or a `.` segment other than a leading `./` or a lone `.`.
fn has_dot_segment(value: &str) -> bool {
    segments(value)
        .enumerate()
        .any(|(i, s)| s == ".." || (s == "." && i > 0))
}

fn without_dot_segments(value: &str) -> String {
    let kept: Vec<&str> = segments(value)
        .enumerate()
        .filter(|(i, s)| *s != ".." && !(*s == "." && *i > 0))
        .map(|(_, s)| s)
        .collect();
    let joined = kept.join("/");
    // `../x` keeps no empty head; `/../x` keeps its root.
    if value.starts_with('/') && !joined.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(value: &str) -> (&'static str, String) {
        let refusal = refuse(value).unwrap_or_else(|| panic!("{value:?} passes"));
        assert_eq!(
            refuse(&refusal.corrected),
            None,
            "the correction of {value:?} passes"
        );
        (refusal.pattern, refusal.corrected)
    }

    #[test]
    fn every_axis_5_pattern_is_refused_with_the_value_meant() {
        let cases = [
            ("acme%2Fwidgets", "percent_encoding", "acme/widgets"),
            (
                "acme%252Fwidgets",
                "double_percent_encoding",
                "acme/widgets",
            ),
            ("users?active=true", "query_string", "users"),
            ("repos/main#readme", "fragment", "repos/main"),
            (
                "../../etc/cron.d/backdoor",
                "path_traversal",
                "etc/cron.d/backdoor",
            ),
            (
                "/srv/data/../../etc/passwd",
                "path_traversal",
                "/srv/data/etc/passwd",
            ),
            ("a/./b", "path_traversal", "a/b"),
            ("..\\..\\windows", "path_traversal", "windows"),
            ("..%2F..%2Fetc", "percent_encoding", "etc"),
            ("widgets; rm -rf /", "shell_metacharacter", "widgets"),
            ("a && b", "shell_metacharacter", "a"),
            ("$(whoami)", "shell_metacharacter", "(whoami)"),
            ("`id`", "shell_metacharacter", "id"),
            ("name\n", "control_character", "name"),
            ("na\0me", "control_character", "name"),
            ("ab\u{200B}c", "control_character", "abc"),
            ("null", "null_literal", ""),
            ("undefined", "null_literal", ""),
            ("None", "null_literal", ""),
        ];
        for (value, pattern, corrected) in cases {
            assert_eq!(refused(value), (pattern, corrected.to_owned()), "{value:?}");
        }
    }

    #[test]
    fn ordinary_ids_names_and_paths_pass() {
        for value in [
            "usr-a1b2c3",
            "acme/widgets",
            "/home/user/file.txt",
            "./notes.txt",
            ".",
            "report (1).pdf",
            "Ada Lovelace",
            "v1.2.3",
            "a..b",
            ".hidden",
            "nullable",
            "",
            "100%",
        ] {
            assert_eq!(refuse(value), None, "{value:?}");
        }
    }

    fn param(name: &str) -> Parameter {
        serde_json::from_value(serde_json::json!({ "name": name })).unwrap()
    }

    #[test]
    fn names_of_things_are_hardened_unless_declared_otherwise() {
        for name in [
            "id",
            "user-id",
            "name",
            "path",
            "output-file",
            "files",
            "dir",
            "slug",
        ] {
            assert!(is_hardened(&param(name)), "{name}");
        }
        for name in [
            "title",
            "message",
            "query",
            "url",
            "limit",
            "filename-pattern",
        ] {
            assert!(!is_hardened(&param(name)), "{name}");
        }
        let mut off = param("id");
        off.agent_hardening = Some(false);
        assert!(!is_hardened(&off));
        let mut on = param("collection");
        on.agent_hardening = Some(true);
        assert!(is_hardened(&on));
        let mut secret = param("key");
        secret.secret = true;
        assert!(!is_hardened(&secret));
        let mut number = param("id");
        number.ty = ParamType::Integer;
        assert!(!is_hardened(&number));
        let mut choice = param("name");
        choice.values = Some(vec!["a".into()]);
        assert!(!is_hardened(&choice));
    }
}

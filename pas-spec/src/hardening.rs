//! Agent hardening (CLI Agent Spec 34 and 35), for the parameters that declare it: the
//! spellings an agent hallucinates in an identifier and a person rarely types. Each passes a
//! string type check and then fails obscurely, or worse, succeeds somewhere unintended:
//!
//! | pattern | example |
//! |---|---|
//! | `control_character` | `abc\n`, a NUL, a zero-width space |
//! | `percent_encoding` | `acme%2Fwidgets` |
//! | `double_percent_encoding` | `acme%252Fwidgets` |
//! | `query_string` | `users?active=true` |
//! | `fragment` | `repos/main#readme` |
//! | `path_traversal` | `../../etc/passwd`, `a/./b` |
//! | `shell_metacharacter` | `widgets; rm -rf /`, `$HOME/x` |
//! | `null_literal` | `null`, `undefined`, `None` |
//!
//! A leading `./` and a lone `.` are a relative path's usual spelling and pass. A refusal never
//! offers another value in its place: `acme` is not what `acme#1` names, and following such a
//! "correction" would reach a different thing. Which parameters are checked: [`is_hardened`],
//! from the declared `format: id` or `agentHardening`, never from a parameter's name.

use crate::{ParamType, Parameter, StringFormat};

/// Why a value was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The first pattern found, snake_case (`percent_encoding`, `path_traversal`, ...).
    pub pattern: &'static str,
    /// What is wrong, in words an agent can act on (completes "the value ...").
    pub why: &'static str,
}

/// The words the faces print after a hardened parameter.
pub const FACE_WORDS: &str =
    "identifier: in machine mode refuses %XX, ?, #, .., ; | & $ ` < >, control characters and null";

/// The words the faces print after a `format: path` parameter.
pub const PATH_WORDS: &str = "local file path, taken exactly as given";

/// The words the faces print after a `format: resource-path` parameter.
pub const RESOURCE_PATH_WORDS: &str =
    "resource path: refuses . and .. segments, backslashes, %XX, ?key=value and #";

/// The words the faces print for a parameter's declared format and checks, if any.
pub fn face_words(param: &Parameter) -> Option<&'static str> {
    if is_hardened(param) {
        return Some(FACE_WORDS);
    }
    match param.format? {
        StringFormat::Path => Some(PATH_WORDS),
        StringFormat::ResourcePath => Some(RESOURCE_PATH_WORDS),
        StringFormat::Id => None,
    }
}

/// Parameter names (or their last `-` word) that name a thing rather than describe it: a
/// string parameter so named without a declared `format` gets a warning (W021), never a check.
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

/// Whether the runtime checks this parameter's values in machine mode: as declared
/// (`agentHardening`), else for a string parameter declared `format: id`. A parameter's name
/// decides nothing.
pub fn is_hardened(param: &Parameter) -> bool {
    if let Some(declared) = param.agent_hardening {
        return declared;
    }
    param.format == Some(StringFormat::Id)
        && param.element_type() == ParamType::String
        && param.values.is_none()
        && !param.secret
}

/// Whether a string parameter is named like an id, a name or a path (`user-id`, `output-file`)
/// and declares neither a `format`, `agentHardening`, an `enum` nor `secret`: the author may
/// mean `format: id` or `format: path` and has not said.
pub fn looks_undeclared_thing(param: &Parameter) -> bool {
    let last = param.name.rsplit(['-', '_']).next().unwrap_or(&param.name);
    param.element_type() == ParamType::String
        && param.format.is_none()
        && param.agent_hardening.is_none()
        && param.values.is_none()
        && !param.secret
        && THING_WORDS.contains(&last)
}

/// The refusal of `value`, or `None` when it is none of the patterns.
pub fn refuse(value: &str) -> Option<Refusal> {
    let (pattern, why) = first_pattern(value)?;
    Some(Refusal { pattern, why })
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
            "holds a shell metacharacter (; | & $ ` < >), which an identifier never holds",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_axis_5_pattern_is_refused_and_nothing_is_offered_in_its_place() {
        let cases = [
            ("acme%2Fwidgets", "percent_encoding"),
            ("acme%252Fwidgets", "double_percent_encoding"),
            ("users?active=true", "query_string"),
            ("repos/main#readme", "fragment"),
            ("../../etc/cron.d/backdoor", "path_traversal"),
            ("/srv/data/../../etc/passwd", "path_traversal"),
            ("a/./b", "path_traversal"),
            ("..\\..\\windows", "path_traversal"),
            ("..%2F..%2Fetc", "percent_encoding"),
            ("widgets; rm -rf /", "shell_metacharacter"),
            ("a && b", "shell_metacharacter"),
            ("$(whoami)", "shell_metacharacter"),
            ("`id`", "shell_metacharacter"),
            ("name\n", "control_character"),
            ("na\0me", "control_character"),
            ("ab\u{200B}c", "control_character"),
            ("null", "null_literal"),
            ("undefined", "null_literal"),
            ("None", "null_literal"),
        ];
        for (value, pattern) in cases {
            let refusal = refuse(value).unwrap_or_else(|| panic!("{value:?} passes"));
            assert_eq!(refusal.pattern, pattern, "{value:?}");
        }
    }

    #[test]
    fn no_refusal_claims_values_reach_the_tool_unchanged() {
        // The old wording said values "reach the tool as they are, never through a shell" while
        // refusing them: the reason given is the declared format, which is the truth.
        let refusal = refuse("a;b").unwrap();
        assert!(refusal.why.contains("identifier"), "{}", refusal.why);
        assert!(!refusal.why.contains("never through a shell"));
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

    fn with_format(name: &str, format: StringFormat) -> Parameter {
        Parameter {
            format: Some(format),
            ..param(name)
        }
    }

    #[test]
    fn no_name_hardens_a_parameter_only_a_declaration_does() {
        for name in [
            "id",
            "user-id",
            "name",
            "path",
            "output-file",
            "files",
            "dir",
            "slug",
            "title",
        ] {
            assert!(!is_hardened(&param(name)), "{name}");
        }
        assert!(is_hardened(&with_format("collection", StringFormat::Id)));
        assert!(!is_hardened(&with_format("file", StringFormat::Path)));
        assert!(!is_hardened(&with_format(
            "path",
            StringFormat::ResourcePath
        )));
        let mut off = with_format("id", StringFormat::Id);
        off.agent_hardening = Some(false);
        assert!(!is_hardened(&off));
        let mut on = param("collection");
        on.agent_hardening = Some(true);
        assert!(is_hardened(&on));
        let mut secret = with_format("key", StringFormat::Id);
        secret.secret = true;
        assert!(!is_hardened(&secret));
        let mut number = with_format("id", StringFormat::Id);
        number.ty = ParamType::Integer;
        assert!(!is_hardened(&number));
    }

    #[test]
    fn names_of_things_without_a_format_are_only_flagged_for_a_warning() {
        for name in [
            "id",
            "user-id",
            "name",
            "path",
            "output-file",
            "files",
            "dir",
        ] {
            assert!(looks_undeclared_thing(&param(name)), "{name}");
        }
        for name in ["title", "message", "query", "url", "filename-pattern"] {
            assert!(!looks_undeclared_thing(&param(name)), "{name}");
        }
        assert!(!looks_undeclared_thing(&with_format(
            "id",
            StringFormat::Id
        )));
        assert!(!looks_undeclared_thing(&with_format(
            "file",
            StringFormat::Path
        )));
        let mut declared = param("name");
        declared.agent_hardening = Some(false);
        assert!(!looks_undeclared_thing(&declared));
        let mut choice = param("name");
        choice.values = Some(vec!["a".into()]);
        assert!(!looks_undeclared_thing(&choice));
    }

    #[test]
    fn faces_name_each_format() {
        assert_eq!(face_words(&param("id")), None);
        assert_eq!(
            face_words(&with_format("id", StringFormat::Id)),
            Some(FACE_WORDS)
        );
        assert_eq!(
            face_words(&with_format("f", StringFormat::Path)),
            Some(PATH_WORDS)
        );
        assert_eq!(
            face_words(&with_format("p", StringFormat::ResourcePath)),
            Some(RESOURCE_PATH_WORDS)
        );
    }

    #[test]
    fn formats_read_and_write_their_spec_spelling() {
        for format in [
            StringFormat::Path,
            StringFormat::ResourcePath,
            StringFormat::Id,
        ] {
            let json = serde_json::to_value(format).unwrap();
            assert_eq!(json, format.as_str());
            assert_eq!(StringFormat::from_word(format.as_str()), Some(format));
        }
        assert_eq!(StringFormat::from_word("uri"), None);
    }
}

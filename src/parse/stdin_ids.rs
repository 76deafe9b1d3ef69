//! `-` for an id (CLI Agent Spec failure mode 6): every id-taking parameter of every command
//! reads its value from stdin when given as `-`, so ids piped from another call
//! (`--output-id`) need no shell variable: `tool list --output-id | tool rm -`.
//!
//! An id-taking parameter is a positional, or a flag named `id`, `ids` or ending in `-id` or
//! `-ids`, of string or integer values, on a command that does not read stdin itself (a
//! declared `stdin` command owns its stdin), unless it is named as a file, path or directory
//! (`file`, `paths`, `out-dir`, ...: a `-` there is the handler's own "stdin"). stdin
//! holds one id per line (blank lines skipped): a parameter that takes many gets them all, one
//! that takes one needs exactly one. Only one parameter of a call can read stdin.
//!
//! argv is rewritten (the `-` word replaced by the ids) and parsed again, so the ids meet every
//! check a typed value meets (types, enums, declared constraints). Calls without a bare `-`
//! never pay for it.

use std::ffi::OsString;
use std::io::Read;

use pas_spec::{Command, ParamKind, ParamType, Parameter, Registry, StdinMode};

use crate::codes;
use crate::error::Error;

/// The most stdin an id list may hold (ids, not documents).
const MAX_BYTES: u64 = 1 << 20;

/// Whether argv holds a bare `-` before `--` (only then is the parse worth a second look).
pub(crate) fn has_dash(argv: &[OsString]) -> bool {
    argv.iter()
        .skip(1)
        .take_while(|w| w.as_encoded_bytes() != b"--")
        .any(|w| w.as_encoded_bytes() == b"-")
}

/// Whether `param` takes ids.
fn takes_ids(param: &Parameter) -> bool {
    let ty = param.element_type();
    if !matches!(ty, ParamType::String | ParamType::Integer) {
        return false;
    }
    let name = param.name.as_str();
    // A file or path given as `-` conventionally means its content on stdin: the handler's.
    let path_like = ["file", "files", "path", "paths", "dir", "dirs"]
        .iter()
        .any(|word| name == *word || name.ends_with(&format!("-{word}")));
    if path_like {
        return false;
    }
    param.kind != ParamKind::Flag
        || matches!(name, "id" | "ids")
        || name.ends_with("-id")
        || name.ends_with("-ids")
}

/// argv with the `-` of an id parameter replaced by the ids stdin holds, or `None` when no id
/// parameter was given `-` (or argv does not parse: the real parse then says why). `stdin` is
/// read only when one was. `cmd` is the tool's parser, cloned for the look.
pub(crate) fn substitute(
    registry: &Registry,
    cmd: &clap::Command,
    argv: &[OsString],
    given: &[OsString],
    stdin: impl FnOnce() -> std::io::Result<String>,
) -> Result<Option<Vec<OsString>>, Error> {
    let dashes: Vec<usize> = argv
        .iter()
        .enumerate()
        .skip(1)
        .take_while(|(_, w)| w.as_encoded_bytes() != b"--")
        .filter(|(_, w)| w.as_encoded_bytes() == b"-")
        .map(|(i, _)| i)
        .collect();
    // Which parameter took the `-`: the one whose value follows a stand-in put in its place
    // (`0`, then `1`: valid for string and integer ids alike).
    let parse = |stand_in: &str| {
        let words = argv
            .iter()
            .enumerate()
            .map(|(i, w)| match dashes.contains(&i) {
                true => OsString::from(stand_in),
                false => w.clone(),
            });
        cmd.clone().try_get_matches_from(words).ok()
    };
    let (Some(zero), Some(one)) = (parse("0"), parse("1")) else {
        return Ok(None);
    };
    let (path, zero_leaf) = crate::parse::command_path::matched(&zero);
    let (_, one_leaf) = crate::parse::command_path::matched(&one);
    let Some(command) = registry.commands.iter().find(|c| c.argv_path() == path) else {
        return Ok(None);
    };
    let Some(param) = dashed(command, zero_leaf, one_leaf) else {
        return Ok(None);
    };
    if dashes.len() != 1 {
        return Err(Error::new(
            codes::INVALID_ARGUMENT,
            format!(
                "{} parameters are given `-`, and stdin can be read once",
                dashes.len()
            ),
        )
        .with_suggestion(format!("give `-` to one parameter only ({})", label(param))));
    }
    let text = stdin().map_err(|e| {
        Error::new(
            codes::INVALID_ARGUMENT,
            format!("{} is `-`, and stdin cannot be read: {e}", label(param)),
        )
    })?;
    let ids: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let many = param.is_many();
    if !many && ids.len() > 1 {
        // One call takes one id: the same call once per id is what was meant, and the shell
        // says it exactly (`xargs -I{}` puts each id where the `-` stood).
        // The call as given (the runtime's flags included), its one `-` the id's place.
        let dash = given
            .iter()
            .skip(1)
            .take_while(|w| w.as_encoded_bytes() != b"--")
            .position(|w| w.as_encoded_bytes() == b"-")
            .map(|i| i + 1);
        let words: Vec<String> = given
            .iter()
            .enumerate()
            .map(|(i, w)| match i {
                0 => registry.name.clone(),
                _ if Some(i) == dash => "{}".to_owned(),
                _ => shell_word(&w.to_string_lossy()),
            })
            .collect();
        return Err(Error::new(
            codes::INVALID_ARGUMENT,
            format!(
                "{} is `-`, and stdin holds {} ids; it takes one per call",
                label(param),
                ids.len()
            ),
        )
        .with_suggestion(format!(
            "run the call once per id: ... | xargs -I{{}} {}",
            words.join(" ")
        ))
        .with_details(serde_json::json!({ "ids": ids })));
    }
    if ids.is_empty() {
        return Err(Error::new(
            codes::INVALID_ARGUMENT,
            format!(
                "{} is `-`, and stdin holds {} ids; it takes {}",
                label(param),
                ids.len(),
                if many { "one or more" } else { "exactly one" }
            ),
        )
        .with_suggestion("pipe one id per line into the call (e.g. from --output-id)"));
    }
    let at = dashes[0];
    let mut words: Vec<OsString> = argv[..at].to_vec();
    for (n, id) in ids.iter().enumerate() {
        // A flag that takes many is repeated; positionals simply follow one another.
        if n > 0 && param.kind == ParamKind::Flag {
            words.push(format!("--{}", param.name).into());
        }
        words.push((*id).into());
    }
    words.extend(argv[at + 1..].iter().cloned());
    Ok(Some(words))
}

/// The id parameter of `command` that took the stand-in (its values differ between the two
/// parses), if any.
fn dashed<'a>(
    command: &'a Command,
    zero: &clap::ArgMatches,
    one: &clap::ArgMatches,
) -> Option<&'a Parameter> {
    if command.stdin != StdinMode::None {
        return None;
    }
    let raw = |leaf: &clap::ArgMatches, id: &str| -> Vec<OsString> {
        leaf.try_get_raw(id)
            .ok()
            .flatten()
            .map(|values| values.map(ToOwned::to_owned).collect())
            .unwrap_or_default()
    };
    command
        .parameters
        .iter()
        .filter(|p| takes_ids(p))
        .find(|p| {
            let id = crate::parse::clap_face::arg_id(p);
            raw(zero, &id) != raw(one, &id)
        })
}

/// A word as a POSIX shell reads it back: bare when it holds only safe characters, else in
/// single quotes.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        return word.to_owned();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

fn label(param: &Parameter) -> String {
    match param.kind {
        ParamKind::Flag => format!("--{}", param.name),
        _ => format!("<{}>", param.name),
    }
}

/// Reads stdin for [`substitute`], up to [`MAX_BYTES`].
pub(crate) fn read_stdin() -> std::io::Result<String> {
    let mut text = String::new();
    std::io::stdin().take(MAX_BYTES).read_to_string(&mut text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_positionals_and_id_flags_but_not_files() {
        let param = |name: &str, kind: ParamKind| Parameter {
            name: name.to_owned(),
            kind,
            ..serde_json::from_value(serde_json::json!({"name": name, "description": "x"})).unwrap()
        };
        assert!(takes_ids(&param("task", ParamKind::Positional)));
        assert!(takes_ids(&param("user-id", ParamKind::Flag)));
        assert!(!takes_ids(&param("title", ParamKind::Flag)));
        assert!(!takes_ids(&param("files", ParamKind::Variadic)));
        assert!(!takes_ids(&param("out-path", ParamKind::Positional)));
    }

    #[test]
    fn shell_words_read_back_as_given() {
        assert_eq!(shell_word("--force"), "--force");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn a_dash_counts_before_the_end_of_options_only() {
        let argv = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(has_dash(&argv(&["t", "rm", "-"])));
        assert!(!has_dash(&argv(&["t", "rm", "--", "-"])));
        assert!(!has_dash(&argv(&["t", "rm", "-x"])));
    }
}

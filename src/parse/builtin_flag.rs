//! `--builtin WORD` (`pas_spec::surface::BUILTIN_FLAG`): names a built-in word without doubt, in
//! every tool. Built-ins never shadow arguments (issue 27, item 6): in a tool whose root command
//! takes positionals (`word-counter FILE...`) a bare word is always the positional's value (a
//! file named `docs`, `mcp`, ... is counted) and the built-ins are reached only this way; the
//! rule is written once, at `pas_spec::surface::BUILTIN_FLAG`, and every face writes the form
//! `pas_spec::surface::builtin_call` gives.

use pas_spec::Registry;

use crate::codes;
use crate::error::Error;
use crate::parse::argv::Prescan;

/// Takes `--builtin WORD` out of argv (before `--`) and records whether a bare word may be a
/// built-in in this call ([`Prescan::builtin_words`]); a `--builtin` not followed by a word
/// the tool answers is an argument error listing the words.
pub(crate) fn apply(registry: &Registry, pre: &mut Prescan) -> Option<Error> {
    let flag = pas_spec::surface::BUILTIN_FLAG;
    let at = pre
        .argv
        .iter()
        .skip(1)
        .take_while(|w| *w != "--")
        .position(|w| w == flag)
        .map(|i| i + 1);
    let Some(at) = at else {
        pre.builtin_words = !pas_spec::surface::builtins_need_flag(registry);
        return None;
    };
    pre.argv.remove(at);
    pre.builtin_words = true;
    let surface = pas_spec::surface::of(registry.profile);
    // Every word the tool answers is accepted (one it is built without answers
    // FEATURE_NOT_BUILT); the hint names those it is built with, as the faces do.
    let words: Vec<&str> = surface.reachable_words(registry).map(|b| b.word).collect();
    let listed: Vec<&str> = surface.listed_words(registry).map(|b| b.word).collect();
    let word = pre.argv.get(at).map(|w| w.to_string_lossy().into_owned());
    // The word after the flag is the call's command word: only global flags come before it
    // (`word-counter a.txt --builtin docs` would count `a.txt` and `docs`).
    let first = crate::parse::argv::command_word(registry, &pre.argv) == Some(at);
    match word {
        Some(word) if words.contains(&word.as_str()) && first => None,
        Some(word) if words.contains(&word.as_str()) => Some(
            Error::new(
                codes::INVALID_ARGUMENT,
                format!("{flag} {word} comes after an argument: it names the call's built-in"),
            )
            .with_suggestion(format!(
                "{} {flag} {word} (global flags may come before it, arguments after it)",
                registry.name
            ))
            .with_details(serde_json::json!({ "accepted": listed })),
        ),
        given => Some(
            Error::new(
                codes::INVALID_ARGUMENT,
                match given {
                    Some(word) => format!(
                        "{flag} {word}: `{word}` is not a built-in of {}",
                        registry.name
                    ),
                    None => format!("{flag} needs a built-in word"),
                },
            )
            .with_suggestion(format!("{flag} WORD, one of: {}", listed.join(", ")))
            .with_details(serde_json::json!({ "accepted": listed })),
        ),
    }
}

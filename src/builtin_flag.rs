//! `--builtin WORD` (`pas_spec::surface::BUILTIN_FLAG`): names a built-in word without doubt, in
//! every tool. Meant for issue 27, item 6: in a tool whose root command takes positionals a bare
//! word would always be the positional's, and the built-ins reached only this way; that rule is
//! gated off (`pas_spec::surface::builtins_need_flag` answers `false`) until the validator and
//! conform reach built-ins through the flag.

use pas_spec::Registry;

use crate::argv::Prescan;
use crate::codes;
use crate::error::Error;

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
    let words: Vec<&str> = pas_spec::surface::of(registry.profile)
        .reachable_words(registry)
        .map(|b| b.word)
        .collect();
    let word = pre.argv.get(at).map(|w| w.to_string_lossy().into_owned());
    match word {
        Some(word) if words.contains(&word.as_str()) => None,
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
            .with_suggestion(format!("{flag} WORD, one of: {}", words.join(", ")))
            .with_details(serde_json::json!({ "accepted": words })),
        ),
    }
}

//! Whether argv asks for a built-in word the runtime answers before clap parses. Apart from
//! the folder's `mod.rs` so that `doctor` and `versions`, which ask it, need nothing of the
//! table of built-ins that names them.

use pas_spec::Registry;

/// Whether argv asks for the built-in `word` that the runtime answers before clap parses
/// (`doctor`, `changelog`): it is the first command word, no `--help` follows, and the tool
/// reaches the word (no command of its own takes it).
pub(crate) fn word_asked(
    registry: &Registry,
    pre: &crate::parse::argv::Prescan,
    word: &str,
) -> bool {
    let Some(at) = pre.command_word.filter(|_| pre.builtin_words) else {
        return false;
    };
    let mut words = pre.argv.iter().skip(at);
    words.next().is_some_and(|w| w == word)
        && !words.any(|w| w == "--help" || w == "-h")
        && pas_spec::surface::of(registry.profile)
            .reachable_words(registry)
            .any(|b| b.word == word)
}

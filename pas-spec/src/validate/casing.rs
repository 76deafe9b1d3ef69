//! Spelling rules shared by the families: kebab-case, UPPER_SNAKE_CASE, Rust identifiers, the
//! name mappings the emitter uses, and "did you mean".

/// `word` or `two-words`: lowercase ASCII letters and digits, starting with a letter, single
/// hyphens between parts. Stricter than `[a-z][a-z0-9-]*`: `a--b` and `a-` would map to Rust
/// names (`a__b`, `a_`) that no one would write, and read badly as flags.
pub fn is_kebab(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_lowercase())
        && text.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// `NAME` or `TWO_WORDS`: the spelling of exit-code constants.
pub fn is_upper_snake(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_uppercase())
        && text.split('_').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
}

/// An environment variable name as POSIX shells accept it, uppercase by convention.
pub fn is_env_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
        && text
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// A snake_case Rust identifier (`[a-z_][a-z0-9_]*`, not `_` alone).
pub fn is_snake_identifier(text: &str) -> bool {
    text != "_"
        && text.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The Rust field a kebab-case parameter name becomes: `dry-run` -> `dry_run`.
pub fn snake_field(kebab: &str) -> String {
    kebab.replace('-', "_")
}

/// The Rust type a dotted command name becomes: `task.create` -> `TaskCreate`,
/// `user-group.add` -> `UserGroupAdd`.
pub fn pascal_type(dotted: &str) -> String {
    dotted
        .split(['.', '-'])
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// Keywords that cannot be written as raw identifiers (`r#self` is not Rust): a name that maps to
/// one needs an explicit `rustName`.
pub const NOT_RAW: [&str; 5] = ["self", "Self", "super", "crate", "_"];

/// Every Rust keyword, strict, reserved and edition 2024's `gen`. Except for [`NOT_RAW`], the
/// emitter writes them as raw identifiers (`r#type`), so they are fine as generated names; an
/// explicit `rustName` is taken as written and must not be one.
const KEYWORDS: [&str; 52] = [
    "Self", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub",
    "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Whether `text` is a Rust keyword (strict or reserved).
pub fn is_keyword(text: &str) -> bool {
    KEYWORDS.contains(&text)
}

/// `a string`, `an integer`: a type name with its article, for messages.
pub fn with_article(noun: &str) -> String {
    let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {noun}")
}

/// The candidate closest to `wrong`, when one is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|candidate| (strsim::jaro_winkler(wrong, candidate), candidate))
        .filter(|(score, _)| *score >= 0.8)
        // Ties go to the alphabetically first candidate, so the answer does not depend on the
        // order of a hash map.
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, candidate)| candidate)
}

/// " Did you mean `x`?" or nothing, to end a hint with.
pub fn suggestion<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(wrong, candidates)
        .map(|candidate| format!(" Did you mean `{candidate}`?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_case() {
        for good in ["a", "word-counter", "v2", "a1-b2"] {
            assert!(is_kebab(good), "{good}");
        }
        for bad in ["", "A", "1a", "a--b", "a-", "-a", "a_b", "aB", "a.b", "é"] {
            assert!(!is_kebab(bad), "{bad}");
        }
    }

    #[test]
    fn upper_snake_case() {
        assert!(is_upper_snake("FILE_NOT_FOUND"));
        assert!(is_upper_snake("E2BIG"));
        for bad in ["", "file", "_A", "A_", "A__B", "1A", "A-B"] {
            assert!(!is_upper_snake(bad), "{bad}");
        }
    }

    #[test]
    fn env_names() {
        assert!(is_env_name("API_TOKEN"));
        assert!(is_env_name("_X1"));
        assert!(!is_env_name("api_token"));
        assert!(!is_env_name("1X"));
        assert!(!is_env_name("A-B"));
        assert!(!is_env_name(""));
    }

    #[test]
    fn mappings() {
        assert_eq!(snake_field("dry-run"), "dry_run");
        assert_eq!(pascal_type("task.create"), "TaskCreate");
        assert_eq!(pascal_type("user-group.add"), "UserGroupAdd");
        assert_eq!(pascal_type("self"), "Self");
    }

    #[test]
    fn identifiers_and_keywords() {
        assert!(is_snake_identifier("kind_"));
        assert!(is_snake_identifier("_x"));
        assert!(!is_snake_identifier("_"));
        assert!(!is_snake_identifier("Kind"));
        assert!(!is_snake_identifier("a-b"));
        assert!(is_keyword("type") && is_keyword("gen") && is_keyword("Self"));
        assert!(!is_keyword("kind"));
    }

    #[test]
    fn articles() {
        assert_eq!(with_article("integer"), "an integer");
        assert_eq!(with_article("string"), "a string");
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("NOT_FUOND", ["NOT_FOUND", "TIMEOUT"]),
            Some("NOT_FOUND")
        );
        assert_eq!(did_you_mean("zzz", ["NOT_FOUND"]), None);
        assert_eq!(
            suggestion("verbos", ["verbose"]),
            " Did you mean `verbose`?"
        );
    }
}

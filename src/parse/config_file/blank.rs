//! Whether a configuration file sets anything, read without a TOML parser: a tool with no global
//! flags has nothing a file could set, so its binary links no TOML reader (issue 15) and refuses
//! any file that is not blank.
//!
//! A TOML document that sets nothing is spaces, tabs, line ends (LF or CRLF) and comments, after
//! an optional byte order mark; a comment holds no control character but the tab. Anything else
//! is a key, a table or a syntax error, refused alike. The unit tests hold this to toml's own
//! parser: a document is blank here exactly when toml reads it as an empty table.

/// What a file sets, as far as a tool without global flags is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Content<'a> {
    /// Nothing: the file is blank or comments only.
    Nothing,
    /// Something, first on this line (from 1); with the bare key (or table name) it starts
    /// with, when it starts with one.
    Something { line: usize, key: Option<&'a str> },
}

/// What `text` sets.
pub(crate) fn scan(text: &str) -> Content<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, line) in text.split_inclusive('\n').enumerate() {
        // A CR ends a line only before its LF; anywhere else it is a syntax error.
        let line = match line.strip_suffix('\n') {
            Some(body) => body.strip_suffix('\r').unwrap_or(body),
            None => line,
        };
        let rest = line.trim_start_matches([' ', '\t']);
        let blank = match rest.strip_prefix('#') {
            Some(comment) => !comment.chars().any(is_refused_in_comment),
            None => rest.is_empty(),
        };
        if !blank {
            return Content::Something {
                line: index + 1,
                key: leading_key(rest),
            };
        }
    }
    Content::Nothing
}

/// TOML's comments refuse the control characters but the tab (a CR is one when no LF follows).
fn is_refused_in_comment(c: char) -> bool {
    // `is_ascii_control` counts DEL too.
    c.is_ascii_control() && c != '\t'
}

/// The bare key a line starts with (`name = 1`, `name.sub = 1`), or the bare table name
/// (`[name]`, `[[name]]`), if it starts with one.
fn leading_key(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches('[').trim_start_matches([' ', '\t']);
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether toml reads `text` as a document that sets nothing.
    fn toml_reads_nothing(text: &str) -> bool {
        toml::de::DeTable::parse(text).is_ok_and(|table| table.into_inner().is_empty())
    }

    #[test]
    fn blank_documents() {
        for text in [
            "",
            "\n\n",
            "  \t\r\n",
            "# a comment\n",
            "\u{feff}# after a byte order mark",
            "   # indented, with a tab\t and é\r\n# another",
            "# C1 controls are printable to TOML: \u{85}",
        ] {
            assert_eq!(scan(text), Content::Nothing, "{text:?}");
            assert!(toml_reads_nothing(text), "{text:?}");
        }
    }

    #[test]
    fn what_is_set_and_where() {
        let cases = [
            ("db = \"x\"", 1, Some("db")),
            ("# c\n\n  retries=3", 3, Some("retries")),
            ("[server]\nport = 1", 1, Some("server")),
            ("[[ hosts ]]", 1, Some("hosts")),
            ("a.b = 1", 1, Some("a")),
            ("\"quoted\" = 1", 1, None),
            ("# fine\r", 1, None),
            ("# a bell \u{7}", 1, None),
            ("# a DEL \u{7f}", 1, None),
            ("\u{c}", 1, None),
            ("garbage", 1, Some("garbage")),
        ];
        for (text, line, key) in cases {
            assert_eq!(scan(text), Content::Something { line, key }, "{text:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Documents made of the characters that decide it: blank here exactly when toml reads
        /// them as setting nothing.
        #[test]
        fn blank_exactly_when_toml_reads_nothing(
            text in proptest::collection::vec(
                prop::sample::select(vec![
                    " ", "\t", "\n", "\r", "\r\n", "#", "a", "=", "1", "[", "]", "\"", ".",
                    "\u{0}", "\u{7}", "\u{b}", "\u{c}", "\u{7f}", "\u{85}", "\u{a0}", "é",
                    "\u{feff}",
                ]),
                0..12,
            ).prop_map(|parts| parts.concat())
        ) {
            prop_assert_eq!(scan(&text) == Content::Nothing, toml_reads_nothing(&text), "{:?}", text);
        }
    }
}

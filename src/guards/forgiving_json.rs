//! The JSON an agent writes is often not quite JSON (failure mode 67): a trailing comma, a
//! comment, single quotes, keys without quotes, the whole thing inside a Markdown code fence.
//! Each of these has exactly one meaning, so the runtime reads it, and says what it corrected;
//! anything with more than one reading (`True`, `None`, `NaN`, a hex number) stays an error.
//!
//! [`read`] tries strict JSON first (the common case costs one parse), and only when that
//! fails rewrites the text with [`normalise`] and parses again. serde_json cannot be told to be
//! lenient, and a JSON5 parser would accept the text without saying what it changed: the
//! correction report is the point, so the rewrite is done here, token by token.

use serde_json::{Value, json};

/// One change [`normalise`] made, with where it was in the text the caller gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Correction {
    /// What kind of change: `trailing_comma`, `comment`, `single_quotes`, `unquoted_key`,
    /// `code_fence`.
    pub kind: &'static str,
    /// 1-based line of the original text.
    pub line: usize,
    /// 1-based column (in characters) of the original text.
    pub column: usize,
}

impl Correction {
    /// One sentence for a warning or an error's details.
    pub(crate) fn describe(&self) -> String {
        let what = match self.kind {
            "trailing_comma" => "removed a trailing comma",
            "comment" => "removed a comment",
            "single_quotes" => "read a single-quoted string as a JSON string",
            "unquoted_key" => "quoted an object key",
            "code_fence" => "removed a Markdown code fence around the JSON",
            other => other,
        };
        format!("line {}, column {}: {what}", self.line, self.column)
    }

    /// The correction as JSON (`{kind, line, column, message}`).
    pub(crate) fn to_json(&self) -> Value {
        json!({
            "kind": self.kind,
            "line": self.line,
            "column": self.column,
            "message": self.describe(),
        })
    }
}

/// What [`read`] made of a text.
#[derive(Debug)]
pub(crate) struct Read {
    /// The value.
    pub value: Value,
    /// What was corrected to read it (empty for strict JSON).
    pub corrections: Vec<Correction>,
}

/// Why a text could not be read even with the safe corrections.
#[derive(Debug)]
pub(crate) struct Unreadable {
    /// The strict parser's complaint about the text as given.
    pub error: serde_json::Error,
    /// The corrections that were tried (they were not enough).
    pub corrections: Vec<Correction>,
}

/// Strict JSON, else JSON after the safe corrections.
pub(crate) fn read(text: &str) -> Result<Read, Unreadable> {
    // `from_slice`, not `from_str`: the runtime reads JSON from bytes everywhere else, and one
    // reader type means one copy of serde_json's parser in the binary (the text is UTF-8 already).
    let error = match serde_json::from_slice::<Value>(text.as_bytes()) {
        Ok(value) => {
            return Ok(Read {
                value,
                corrections: Vec::new(),
            });
        }
        Err(error) => error,
    };
    let (fixed, corrections) = normalise(text);
    if corrections.is_empty() {
        return Err(Unreadable { error, corrections });
    }
    match serde_json::from_slice::<Value>(fixed.as_bytes()) {
        Ok(value) => Ok(Read { value, corrections }),
        Err(_) => Err(Unreadable { error, corrections }),
    }
}

/// The text with the safe corrections applied, and what they were.
pub(crate) fn normalise(text: &str) -> (String, Vec<Correction>) {
    let mut corrections = Vec::new();
    let (body, fence) = unfenced(text);
    if let Some((line, column)) = fence {
        corrections.push(Correction {
            kind: "code_fence",
            line,
            column,
        });
    }
    let chars: Vec<char> = text.chars().collect();
    let mut scan = Scan {
        chars: &chars,
        at: body.0,
        end: body.1,
        out: String::with_capacity(text.len()),
        corrections,
    };
    scan.run();
    (scan.out, scan.corrections)
}

/// The character range inside a Markdown code fence (```` ```json ... ``` ````), and where
/// the fence was, when the text is one; else the whole text.
fn unfenced(text: &str) -> ((usize, usize), Option<(usize, usize)>) {
    let chars: Vec<char> = text.chars().collect();
    let whole = ((0, chars.len()), None);
    let start = chars.iter().position(|c| !c.is_whitespace());
    let Some(start) = start else {
        return whole;
    };
    if !chars[start..].starts_with(&['`', '`', '`']) {
        return whole;
    }
    // The opening fence runs to the end of its line (a language tag may follow).
    let Some(newline) = chars[start..].iter().position(|c| *c == '\n') else {
        return whole;
    };
    let body_start = start + newline + 1;
    let end = chars
        .iter()
        .rposition(|c| !c.is_whitespace())
        .map_or(0, |i| i + 1);
    if end < body_start + 3 || chars[end - 3..end] != ['`', '`', '`'] {
        return whole;
    }
    let (line, column) = position(&chars, start);
    ((body_start, end - 3), Some((line, column)))
}

/// 1-based line and column of a character index.
fn position(chars: &[char], at: usize) -> (usize, usize) {
    let before = &chars[..at.min(chars.len())];
    let line = before.iter().filter(|c| **c == '\n').count() + 1;
    let column = before.iter().rev().take_while(|c| **c != '\n').count() + 1;
    (line, column)
}

struct Scan<'a> {
    chars: &'a [char],
    at: usize,
    end: usize,
    out: String,
    corrections: Vec<Correction>,
}

impl Scan<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        let i = self.at + ahead;
        (i < self.end).then(|| self.chars[i])
    }

    fn correct(&mut self, kind: &'static str, at: usize) {
        let (line, column) = position(self.chars, at);
        self.corrections.push(Correction { kind, line, column });
    }

    /// The last character written that is not white space.
    fn last_significant(&self) -> Option<char> {
        self.out.chars().rev().find(|c| !c.is_whitespace())
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            match c {
                '"' => self.double_quoted(),
                '\'' => self.single_quoted(),
                '/' if matches!(self.peek(1), Some('/' | '*')) => self.comment(),
                ',' => self.comma(),
                c if is_key_start(c) && matches!(self.last_significant(), Some('{' | ',')) => {
                    self.maybe_key()
                }
                c => {
                    self.out.push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn double_quoted(&mut self) {
        self.out.push('"');
        self.at += 1;
        while let Some(c) = self.peek(0) {
            self.out.push(c);
            self.at += 1;
            match c {
                '\\' => {
                    if let Some(next) = self.peek(0) {
                        self.out.push(next);
                        self.at += 1;
                    }
                }
                '"' => return,
                _ => {}
            }
        }
    }

    fn single_quoted(&mut self) {
        self.correct("single_quotes", self.at);
        self.out.push('"');
        self.at += 1;
        while let Some(c) = self.peek(0) {
            self.at += 1;
            match c {
                '\\' => match self.peek(0) {
                    Some('\'') => {
                        self.out.push('\'');
                        self.at += 1;
                    }
                    Some(next) => {
                        self.out.push('\\');
                        self.out.push(next);
                        self.at += 1;
                    }
                    None => self.out.push('\\'),
                },
                '"' => self.out.push_str("\\\""),
                '\'' => {
                    self.out.push('"');
                    return;
                }
                c => self.out.push(c),
            }
        }
    }

    fn comment(&mut self) {
        self.correct("comment", self.at);
        let block = self.peek(1) == Some('*');
        self.at += 2;
        while let Some(c) = self.peek(0) {
            if block && c == '*' && self.peek(1) == Some('/') {
                self.at += 2;
                return;
            }
            if !block && c == '\n' {
                return;
            }
            self.at += 1;
        }
    }

    /// A comma followed (after white space and comments) by `}` or `]` is dropped.
    fn comma(&mut self) {
        let comma_at = self.at;
        let mut ahead = 1;
        loop {
            match self.peek(ahead) {
                Some(c) if c.is_whitespace() => ahead += 1,
                Some('/') if self.peek(ahead + 1) == Some('/') => {
                    while !matches!(self.peek(ahead), None | Some('\n')) {
                        ahead += 1;
                    }
                }
                Some('/') if self.peek(ahead + 1) == Some('*') => {
                    ahead += 2;
                    while self.peek(ahead).is_some()
                        && !(self.peek(ahead) == Some('*') && self.peek(ahead + 1) == Some('/'))
                    {
                        ahead += 1;
                    }
                    ahead += 2;
                }
                _ => break,
            }
        }
        self.at += 1;
        if matches!(self.peek(ahead - 1), Some('}' | ']')) {
            self.correct("trailing_comma", comma_at);
        } else {
            self.out.push(',');
        }
    }

    /// A bare word followed by `:` where an object key belongs is quoted; any other bare word
    /// (`true`, `null`, or a mistake the strict parser will name) is copied as it is.
    fn maybe_key(&mut self) {
        let start = self.at;
        let mut len = 0;
        while self.peek(len).is_some_and(is_key_char) {
            len += 1;
        }
        let mut after = len;
        while self.peek(after).is_some_and(char::is_whitespace) {
            after += 1;
        }
        let word: String = self.chars[start..start + len].iter().collect();
        if self.peek(after) == Some(':') {
            self.correct("unquoted_key", start);
            self.out.push('"');
            self.out.push_str(&word);
            self.out.push('"');
        } else {
            self.out.push_str(&word);
        }
        self.at += len;
    }
}

fn is_key_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> (Value, Vec<&'static str>) {
        let read = read(text).expect("readable");
        (
            read.value,
            read.corrections.iter().map(|c| c.kind).collect(),
        )
    }

    #[test]
    fn strict_json_is_read_without_corrections() {
        assert_eq!(
            kinds(r#"{"a": [1, "x,"]}"#),
            (json!({"a": [1, "x,"]}), vec![])
        );
    }

    #[test]
    fn each_safe_correction_is_made_and_reported_where_it_was() {
        let (value, found) = kinds("{\"name\": \"prod\", \"region\": \"us-east-1\",}");
        assert_eq!(value, json!({"name": "prod", "region": "us-east-1"}));
        assert_eq!(found, ["trailing_comma"]);
        let read = read("{\n  // the name\n  name: 'it''s',\n  tags: ['a', \"b\",],\n}").ok();
        assert!(
            read.is_none(),
            "two quoted strings side by side are not one value"
        );
        let read = read_ok("{\n  // the name\n  name: 'it\\'s \"x\"',\n  tags: ['a', \"b\",],\n}");
        assert_eq!(
            read.value,
            json!({"name": "it's \"x\"", "tags": ["a", "b"]})
        );
        let found: Vec<(&str, usize, usize)> = read
            .corrections
            .iter()
            .map(|c| (c.kind, c.line, c.column))
            .collect();
        assert_eq!(
            found,
            [
                ("comment", 2, 3),
                ("unquoted_key", 3, 3),
                ("single_quotes", 3, 9),
                ("unquoted_key", 4, 3),
                ("single_quotes", 4, 10),
                ("trailing_comma", 4, 18),
                ("trailing_comma", 4, 20),
            ]
        );
    }

    fn read_ok(text: &str) -> Read {
        read(text).expect("readable")
    }

    #[test]
    fn a_code_fence_is_taken_off() {
        let (value, found) = kinds("```json\n{\"a\": 1}\n```\n");
        assert_eq!((value, found), (json!({"a": 1}), vec!["code_fence"]));
    }

    #[test]
    fn values_with_more_than_one_reading_stay_errors() {
        for text in [
            "{\"a\": True}",
            "{\"a\": None}",
            "{\"a\": NaN}",
            "{\"a\": 0x10}",
            "{\"a\": 1",
        ] {
            let err = read(text).expect_err(text);
            assert!(err.error.line() >= 1, "{text}");
        }
    }

    #[test]
    fn words_inside_strings_and_bare_values_are_left_alone() {
        let (value, found) = kinds("{'a': \"b: c, }\", b: [true, null, false,]}");
        assert_eq!(value, json!({"a": "b: c, }", "b": [true, null, false]}));
        assert_eq!(found, ["single_quotes", "unquoted_key", "trailing_comma"]);
    }
}

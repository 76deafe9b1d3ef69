//! Secrets out of every error, log and echo of argv.
//!
//! The values of parameters marked `secret` are collected from three places: argv (after a
//! secret flag, before clap runs, so even a parse error cannot echo one), the environment
//! variables that feed secret flags, and clap's matches (secret positionals). Every text the
//! runtime prints about a call is then scrubbed of those values. Scrubbing by value also
//! catches a handler that copies a token into a message or a URL (PAS 8.2).

use std::ffi::OsString;

use clap::ArgMatches;
use pas_spec::{ParamKind, Parameter, Registry};
use serde_json::Value;

use crate::clap_face::arg_id;
use crate::error::Error;

/// What replaces a secret.
pub const REDACTED: &str = "[REDACTED]";

/// The secret flags of a tool and the secret values seen in this call.
#[derive(Debug, Clone, Default)]
pub(crate) struct Redactor {
    longs: Vec<String>,
    shorts: Vec<char>,
    values: Vec<String>,
}

impl Redactor {
    /// Knows every secret flag of the tool (a name secret in any command is treated as secret
    /// everywhere: over-redacting is the safe mistake) and the values of their environment
    /// variables.
    pub(crate) fn new(registry: &Registry) -> Self {
        let mut redactor = Redactor::default();
        let params = registry
            .global_flags
            .iter()
            .chain(registry.commands.iter().flat_map(|c| &c.parameters));
        for param in params.filter(|p| p.secret) {
            if param.kind == ParamKind::Flag {
                redactor.longs.push(format!("--{}", param.name));
                redactor.shorts.extend(param.short);
            }
            if let Some(env) = &param.env
                && let Some(value) = std::env::var_os(env)
            {
                redactor.add(value.to_string_lossy().into_owned());
            }
        }
        redactor
    }

    fn add(&mut self, value: String) {
        if !value.is_empty() && !self.values.contains(&value) {
            self.values.push(value);
            // Longest first, so a secret that contains another is replaced whole.
            self.values
                .sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        }
    }

    /// A secret value found elsewhere (a configuration file), redacted like one from argv.
    pub(crate) fn add_secret(&mut self, value: &str) {
        self.add(value.to_owned());
    }

    /// Collects the values given to secret flags in argv (`--token v`, `--token=v`, `-t v`,
    /// `-tv`), up to `--`.
    pub(crate) fn scan_argv(&mut self, argv: &[OsString]) {
        let mut words = argv.iter().skip(1).map(|w| w.to_string_lossy());
        while let Some(word) = words.next() {
            if word == "--" {
                break;
            }
            match self.secret_flag(&word) {
                Some(FlagValue::Next) => {
                    if let Some(value) = words.next() {
                        self.add(value.into_owned());
                    }
                }
                Some(FlagValue::Inline(start)) => self.add(word[start..].to_owned()),
                None => {}
            }
        }
    }

    /// Collects secret values clap parsed (positionals, and flags fed by the environment).
    pub(crate) fn scan_matches<'a>(
        &mut self,
        params: impl Iterator<Item = &'a Parameter>,
        matches: &ArgMatches,
    ) {
        for param in params.filter(|p| p.secret) {
            if let Ok(Some(values)) = matches.try_get_raw(&arg_id(param)) {
                for value in values {
                    self.add(value.to_string_lossy().into_owned());
                }
            }
        }
    }

    fn secret_flag(&self, word: &str) -> Option<FlagValue> {
        if word.starts_with("--") {
            let name = word.split('=').next().unwrap_or(word);
            if self.longs.iter().any(|l| l == name) {
                return Some(if name.len() < word.len() {
                    FlagValue::Inline(name.len() + 1)
                } else {
                    FlagValue::Next
                });
            }
        } else if let Some(rest) = word.strip_prefix('-') {
            let mut chars = rest.char_indices();
            if let Some((_, short)) = chars.next()
                && self.shorts.contains(&short)
            {
                return Some(match chars.next() {
                    None => FlagValue::Next,
                    Some((i, '=')) => FlagValue::Inline(1 + i + 1),
                    Some((i, _)) => FlagValue::Inline(1 + i),
                });
            }
        }
        None
    }

    /// The text with every known secret replaced.
    pub(crate) fn text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for value in &self.values {
            if out.contains(value.as_str()) {
                out = out.replace(value.as_str(), REDACTED);
            }
        }
        out
    }

    fn in_place(&self, text: &mut String) {
        if self.values.iter().any(|v| text.contains(v.as_str())) {
            *text = self.text(text);
        }
    }

    pub(crate) fn json(&self, value: &mut Value) {
        match value {
            Value::String(text) => self.in_place(text),
            Value::Array(items) => items.iter_mut().for_each(|v| self.json(v)),
            Value::Object(map) => map.values_mut().for_each(|v| self.json(v)),
            _ => {}
        }
    }

    /// Scrubs an error's message, suggestion and details.
    pub(crate) fn error(&self, error: &mut Error) {
        if self.values.is_empty() {
            return;
        }
        let (message, suggestion, details) = error.texts_mut();
        self.in_place(message);
        if let Some(suggestion) = suggestion {
            self.in_place(suggestion);
        }
        if let Some(details) = details {
            self.json(details);
        }
    }

    /// argv for logs: secret flag values replaced in place, and any secret value elsewhere.
    pub(crate) fn argv(&self, argv: &[OsString]) -> Vec<String> {
        let mut out = Vec::with_capacity(argv.len());
        let mut hide_next = false;
        let mut options_ended = false;
        for word in argv.iter().map(|w| w.to_string_lossy()) {
            if hide_next {
                out.push(REDACTED.to_owned());
                hide_next = false;
                continue;
            }
            if !options_ended {
                if word == "--" {
                    options_ended = true;
                }
                match self.secret_flag(&word) {
                    Some(FlagValue::Next) => hide_next = true,
                    Some(FlagValue::Inline(start)) => {
                        out.push(format!("{}{REDACTED}", &word[..start]));
                        continue;
                    }
                    None => {}
                }
            }
            out.push(self.text(&word));
        }
        out
    }
}

enum FlagValue {
    /// The value is the next word.
    Next,
    /// The value starts at this byte offset of the same word.
    Inline(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor() -> Redactor {
        Redactor {
            longs: vec!["--token".into()],
            shorts: vec!['t'],
            values: Vec::new(),
        }
    }

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn every_spelling_of_a_secret_flag_is_redacted() {
        let argv = os(&[
            "tool",
            "--token",
            "abc",
            "--token=def",
            "-t",
            "ghi",
            "-tjkl",
            "x",
        ]);
        let mut r = redactor();
        r.scan_argv(&argv);
        assert_eq!(
            r.argv(&argv),
            [
                "tool",
                "--token",
                REDACTED,
                "--token=[REDACTED]",
                "-t",
                REDACTED,
                "-t[REDACTED]",
                "x"
            ]
        );
        assert_eq!(
            r.text("url?token=abc&b=def"),
            "url?token=[REDACTED]&b=[REDACTED]"
        );
    }

    #[test]
    fn errors_are_scrubbed_everywhere() {
        let mut r = redactor();
        r.scan_argv(&os(&["tool", "--token", "s3cr3t"]));
        let mut e = Error::general("bad s3cr3t")
            .with_suggestion("drop s3cr3t")
            .with_details(serde_json::json!({"url": ["x?s3cr3t"]}));
        r.error(&mut e);
        assert_eq!(e.message(), "bad [REDACTED]");
        assert_eq!(e.suggestion(), Some("drop [REDACTED]"));
        assert_eq!(e.details().unwrap()["url"][0], "x?[REDACTED]");
    }
}

//! Secrets out of every error, log and echo of argv.
//!
//! The values of parameters marked `secret` are collected from four places: argv (after a
//! secret flag, before clap runs, so even a parse error cannot echo one), the environment
//! variables that feed secret flags, the configuration file, and clap's matches (secret
//! positionals). Every text the runtime prints about a call is then scrubbed of those values.
//! Scrubbing by value also catches a handler that copies a token into a message or a URL
//! (PAS 8.2).
//!
//! A secret flag is recognised in every spelling an agent may type: `--token v`, `--token=v`,
//! glued `--tokenv`, `-t v`, `-tv`, `-t=v`, misspelt (`--Token`, `--to_ken v`, `--tokne=v`:
//! an unknown flag whose name is the secret's, or one letter or two away), and after `--` too
//! (there it is data to the parser, but the same words are still kept out of logs: redacting
//! too much is the safe mistake).
//!
//! Redaction replaces whole tokens: a value is replaced only where it does not continue a word
//! (letters, digits, `_`) on either side, so a secret `e` never turns `invalid value` into
//! `invalid valu[REDACTED]`. A value shorter than [`MIN_SECRET_CHARS`] would still match short
//! words in unrelated messages, and its redaction marks would give it away, so such a secret is
//! refused before the call runs (`INVALID_ARGUMENT` naming the flag, variable or configuration
//! key, never the value); argv words holding it are still replaced by position in the audit log.

use std::ffi::OsString;

use clap::ArgMatches;
use pas_spec::{ParamKind, Parameter, Registry};
use serde_json::Value;

use crate::codes;
use crate::error::Error;
use crate::parse::clap_face::arg_id;

/// What replaces a secret parameter's value wherever the runtime would print it: errors,
/// suggestions, details and `--audit-log` records.
pub const REDACTED: &str = "[REDACTED]";

/// The fewest characters a secret value may have; a shorter one is refused (see the module
/// docs). Empty values are not secrets and pass.
pub const MIN_SECRET_CHARS: usize = 6;

/// Long flags the runtime adds outside the profile's flag table (root flags, the confirm and
/// per-command flags): never taken for a misspelt secret flag.
const OTHER_RUNTIME_LONGS: &[&str] = &[
    "help",
    "pas-spec",
    "print-schema",
    "validate-pas",
    "dry-run",
    "idempotency-key",
    "input-file",
];

/// Every long flag the runtime gives a tool of this profile, with its dashes: the profile's
/// table in `pas_spec::surface` (what agent help lists) and the others above.
fn runtime_longs(registry: &Registry) -> impl Iterator<Item = String> {
    let surface = pas_spec::surface::of(registry.profile);
    surface
        .flags
        .iter()
        .map(|flag| flag.long)
        .chain(OTHER_RUNTIME_LONGS.iter().copied())
        .chain([surface.confirm_flag])
        .chain(surface.list_format_flag.then_some("format"))
        .map(|long| format!("--{long}"))
}

/// The secret flags of a tool and the secret values seen in this call.
#[derive(Debug, Clone, Default)]
pub(crate) struct Redactor {
    /// Secret long flags, as `--name`.
    longs: Vec<String>,
    shorts: Vec<char>,
    /// Every long flag of the tool (secret or not) and the runtime's: a word naming one exactly
    /// is that flag, never a misspelt secret one.
    known_longs: Vec<String>,
    values: Vec<String>,
    /// Where a secret too short to redact safely came from (`--token`, `$TOKEN`, ...).
    too_short: Option<String>,
    /// Whether high-entropy tokens are masked too (failure mode 59, `entropy`: the tool
    /// declares it, the caller did not say `--unmask`).
    mask_tokens: bool,
    /// The call's own argument words (long enough to hold a token): never masked in output.
    arguments: Vec<String>,
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
        for param in params.clone() {
            if !param.secret {
                continue;
            }
            if param.kind == ParamKind::Flag {
                redactor.longs.push(format!("--{}", param.name));
                redactor.shorts.extend(param.short);
            }
            if let Some(env) = &param.env
                && let Some(value) = std::env::var_os(env)
            {
                redactor.add(value.to_string_lossy().into_owned(), || format!("${env}"));
            }
        }
        // The known flags only tell a misspelt secret flag from another flag: a tool without a
        // secret flag never asks (`secret_flag`), and pays nothing for them at start-up.
        if !redactor.longs.is_empty() {
            redactor.known_longs = params
                .filter(|param| param.kind == ParamKind::Flag)
                .map(|param| format!("--{}", param.name))
                .chain(runtime_longs(registry))
                .collect();
        }
        redactor
    }

    /// Masks high-entropy tokens as well: `on` when the tool declares it (`maskHighEntropy`),
    /// unless the caller said `--unmask` or `PAS_UNMASK=1`.
    pub(crate) fn set_masking(&mut self, on: bool) {
        self.mask_tokens = on && crate::guards::entropy::masking();
    }

    /// Adds a secret value; one too short to redact is remembered as a refusal instead.
    fn add(&mut self, value: String, source: impl FnOnce() -> String) {
        if value.is_empty() {
            return;
        }
        if value.chars().count() < MIN_SECRET_CHARS {
            self.too_short.get_or_insert_with(source);
            return;
        }
        self.add_token(value);
    }

    /// Adds a text to redact whatever its length (a whole argv word that holds a secret).
    fn add_token(&mut self, value: String) {
        if !value.is_empty() && !self.values.contains(&value) {
            self.values.push(value);
            // Longest first, so a secret that contains another is replaced whole.
            pas_spec::sorting::sort_by(&mut self.values, |a, b| {
                b.len().cmp(&a.len()).then_with(|| a.cmp(b))
            });
        }
    }

    /// A secret value found elsewhere (`source`: the configuration key that held it), redacted
    /// like one from argv.
    pub(crate) fn add_secret(&mut self, value: &str, source: &str) {
        self.add(value.to_owned(), || source.to_owned());
    }

    /// The error that refuses the call because a secret is too short to keep out of messages.
    /// It names where the secret came from, never the value.
    pub(crate) fn refusal(&self) -> Option<Error> {
        let source = self.too_short.as_ref()?;
        Some(
            Error::new(
                codes::INVALID_ARGUMENT,
                format!(
                    "the secret given in {source} is shorter than {MIN_SECRET_CHARS} characters"
                ),
            )
            .with_suggestion(format!(
                "give the whole secret in {source}: a secret shorter than {MIN_SECRET_CHARS} characters cannot be kept out of messages and logs"
            ))
            .with_details(serde_json::json!({ "source": source, "minimum": MIN_SECRET_CHARS })),
        )
    }

    /// Collects the values given to secret flags in argv, in every spelling (module docs).
    /// The word after a secret flag is its value even when it looks like a flag, and is still
    /// read as a flag too (`--password --token X`: the parser may take either view, so both
    /// `--token` and `X` are kept out).
    pub(crate) fn scan_argv(&mut self, argv: &[OsString]) {
        let words: Vec<_> = argv.iter().skip(1).map(|w| w.to_string_lossy()).collect();
        self.keep_arguments(&words);
        // The flag whose value the next word is, and whether it was spelt exactly.
        let mut pending: Option<(String, bool)> = None;
        for word in &words {
            if let Some((flag, exact)) = pending.take() {
                if exact && !word.starts_with('-') {
                    self.add(word.clone().into_owned(), || flag);
                } else {
                    // A misspelt flag is not the secret's, and a word that looks like a flag
                    // may not be a value: kept out by position, and out of messages when long
                    // enough.
                    self.add_lenient(word.clone().into_owned());
                }
            }
            let Some(found) = self.secret_flag(word) else {
                continue;
            };
            let flag = word[..found.name_end].to_owned();
            match found.value {
                FlagValue::Next => pending = Some((flag, found.exact)),
                FlagValue::Inline(start) => {
                    let value = word[start..].to_owned();
                    let long_enough = value.chars().count() >= MIN_SECRET_CHARS;
                    if (!found.exact || start == found.name_end) && long_enough {
                        // Glued or misspelt: the parser echoes the whole word as unknown.
                        self.add_token(word.clone().into_owned());
                    }
                    if found.exact {
                        self.add(value, || flag);
                    } else {
                        self.add_lenient(value);
                    }
                }
            }
        }
    }

    /// Remembers the words of argv (and the value of a `--flag=value` word): the caller's own
    /// values are never masked in output (`entropy`, `sensitive`).
    fn keep_arguments(&mut self, words: &[std::borrow::Cow<'_, str>]) {
        for word in words {
            let value = match word.strip_prefix("--").and_then(|w| w.split_once('=')) {
                Some((_, value)) => value,
                None => word.as_ref(),
            };
            if !value.is_empty() {
                self.arguments.push(value.to_owned());
            }
        }
    }

    /// The call's own argument words kept by [`Redactor::scan_argv`].
    pub(crate) fn arguments(&self) -> &[String] {
        &self.arguments
    }

    /// A value that may be a secret (after a misspelt flag): redacted when long enough.
    fn add_lenient(&mut self, value: String) {
        if value.chars().count() >= MIN_SECRET_CHARS {
            self.add_token(value);
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
                    let source = match param.kind {
                        ParamKind::Flag => format!("--{}", param.name),
                        _ => format!("<{}>", param.name),
                    };
                    self.add(value.to_string_lossy().into_owned(), || source);
                }
            }
        }
    }

    /// Whether `word` is a spelling of a secret flag, and where its value is.
    fn secret_flag(&self, word: &str) -> Option<Found> {
        if let Some(body) = word.strip_prefix("--") {
            let name_end = word.find('=').unwrap_or(word.len());
            let name = &word[..name_end];
            if body.is_empty() || self.longs.is_empty() {
                return None;
            }
            if self.longs.iter().any(|l| l == name) {
                return Some(Found::exact(name_end, word.len()));
            }
            if self.known_longs.iter().any(|l| l == name) {
                return None;
            }
            for long in &self.longs {
                if let Some(found) = misspelt(word, long) {
                    return Some(found);
                }
            }
        } else if let Some(rest) = word.strip_prefix('-') {
            let mut chars = rest.char_indices();
            if let Some((_, short)) = chars.next()
                && self.shorts.contains(&short)
            {
                let name_end = 1 + short.len_utf8();
                return Some(Found {
                    name_end,
                    exact: true,
                    value: match chars.next() {
                        None => FlagValue::Next,
                        Some((i, '=')) => FlagValue::Inline(1 + i + 1),
                        Some((i, _)) => FlagValue::Inline(1 + i),
                    },
                });
            }
        }
        None
    }

    /// The text with every known secret replaced where it stands as a whole token.
    pub(crate) fn text(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for value in &self.values {
            if let Some(replaced) = replace_tokens(&out, value) {
                out = replaced;
            }
        }
        if self.mask_tokens
            && let Some(masked) = crate::guards::entropy::mask_text(&out, &self.arguments)
        {
            out = masked;
        }
        out
    }

    fn in_place(&self, text: &mut String) {
        if self.values.iter().any(|v| text.contains(v.as_str())) {
            *text = self.text(text);
        } else if self.mask_tokens
            && let Some(masked) = crate::guards::entropy::mask_text(text, &self.arguments)
        {
            *text = masked;
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

    /// Whether any secret value is known or tokens are masked (else scrubbing has nothing to do).
    pub(crate) fn has_values(&self) -> bool {
        !self.values.is_empty() || self.mask_tokens
    }

    /// Whether a secret value occurs in `bytes`. The test for none known stays with the
    /// caller: the search's set-up would cost every stream item, secrets or not.
    #[inline]
    fn holds_value(&self, bytes: &[u8]) -> bool {
        !self.values.is_empty() && self.finds_value(bytes)
    }

    #[inline(never)]
    fn finds_value(&self, bytes: &[u8]) -> bool {
        self.values
            .iter()
            .any(|v| !v.is_empty() && memchr::memmem::find(bytes, v.as_bytes()).is_some())
    }

    /// The same secret values without token masking: for the frames of a protocol (`TOOL
    /// mcp`), where ids, hashes and tokens are the protocol's own and only secrets go.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn values_only(&self) -> Redactor {
        let mut redactor = self.clone();
        redactor.mask_tokens = false;
        redactor
    }

    /// Whether [`Redactor::output`] may change `bytes`: a secret value occurs in them, or
    /// (masking) a run of characters long enough to be a token. `false` for almost all output,
    /// from one look at the bytes; and `false` for many whole lines means `false` for each.
    #[inline]
    pub(crate) fn may_change(&self, bytes: &[u8]) -> bool {
        self.holds_value(bytes)
            || (self.mask_tokens && crate::guards::entropy::may_hold_token(bytes))
    }

    /// Successful output scrubbed of secrets (failure mode 59): `bytes` (compact JSON when
    /// `json`, else text) with every secret value replaced, or `None` when none occurs in
    /// them. JSON is parsed and rewritten, so a replacement never breaks a string's escaping.
    pub(crate) fn output(&self, bytes: &[u8], json: bool) -> Option<Vec<u8>> {
        let found = self.holds_value(bytes);
        // A high-entropy token (failure mode 59): one pass over the bytes before any parsing.
        let token = self.mask_tokens && crate::guards::entropy::may_hold_token(bytes);
        if !found && !token {
            return None;
        }
        if json && let Ok(mut value) = serde_json::from_slice::<Value>(bytes) {
            if found {
                self.json(&mut value);
            } else if !crate::guards::entropy::mask_json(&mut value, &self.arguments) {
                return None;
            }
            return serde_json::to_vec(&value).ok();
        }
        let text = String::from_utf8_lossy(bytes);
        let clean = self.text(&text);
        (found || clean != text).then(|| clean.into_bytes())
    }

    /// Scrubs an error's message, suggestion and details.
    pub(crate) fn error(&self, error: &mut Error) {
        if self.values.is_empty() && !self.mask_tokens {
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

    /// argv for logs: the values of secret flags (in any spelling, before or after `--`)
    /// replaced by position, and any secret value elsewhere replaced as a token.
    pub(crate) fn argv(&self, argv: &[OsString]) -> Vec<String> {
        let mut out = Vec::with_capacity(argv.len());
        let mut hide_next = false;
        for (index, word) in argv.iter().map(|w| w.to_string_lossy()).enumerate() {
            // A secret flag's value, even one that is itself a secret flag (see `scan_argv`).
            let hidden = std::mem::take(&mut hide_next);
            let found = match index {
                0 => None,
                _ => self.secret_flag(&word).map(|f| f.value),
            };
            match found {
                Some(FlagValue::Next) => hide_next = true,
                Some(FlagValue::Inline(start)) if !hidden => {
                    out.push(format!("{}{REDACTED}", &word[..start]));
                    continue;
                }
                _ => {}
            }
            if hidden {
                out.push(REDACTED.to_owned());
            } else {
                out.push(self.text(&word));
            }
        }
        out
    }
}

/// A spelling of a secret flag found in a word.
struct Found {
    /// The byte offset where the flag's name ends (`=` or the value, or the word's end).
    name_end: usize,
    /// The flag exactly (`--token`, `-t`), not a misspelling of it.
    exact: bool,
    value: FlagValue,
}

impl Found {
    fn exact(name_end: usize, len: usize) -> Found {
        Found {
            name_end,
            exact: true,
            value: if name_end < len {
                FlagValue::Inline(name_end + 1)
            } else {
                FlagValue::Next
            },
        }
    }
}

enum FlagValue {
    /// The value is the next word.
    Next,
    /// The value starts at this byte offset of the same word.
    Inline(usize),
}

/// A flag's name folded for comparison: lower case, without `-` and `_`.
fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `word` (starting `--`, not a known flag) is `long` misspelt: its name folds to the
/// same letters (`--API_KEY`, `--apikey`, glued `--api-keyVALUE`), or is one or two letters away
/// (`--api-kye`, as clap's "did you mean" would suggest).
fn misspelt(word: &str, long: &str) -> Option<Found> {
    let target = fold(long);
    // The shortest prefix of the word that folds to the secret's name: glued if more follows.
    let mut folded = String::new();
    for (index, c) in word.char_indices().skip(2) {
        if c == '=' {
            break;
        }
        if c != '-' && c != '_' {
            folded.extend(c.to_lowercase());
        }
        if folded == target {
            let end = index + c.len_utf8();
            let value = match word[end..].chars().next() {
                None => FlagValue::Next,
                Some('=') => FlagValue::Inline(end + 1),
                Some(_) => FlagValue::Inline(end),
            };
            return Some(Found {
                name_end: end,
                exact: false,
                value,
            });
        }
        if !target.starts_with(folded.as_str()) {
            break;
        }
    }
    let name_end = word.find('=').unwrap_or(word.len());
    let name = fold(&word[..name_end]);
    let allowed = match target.chars().count() {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    };
    if allowed > 0 && strsim::damerau_levenshtein(&name, &target) <= allowed {
        return Some(Found {
            name_end,
            exact: false,
            value: if name_end < word.len() {
                FlagValue::Inline(name_end + 1)
            } else {
                FlagValue::Next
            },
        });
    }
    None
}

/// A character that continues a word: a secret is not replaced inside a longer word.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` with each occurrence of `secret` that stands as a whole token replaced, or `None`
/// when there is none. An edge of the secret that is not a word character needs no boundary
/// (`token=s3cr3t&` and `'s3cr3t'` both match).
fn replace_tokens(text: &str, secret: &str) -> Option<String> {
    let first_is_word = secret.chars().next().is_some_and(is_word);
    let last_is_word = secret.chars().next_back().is_some_and(is_word);
    let mut out = String::new();
    let (mut copied, mut from) = (0, 0);
    while let Some(found) = text[from..].find(secret) {
        let start = from + found;
        let end = start + secret.len();
        let clear_before =
            !first_is_word || !text[..start].chars().next_back().is_some_and(is_word);
        let clear_after = !last_is_word || !text[end..].chars().next().is_some_and(is_word);
        if clear_before && clear_after {
            out.push_str(&text[copied..start]);
            out.push_str(REDACTED);
            copied = end;
            from = end;
        } else {
            // The next occurrence may overlap this one: search from the next character.
            from = start + text[start..].chars().next().map_or(1, char::len_utf8);
        }
    }
    if copied == 0 && out.is_empty() {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor() -> Redactor {
        Redactor {
            longs: vec!["--token".into(), "--api-key".into()],
            shorts: vec!['t'],
            known_longs: vec!["--token".into(), "--api-key".into(), "--tokens".into()],
            values: Vec::new(),
            too_short: None,
            mask_tokens: false,
            arguments: Vec::new(),
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
            "abcabc",
            "--token=defdef",
            "-t",
            "ghighi",
            "-tjkljkl",
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
            r.text("url?token=abcabc&b=defdef"),
            "url?token=[REDACTED]&b=[REDACTED]"
        );
        assert!(r.refusal().is_none());
    }

    /// A flag of the runtime's own table (here `--cwd`, one letter from the secret `--cwds`)
    /// is that flag, not a misspelt secret: its value is left alone.
    #[test]
    fn the_runtimes_own_flags_are_never_misspelt_secrets() {
        let registry: Registry = serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "A test tool.",
            "commands": [{
                "name": "get", "description": "Gets one.",
                "parameters": [{"name": "cwds", "type": "string", "secret": true, "description": "A secret."}],
                "output": "object"
            }]
        }))
        .expect("the test registry");
        let mut r = Redactor::new(&registry);
        let argv = os(&["t", "get", "--cwd", "/tmp/work", "--cwdz", "hunter22"]);
        r.scan_argv(&argv);
        assert_eq!(
            r.argv(&argv),
            ["t", "get", "--cwd", "/tmp/work", "--cwdz", REDACTED]
        );
    }

    /// The known flags only tell a misspelt secret flag from another one: a tool without a
    /// secret flag does not collect them at start-up.
    #[test]
    fn a_tool_without_secret_flags_collects_no_known_flags() {
        let registry: Registry = serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "A test tool.",
            "commands": [{
                "name": "get", "description": "Gets one.",
                "parameters": [{"name": "cwds", "type": "string", "description": "Not secret."}],
                "output": "object"
            }]
        }))
        .expect("the test registry");
        let mut r = Redactor::new(&registry);
        assert!(r.known_longs.is_empty() && r.longs.is_empty());
        let argv = os(&["t", "get", "--cwdz", "hunter22"]);
        r.scan_argv(&argv);
        assert_eq!(r.argv(&argv), ["t", "get", "--cwdz", "hunter22"]);
    }

    #[test]
    fn glued_misspelt_and_after_double_dash() {
        let argv = os(&[
            "tool",
            "--api-keyCANARY1",
            "--api_key=CANARY2",
            "--apikey",
            "CANARY3",
            "--API-KEY",
            "CANARY4",
            "--api-kye=CANARY5",
            "--tokens",
            "visible",
            "--",
            "--token",
            "CANARY6",
        ]);
        let mut r = redactor();
        r.scan_argv(&argv);
        let logged = r.argv(&argv).join(" ");
        for n in 1..=6 {
            assert!(!logged.contains(&format!("CANARY{n}")), "{logged}");
        }
        assert!(logged.contains("--tokens visible"), "{logged}");
        assert_eq!(
            r.text("unexpected argument '--api-keyCANARY1' found"),
            "unexpected argument '[REDACTED]' found"
        );
        assert_eq!(
            r.text("value CANARY3 and CANARY6"),
            "value [REDACTED] and [REDACTED]"
        );
    }

    #[test]
    fn a_secret_flag_after_a_secret_flag_keeps_both_out() {
        // Found by pas-testbins/tests/runtime_fuzz.rs: `--password --token CANARY` logged the canary.
        let argv = os(&["tool", "--token", "--api-key", "CANARY00", "x"]);
        let mut r = redactor();
        r.scan_argv(&argv);
        assert_eq!(r.argv(&argv), ["tool", "--token", REDACTED, REDACTED, "x"]);
        assert_eq!(r.text("no CANARY00"), "no [REDACTED]");
        assert!(r.refusal().is_none());
    }

    #[test]
    fn whole_tokens_only() {
        let mut r = redactor();
        r.scan_argv(&os(&["tool", "--token", "valu3s"]));
        assert_eq!(r.text("invalid valu3s"), "invalid [REDACTED]");
        assert_eq!(r.text("invalid valu3sx xvalu3s"), "invalid valu3sx xvalu3s");
        assert_eq!(r.text("'valu3s',valu3s"), "'[REDACTED]',[REDACTED]");
        assert_eq!(
            replace_tokens("aaaaaa-aaaaaa", "aaaaaa"),
            Some("[REDACTED]-[REDACTED]".into())
        );
        assert_eq!(
            replace_tokens("xaaaaaa aaaaaa", "aaaaaa"),
            Some("xaaaaaa [REDACTED]".into())
        );
    }

    #[test]
    fn a_short_secret_is_refused_without_its_value() {
        for argv in [
            &["tool", "--token", "e"][..],
            &["tool", "--token=ab"],
            &["tool", "-te"],
        ] {
            let mut r = redactor();
            r.scan_argv(&os(argv));
            let error = r.refusal().expect("refused");
            assert_eq!(error.code(), codes::INVALID_ARGUMENT);
            assert!(error.message().contains("--token") || error.message().contains("-t"));
            // Nothing is redacted by value, so nothing garbles.
            assert_eq!(r.text("invalid value e"), "invalid value e");
            let logged = r.argv(&os(argv)).join(" ");
            assert!(!logged.contains(" e") && !logged.contains("ab"), "{logged}");
        }
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

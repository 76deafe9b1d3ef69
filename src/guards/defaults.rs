//! The runtime's defaults per mode (issue 27, "exact by default"): what a call gets when its
//! command declares nothing and its caller asks for nothing, in a person's mode and in each
//! machine mode (`--agent`, the compose and robot profiles, a `tools/call` over `TOOL mcp`).
//!
//! Machine mode changes the form of a call, never its meaning: every default here is the same
//! in every mode, or differs in form only (encoding, streams, colour, where a bounded result is
//! delivered), and each says in which words the faces document it. The values come from the
//! functions the code paths use (`deadline::combine`, `output_limit::combine`, the stdin wait
//! and input cap constants, ...), so the list cannot drift from what a call does; the test
//! (`tests/defaults_per_mode.rs`) snapshots it, checks that every difference is one of form,
//! and that every entry's words appear in the agent help or `.llm` of an example.
//!
//! The runtime never prompts, in any mode (listed, as "none"), and has no pager to list.

use serde::Serialize;

/// A mode a call runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person's call of a `pas`-profile tool (no `--agent`, no `PAS_AGENT`).
    Human,
    /// The same call with `--agent` (or `PAS_AGENT=1`).
    Agent,
    /// A compose-profile tool's call (every call is machine output; `--agent` is a no-op).
    Compose,
    /// A robot-profile tool's call (every call is one envelope).
    Robot,
    /// A `tools/call` over `TOOL mcp`.
    Mcp,
}

impl Mode {
    /// Every mode, a person's first.
    pub const ALL: [Mode; 5] = [
        Mode::Human,
        Mode::Agent,
        Mode::Compose,
        Mode::Robot,
        Mode::Mcp,
    ];

    /// Whether the mode is machine mode (every mode but a person's).
    pub fn machine(self) -> bool {
        self != Mode::Human
    }
}

/// How a default differs between a person's mode and the machine modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Difference {
    /// The same in every mode.
    None,
    /// Different in form only: the same data reaches the caller.
    Form,
}

/// One default of the runtime, in every mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModeDefault {
    /// What the default is about.
    pub name: &'static str,
    /// Its value in each mode, in [`Mode::ALL`]'s order.
    pub values: Vec<(Mode, String)>,
    /// How it differs between modes.
    pub difference: Difference,
    /// Why a difference keeps the data (empty when there is none).
    pub why_form: &'static str,
    /// Words the faces (agent help or `.llm`) document it with.
    pub face: String,
}

impl ModeDefault {
    fn new(
        name: &'static str,
        value: impl Fn(Mode) -> String,
        why_form: &'static str,
        face: impl Into<String>,
    ) -> ModeDefault {
        let values: Vec<(Mode, String)> = Mode::ALL.iter().map(|m| (*m, value(*m))).collect();
        let same = values.iter().all(|(_, v)| *v == values[0].1);
        ModeDefault {
            name,
            values,
            difference: if same {
                Difference::None
            } else {
                Difference::Form
            },
            why_form: if same { "" } else { why_form },
            face: face.into(),
        }
    }

    /// The value in `mode`.
    pub fn value(&self, mode: Mode) -> &str {
        self.values
            .iter()
            .find(|(m, _)| *m == mode)
            .map(|(_, v)| v.as_str())
            .unwrap_or_default()
    }
}

fn or_none<T>(value: Option<T>, show: impl Fn(T) -> String) -> String {
    value.map(show).unwrap_or_else(|| "none".to_owned())
}

/// The runtime's defaults, one entry each, in every mode.
pub fn per_mode() -> Vec<ModeDefault> {
    let wait_s = crate::guards::input::DEFAULT_STDIN_WAIT_MS / 1000;
    let input_mib = crate::guards::input::DEFAULT_LIMIT / (1024 * 1024);
    vec![
        ModeDefault::new(
            "time limit",
            |_| {
                or_none(crate::guards::deadline::combine(None, None), |d| {
                    format!("{} ms", d.as_millis())
                })
            },
            "",
            "a call has no time limit unless its command declares one",
        ),
        ModeDefault::new(
            "output bound",
            |mode| {
                or_none(
                    crate::guards::output_limit::combine(None, None, mode.machine()),
                    |b| format!("{b} bytes"),
                )
            },
            "",
            "Nothing is shortened.",
        ),
        ModeDefault::new(
            "a command's declared maxOutputBytes",
            |mode| match crate::guards::output_limit::combine(Some(1), None, mode.machine()) {
                Some(_) => "applies: past it, the whole result in a file and a pointer".to_owned(),
                None => "printed whole".to_owned(),
            },
            "the whole result is kept, in a file the answer points at (path, bytes, sha256)",
            "a command's declared cap applies in machine mode",
        ),
        ModeDefault::new(
            "masking",
            |_| "only what the tool declares (maskHighEntropy; x-sensitive fields)".to_owned(),
            "",
            "high-entropy strings where the tool declares it",
        ),
        ModeDefault::new(
            "stdin wait",
            |mode| match mode {
                Mode::Mcp => "none: the input is the `input` argument".to_owned(),
                _ => format!(
                    "{} ms for a silent pipe's first byte",
                    crate::guards::input::DEFAULT_STDIN_WAIT_MS
                ),
            },
            "over MCP the input is an argument, not a stream: nothing to wait for",
            format!("A pipe silent for {wait_s} s gives no input"),
        ),
        ModeDefault::new(
            "input cap",
            |_| format!("{} bytes", crate::guards::input::DEFAULT_LIMIT),
            "",
            format!("up to {input_mib} MiB (PAS_INPUT_LIMIT=BYTES)"),
        ),
        ModeDefault::new(
            "stable output",
            |_| "off (--stable-output asks for it)".to_owned(),
            "",
            "`--stable-output`",
        ),
        ModeDefault::new(
            "array order",
            |_| "kept (sorted only under --stable-output for a declared set)".to_owned(),
            "",
            "arrays keep their order unless the outputSchema declares them a set",
        ),
        ModeDefault::new(
            "colour",
            |mode| match mode {
                Mode::Human => "at a terminal".to_owned(),
                _ => "never".to_owned(),
            },
            "colour is form: the same text without escape codes",
            "no colour",
        ),
        ModeDefault::new(
            "prompts",
            |_| "none (a destructive command needs its confirmation flag)".to_owned(),
            "",
            "no prompt",
        ),
        ModeDefault::new(
            "encoding",
            |mode| match mode {
                Mode::Human => "text for people".to_owned(),
                Mode::Agent => "one JSON object, NDJSON for lists".to_owned(),
                Mode::Compose => "one {ok,data,meta} envelope".to_owned(),
                Mode::Robot => "one versioned envelope".to_owned(),
                Mode::Mcp => "structuredContent (and the same JSON as text)".to_owned(),
            },
            "the same data, encoded for the reader",
            "one JSON object on stdout, NDJSON for lists",
        ),
    ]
}

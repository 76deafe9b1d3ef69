//! The other test tools of `pas-testbins`, started with the runtime's variables cleared, and
//! what their faces answer.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// The runtime's variables a test must not inherit from the shell that runs it: each one
/// changes what a call prints.
const RUNTIME_VARIABLES: &[&str] = &[
    "PAS_AGENT",
    "PAS_TIMEOUT",
    "PAS_OUTPUT_LIMIT",
    "PAS_ATTEMPT",
    "PAS_META",
    "PAS_LOCK_WAIT",
    "PAS_UNMASK",
    "PAS_NO_INJECTION_CHECK",
];

fn cleared(mut cmd: Command) -> Command {
    for name in RUNTIME_VARIABLES {
        cmd.env_remove(name);
    }
    cmd.stdin(Stdio::null());
    cmd
}

/// A spec under the repository's `tests/fixtures/valid/`.
pub fn valid_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/valid")
        .join(name)
}

/// `pas-spec-cli` serving `spec`, its handler answering `reply`.
pub fn spec_cli(spec: impl AsRef<OsStr>, reply: &str, args: &[&str]) -> Command {
    let mut cmd = cleared(Command::new(env!("CARGO_BIN_EXE_pas-spec-cli")));
    cmd.args(args)
        .env("PAS_SPEC_CLI_SPEC", spec)
        .env("PAS_SPEC_CLI_REPLY", reply)
        .env_remove("PAS_SPEC_CLI_FAIL");
    cmd
}

/// `pas-declared-derive`: `tests/fixtures/valid/declared.yaml` through `include_spec!`, with
/// the echo handlers of [`spec_cli`] (`reply`, or `PAS_SPEC_CLI_FAIL`).
pub fn declared_derive(reply: &str, args: &[&str]) -> Command {
    let mut cmd = cleared(Command::new(env!("CARGO_BIN_EXE_pas-declared-derive")));
    cmd.args(args)
        .env("PAS_SPEC_CLI_REPLY", reply)
        .env_remove("PAS_SPEC_CLI_FAIL");
    cmd
}

/// `pas-limits-demo` built from its spec (the derive when `LIMITS_DEMO_DERIVE` is set).
pub fn limits_demo(args: &[&str]) -> Command {
    let mut cmd = cleared(Command::new(env!("CARGO_BIN_EXE_pas-limits-demo")));
    cmd.args(args).env_remove("LIMITS_DEMO_DERIVE");
    cmd
}

/// A copy of the spec at `spec`, written in `dir`, with `from` replaced by `to` (a profile
/// line, most often).
pub fn respelled(spec: &str, from: &str, to: &str, dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(spec).expect("the spec reads");
    assert!(text.contains(from), "{spec} holds {from:?}");
    let path = dir.join(Path::new(spec).file_name().expect("a file name"));
    std::fs::write(&path, text.replace(from, to)).expect("the copy is written");
    path
}

/// The entry of a JSON array (a catalog's `tools`, a spec's `commands`) whose `name` is `name`.
pub fn named<'a>(list: &'a Value, name: &str) -> &'a Value {
    list.as_array()
        .unwrap_or_else(|| panic!("an array: {list}"))
        .iter()
        .find(|entry| entry["name"] == name)
        .unwrap_or_else(|| panic!("an entry named {name:?} in {list}"))
}

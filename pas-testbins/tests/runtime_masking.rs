//! Masking that is declared, consistent and reversible (CLI Agent Spec 59; issue 27, item 2).
//! A tool masks nothing it does not declare: keys, signatures and data: URIs are data. The
//! fields an outputSchema marks `"x-sensitive": true` or `"format": "password"` are masked in
//! every mode; a tool that declares `maskHighEntropy` has high-entropy strings summarised too.
//! Each mask says how to get the raw value (`--unmask`, `PAS_UNMASK=1`), and a value the caller
//! gave in its own arguments comes back as given. Driven through `pas-spec-cli` with an echo
//! handler (`tests/fixtures/valid/masking.yaml`, `masking-entropy.yaml`).

mod runtime_support;

use std::process::Output;

use runtime_support::{spec_cli, valid_fixture};
use serde_json::{Value, json};

const JWT: &str = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzEyMyIsImlhdCI6MTcxMDAwMDAwMCwiZXhwIjoxNzEwMDAzNjAwfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const SSH_KEY: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb2Gq3vQh6m5Gq0r8WfKXJ3j1yPpZ8kS2Lw7N4dT5eF user@host";
const SIGNATURE: &str = "MEUCIQDx3v7Hkq9N2bL5yR8wT1pZc4mJ6sK0aV3uF7eG9hI2jAIgQ5rW8tY1uI4oP7aS0dF3gH6jK9lZ2xC5vB8nM1qE4wR=";
const DATA_URI: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const AWS_DOCS_KEY: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const MASK: &str = "[sensitive; raw with --unmask]";

fn run(spec: &str, reply: &Value, args: &[&str]) -> Output {
    spec_cli(valid_fixture(spec), &reply.to_string(), args)
        .output()
        .unwrap()
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|err| panic!("one JSON value ({err}): {}", String::from_utf8_lossy(bytes)))
}

fn data(out: &Output) -> Value {
    assert!(out.status.success(), "{out:?}");
    json_of(&out.stdout)
}

fn blob() -> Value {
    json!({"id": "b1", "ssh": SSH_KEY, "sig": SIGNATURE, "uri": DATA_URI, "aws": AWS_DOCS_KEY, "jwt": JWT})
}

#[test]
fn a_tool_that_declares_no_masking_returns_keys_signatures_and_uris_as_they_are() {
    let out = run("masking.yaml", &blob(), &["--agent", "blob", "get", "b1"]);
    assert_eq!(data(&out), blob());
    assert!(out.stderr.is_empty(), "{out:?}");
    // People get the same values.
    let out = run("masking.yaml", &blob(), &["blob", "get", "b1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for value in [SSH_KEY, SIGNATURE, DATA_URI, AWS_DOCS_KEY, JWT] {
        assert!(text.contains(value), "{text}");
    }
}

#[test]
fn fields_the_schema_marks_are_masked_in_every_mode_and_unmask_returns_them() {
    let account = json!({"id": "a1", "password": "hunter2hunter2", "token": JWT, "note": SSH_KEY});
    let masked = json!({"id": "a1", "password": MASK, "token": MASK, "note": SSH_KEY});
    assert_eq!(
        data(&run(
            "masking.yaml",
            &account,
            &["--agent", "account", "get", "a1"]
        )),
        masked
    );
    // The same data for a person asking for JSON (the same value, the same treatment).
    assert_eq!(
        data(&run(
            "masking.yaml",
            &account,
            &["--agent", "account", "get", "a1", "--stable-output"]
        )),
        masked
    );
    let raw = run(
        "masking.yaml",
        &account,
        &["--agent", "account", "get", "a1", "--unmask"],
    );
    assert_eq!(data(&raw), account);
    let raw = spec_cli(
        valid_fixture("masking.yaml"),
        &account.to_string(),
        &["--agent", "account", "get", "a1"],
    )
    .env("PAS_UNMASK", "1")
    .output()
    .unwrap();
    assert_eq!(data(&raw), account);
}

#[test]
fn every_item_of_a_list_is_masked_where_its_schema_marks() {
    let items = json!([{"id": "a1", "token": "t0ken-value"}, {"id": "a1", "token": null}]);
    let out = run("masking.yaml", &items, &["--agent", "account", "list"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let items: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        items,
        [
            json!({"id": "a1", "token": MASK}),
            json!({"id": "a1", "token": null})
        ],
        "{text}"
    );
}

#[test]
fn the_callers_own_argument_is_never_masked() {
    let account = json!({"id": "a1", "password": "the-callers-own-pw", "token": JWT});
    let out = run(
        "masking.yaml",
        &account,
        &[
            "--agent",
            "account",
            "get",
            "a1",
            "--password",
            "the-callers-own-pw",
        ],
    );
    let got = data(&out);
    assert_eq!(got["password"], "the-callers-own-pw");
    assert_eq!(got["token"], MASK);
    // High-entropy masking leaves the caller's own values too.
    let out = run(
        "masking-entropy.yaml",
        &json!({"id": JWT, "other": SIGNATURE}),
        &["--agent", "blob", "get", JWT],
    );
    let got = data(&out);
    assert_eq!(got["id"], JWT);
    assert_ne!(got["other"], SIGNATURE);
}

#[test]
fn declared_high_entropy_masking_summarises_and_says_how_to_get_the_raw_value() {
    let out = run(
        "masking-entropy.yaml",
        &blob(),
        &["--agent", "blob", "get", "b1"],
    );
    let got = data(&out);
    assert_eq!(
        got["jwt"],
        "[JWT sub=user_123 exp=2024-03-09T17:00:00Z; raw with --unmask]"
    );
    assert_eq!(got["id"], "b1");
    // The same value always gets the same treatment: a second call masks the same way.
    let again = data(&run(
        "masking-entropy.yaml",
        &blob(),
        &["blob", "get", "b1", "--agent"],
    ));
    assert_eq!(got, again);
    // --unmask: everything raw.
    let raw = data(&run(
        "masking-entropy.yaml",
        &blob(),
        &["--agent", "blob", "get", "b1", "--unmask"],
    ));
    assert_eq!(raw, blob());
}

#[test]
fn every_face_names_what_a_tool_masks_and_unmask() {
    let faces = |spec: &str, args: &[&str]| -> String {
        let out = spec_cli(valid_fixture(spec), "{}", args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let help = faces("masking.yaml", &["--agent", "account", "get", "--help"]);
    assert!(
        help.contains("Masks the sensitive fields password, token") && help.contains("--unmask"),
        "{help}"
    );
    let llm = faces("masking.yaml", &["docs"]);
    assert!(
        llm.contains("password, token") && llm.contains("--unmask"),
        "{llm}"
    );
    let catalog: Value =
        serde_json::from_str(&faces("masking.yaml", &["--agent", "tools"])).unwrap();
    let tools = catalog["tools"].as_array().unwrap();
    let get = tools.iter().find(|t| t["name"] == "account.get").unwrap();
    assert!(get["masks"].as_str().unwrap().contains("--unmask"), "{get}");
    let blob = tools.iter().find(|t| t["name"] == "blob.get").unwrap();
    assert_eq!(blob.get("masks"), None, "{blob}");
    let skill = faces("masking-entropy.yaml", &["docs", "--skill"]);
    assert!(
        skill.contains("high-entropy strings") && skill.contains("--unmask"),
        "{skill}"
    );
    // A tool that masks nothing does not claim to.
    let words = faces("word-counter.yaml", &["--builtin", "docs", "--skill"]);
    assert!(!words.contains("It masks"), "{words}");
}

/// Over MCP the same fields are masked in the result, and `tools/list` names the mask and
/// `--unmask` in the tool's `_meta`.
#[test]
fn mcp_results_mask_the_same_fields_and_the_tool_list_says_so() {
    use std::io::{BufRead, BufReader, Write};
    let account = json!({"id": "a1", "password": "hunter2hunter2", "token": JWT, "note": SSH_KEY});
    let mut child = spec_cli(
        valid_fixture("masking.yaml"),
        &account.to_string(),
        &["mcp"],
    )
    .stdin(std::process::Stdio::piped())
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let requests = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "account_get", "arguments": {"id": "a1"}}}),
    ];
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut answer = |id: i64| -> Value {
        loop {
            let line = lines.next().expect("the server answers").unwrap();
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    };
    for request in &requests[..3] {
        writeln!(stdin, "{request}").unwrap();
    }
    answer(0);
    let list = answer(1);
    let tools = list["result"]["tools"].as_array().unwrap();
    let get = tools.iter().find(|t| t["name"] == "account_get").unwrap();
    let note = get["_meta"]["pas-kit/masks"].as_str().unwrap();
    assert!(
        note.contains("password, token") && note.contains("--unmask"),
        "{note}"
    );
    let blob = tools.iter().find(|t| t["name"] == "blob_get").unwrap();
    assert_eq!(blob["_meta"].get("pas-kit/masks"), None);
    writeln!(stdin, "{}", requests[3]).unwrap();
    let result = answer(2);
    assert_eq!(
        result["result"]["structuredContent"],
        json!({"id": "a1", "password": MASK, "token": MASK, "note": SSH_KEY}),
        "{result}"
    );
    drop(stdin);
    child.wait().unwrap();
}

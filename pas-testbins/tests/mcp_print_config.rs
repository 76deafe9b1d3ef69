//! `TOOL mcp --print-config CLIENT [--install]` (issue 31, item 6), as a person and an agent
//! run it: the entry each client needs, printed and nothing written; `--install` adds it to the
//! client's file keeping everything else (JSON keys in order, TOML comments), with a backup of
//! the earlier bytes, and writes nothing when the entry is already there or the file does not
//! parse; the server's own flags are refused by name; `mcp --help` lists them.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::{Value, json};

const DEMO: &str = env!("CARGO_BIN_EXE_pas-runtime-demo");

/// `DEMO args...` in `cwd`, with `CODEX_HOME` under it, no stdin.
fn demo(cwd: &Path, args: &[&str]) -> Output {
    Command::new(DEMO)
        .args(args)
        .current_dir(cwd)
        .env("CODEX_HOME", cwd.join("codex-home"))
        .env_remove("PAS_AGENT")
        .write_stdin("")
        .output()
        .unwrap()
}

fn exe() -> String {
    std::fs::canonicalize(DEMO)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(bytes)))
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn each_client_gets_its_document_printed_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let entry = |typed: bool| {
        let mut entry = json!({"command": exe(), "args": ["mcp"]});
        if typed {
            entry = json!({"type": "stdio", "command": exe(), "args": ["mcp"]});
        }
        entry
    };
    for (client, key, typed) in [
        ("claude-code", "mcpServers", true),
        ("cursor", "mcpServers", false),
        ("vscode", "servers", true),
    ] {
        let out = demo(dir.path(), &["mcp", "--print-config", client]);
        assert!(out.status.success(), "{client}: {out:?}");
        assert!(out.stderr.is_empty(), "{client}: {out:?}");
        assert_eq!(
            json_of(&out.stdout),
            json!({ key: { "demo": entry(typed) } }),
            "{client}"
        );
    }
    // Codex reads TOML: the same entry under [mcp_servers.demo].
    let out = demo(dir.path(), &["mcp", "--print-config", "codex"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    assert_eq!(
        doc["mcp_servers"]["demo"]["command"].as_str(),
        Some(&*exe())
    );
    let args = doc["mcp_servers"]["demo"]["args"].as_array().unwrap();
    assert_eq!(
        args.iter().filter_map(|a| a.as_str()).collect::<Vec<_>>(),
        ["mcp"]
    );
    // Machine mode: the same entry, with where it goes.
    let out = demo(dir.path(), &["--agent", "mcp", "--print-config", "codex"]);
    assert!(out.status.success(), "{out:?}");
    let answer = json_of(&out.stdout);
    let file = dir.path().join("codex-home/config.toml");
    assert_eq!(answer["client"], "codex");
    assert_eq!(answer["format"], "toml");
    assert_eq!(answer["file"], file.to_string_lossy().as_ref());
    assert_eq!(
        answer["config"],
        json!({"mcp_servers": {"demo": {"command": exe(), "args": ["mcp"]}}})
    );
    // `--call-timeout` goes into the entry.
    let out = demo(
        dir.path(),
        &[
            "--agent",
            "mcp",
            "--print-config",
            "vscode",
            "--call-timeout",
            "30",
        ],
    );
    assert_eq!(
        json_of(&out.stdout)["config"]["servers"]["demo"]["args"],
        json!(["mcp", "--call-timeout", "30"])
    );
    assert!(files(dir.path()).is_empty(), "{:?}", files(dir.path()));
}

#[test]
fn install_adds_the_entry_keeps_the_rest_and_backs_up_the_earlier_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".vscode/mcp.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let before = "{\n  \"inputs\": [{\"id\": \"key\", \"type\": \"promptString\"}],\n  \"servers\": {\"other\": {\"type\": \"stdio\", \"command\": \"other\"}}\n}\n";
    std::fs::write(&file, before).unwrap();
    // A file kept private stays private.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();

    let out = demo(
        dir.path(),
        &["--agent", "mcp", "--print-config", "vscode", "--install"],
    );
    assert!(out.status.success(), "{out:?}");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let answer = json_of(&out.stdout);
    assert_eq!(answer["changed"], true);
    assert_eq!(answer["replaced"], false);
    let backup = PathBuf::from(answer["backup"].as_str().unwrap());
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), before);
    let after: Value = json_of(&std::fs::read(&file).unwrap());
    // Everything else kept, in its order; the server added.
    let keys: Vec<&String> = after.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["inputs", "servers"]);
    assert_eq!(after["inputs"][0]["id"], "key");
    assert_eq!(after["servers"]["other"]["command"], "other");
    assert_eq!(
        after["servers"]["demo"],
        json!({"type": "stdio", "command": exe(), "args": ["mcp"]})
    );

    // Again: already there, nothing written, no second backup.
    let bytes = std::fs::read(&file).unwrap();
    let out = demo(
        dir.path(),
        &["--agent", "mcp", "--print-config", "vscode", "--install"],
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(json_of(&out.stdout)["changed"], false);
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
    assert_eq!(files(dir.path()).len(), 2, "{:?}", files(dir.path()));

    // A different entry (a call limit) replaces ours, with a backup of the bytes it replaces.
    let out = demo(
        dir.path(),
        &[
            "mcp",
            "--print-config",
            "vscode",
            "--install",
            "--call-timeout",
            "5",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(".vscode/mcp.json"), "{text}");
    let after: Value = json_of(&std::fs::read(&file).unwrap());
    assert_eq!(
        after["servers"]["demo"]["args"],
        json!(["mcp", "--call-timeout", "5"])
    );
    assert_eq!(files(dir.path()).len(), 3, "{:?}", files(dir.path()));
}

#[test]
fn install_creates_a_missing_file_and_keeps_toml_comments() {
    let dir = tempfile::tempdir().unwrap();
    // No file yet: created, with no backup.
    let out = demo(
        dir.path(),
        &[
            "--agent",
            "mcp",
            "--print-config",
            "claude-code",
            "--install",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let answer = json_of(&out.stdout);
    assert_eq!(answer["backup"], Value::Null);
    let created: Value = json_of(&std::fs::read(dir.path().join(".mcp.json")).unwrap());
    assert_eq!(created["mcpServers"]["demo"]["command"], exe());

    // Codex's TOML: comments, layout and other servers stay.
    let home = dir.path().join("codex-home");
    std::fs::create_dir_all(&home).unwrap();
    let before = "# my settings\nmodel = \"o4\"  # the model\n\n[mcp_servers.other]\ncommand = \"other\" # keep me\n";
    std::fs::write(home.join("config.toml"), before).unwrap();
    let out = demo(dir.path(), &["mcp", "--print-config", "codex", "--install"]);
    assert!(out.status.success(), "{out:?}");
    let after = std::fs::read_to_string(home.join("config.toml")).unwrap();
    assert!(after.starts_with(before), "{after}");
    let doc: toml_edit::DocumentMut = after.parse().unwrap();
    assert_eq!(
        doc["mcp_servers"]["demo"]["command"].as_str(),
        Some(&*exe())
    );
    assert_eq!(
        doc["mcp_servers"]["other"]["command"].as_str(),
        Some("other")
    );
}

#[test]
fn a_file_that_does_not_parse_is_an_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".cursor/mcp.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    for before in ["{ // a comment\n}", "[1, 2]", "{\"mcpServers\": 3}"] {
        std::fs::write(&file, before).unwrap();
        let out = demo(
            dir.path(),
            &["--agent", "mcp", "--print-config", "cursor", "--install"],
        );
        assert_eq!(out.status.code(), Some(2), "{before}: {out:?}");
        assert!(out.stdout.is_empty(), "{before}: {out:?}");
        let error = json_of(&out.stderr);
        assert_eq!(error["error"], "CONFIG_INVALID", "{before}: {error}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
        assert_eq!(files(dir.path()).len(), 1, "{:?}", files(dir.path()));
    }
}

#[test]
fn the_servers_flags_are_refused_by_name_and_listed_by_help() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["--agent", "mcp", "--print-config", "emacs"][..], "emacs"),
        (&["--agent", "mcp", "--install"], "--print-config"),
        (
            &[
                "--agent",
                "mcp",
                "--print-config",
                "codex",
                "--call-timeout",
                "0",
            ],
            "--call-timeout",
        ),
    ] {
        let out = demo(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        let error = json_of(&out.stderr);
        assert_eq!(error["error"], "INVALID_ARGUMENT", "{args:?}: {error}");
        assert!(
            error.to_string().contains(says),
            "{args:?} should name {says}: {error}"
        );
    }
    // A word the server does not take, where the server would start: its error on stderr.
    let out = demo(dir.path(), &["mcp", "--bogus"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--bogus"),
        "{out:?}"
    );
    // Help lists every flag of the word's row.
    let out = demo(dir.path(), &["mcp", "--help"]);
    assert!(out.status.success(), "{out:?}");
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--call-timeout",
        "--print-config",
        "--install",
        "claude-code",
    ] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    assert!(files(dir.path()).is_empty());
}

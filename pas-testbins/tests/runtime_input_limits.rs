//! Inputs read from files or stdin have a limit (issue 19): past `pas::input::limit()` (256 MiB,
//! or `PAS_INPUT_LIMIT` bytes) a read ends with a structured INVALID_ARGUMENT naming the input
//! and the limit, instead of growing until memory runs out (`< /dev/zero`, `cp /dev/zero ...`).

mod runtime_support;

use std::fs::File;
use std::process::{Command, Stdio};

use runtime_support::{demo, error_json};

#[test]
fn stdin_from_dev_zero_ends_at_the_limit() {
    for limit in [Some("1048576"), None] {
        let mut cmd = demo(&["--agent", "ingest"]);
        cmd.stdin(File::open("/dev/zero").unwrap());
        match limit {
            Some(bytes) => cmd.env("PAS_INPUT_LIMIT", bytes),
            None => cmd.env_remove("PAS_INPUT_LIMIT"),
        };
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(out.stdout.is_empty());
        let error = error_json(&out);
        assert_eq!(error["error"], "INVALID_ARGUMENT");
        let bytes = limit.unwrap_or("268435456");
        assert_eq!(
            error["message"],
            format!("stdin is larger than the input limit of {bytes} bytes")
        );
        assert_eq!(
            error["suggestion"],
            "give a smaller input, write it to a file and pass --input-file PATH, or raise the limit with PAS_INPUT_LIMIT=BYTES"
        );
    }
    // Under the limit, stdin is read whole as before.
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.txt");
    std::fs::write(&small, "a\nb\n").unwrap();
    let out = demo(&["--agent", "ingest"])
        .stdin(File::open(&small).unwrap())
        .env("PAS_INPUT_LIMIT", "4")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn cp_refuses_a_device_and_a_file_past_the_limit_before_the_handler_reads() {
    // Issue 19: `cp /dev/zero ...` grew to 2 GB in notes' handler; the runtime now refuses a
    // device, and a regular file larger than the limit, before any handler reads it.
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; 2048]).unwrap();
    let cases = [
        ("/dev/zero", "/dev/zero is a device, not a file to copy"),
        (
            big.to_str().unwrap(),
            &*format!(
                "{} is larger than the input limit of 1024 bytes",
                big.display()
            ),
        ),
    ];
    for (source, message) in cases {
        let out = docstore(&["--agent", "cp", source, "/collections/books/docs/43"])
            .env("PAS_INPUT_LIMIT", "1024")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let error = error_json(&out);
        assert_eq!(error["error"], "INVALID_ARGUMENT");
        assert_eq!(error["message"], message);
    }
}

fn docstore(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"));
    cmd.args(args)
        .env(
            "PAS_SPEC_CLI_SPEC",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../specs/docstore.yaml"),
        )
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null());
    cmd
}

#[test]
fn cp_from_an_endless_pipe_ends_at_the_limit() {
    // A pipe's size is unknown until read: the handler's bounded read (pas::input::read_file)
    // stops it at the limit.
    let out = docstore(&["--agent", "cp", "/dev/stdin", "/collections/books/docs/43"])
        .env("PAS_INPUT_LIMIT", "65536")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().unwrap();
            std::thread::spawn(move || {
                let zeros = vec![0u8; 8192];
                while std::io::Write::write_all(&mut stdin, &zeros).is_ok() {}
            });
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let error = error_json(&out);
    assert_eq!(error["error"], "INVALID_ARGUMENT");
    assert_eq!(
        error["message"],
        "/dev/stdin is larger than the input limit of 65536 bytes"
    );
    assert_eq!(error["details"]["limit"], 65536);
}

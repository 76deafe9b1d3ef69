//! Stdin is read when it is meant (issue 27, item 5), whatever its timing: a needed input is
//! read to its end however late it starts (within the documented wait) or slowly it comes;
//! flags that already give every required field are the input, and stdin is then not read,
//! whether it arrives at once or late; a pipe that stays silent is `MISSING_INPUT` saying no
//! input arrived (never "title is a required property"); `--input-file -` waits to the end.
//! Outcomes are asserted, never timings.

mod support;

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use support::{Call, Env};

/// `todo --db DB ARGS...` with `input` written to its stdin after `delay` (then closed).
fn late(
    env: &Env,
    args: &[&str],
    input: &'static str,
    delay: Duration,
    vars: &[(&str, &str)],
) -> Call {
    let mut cmd = env.command(args);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in vars {
        cmd.env(name, value);
    }
    let mut child = cmd.spawn().expect("todo runs");
    let mut stdin = child.stdin.take().expect("a stdin pipe");
    let writer = std::thread::spawn(move || {
        std::thread::sleep(delay);
        // The call may have ended already (a silent pipe): a broken pipe is its answer.
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("todo ends");
    writer.join().unwrap();
    Call::from(output)
}

/// The task's fields a call answers, without its id and its times (two calls a second apart
/// differ in them: CI once ran the two across a second's edge).
fn fields(call: &Call) -> Value {
    let mut data = call.data().clone();
    let object = data.as_object_mut().unwrap();
    object.remove("id");
    object.remove("created");
    object.remove("updated");
    data
}

#[test]
fn a_needed_input_that_starts_late_is_read_whole() {
    // (sleep 2.5; echo '{"title":"x"}') | todo task create
    let env = Env::new();
    let call = late(
        &env,
        &["task", "create"],
        "{\"title\":\"x\"}\n",
        Duration::from_millis(2500),
        &[],
    );
    assert_eq!(call.data()["title"], "x", "{call:?}");
}

#[test]
fn flags_that_give_the_input_are_the_input_whenever_stdin_comes() {
    // (sleep 3; echo '{"notes":"x"}') | todo task create --title A: the same answer as the
    // same stdin given at once: the flags give the required title, stdin is not read.
    let env = Env::new();
    let args = ["task", "create", "--title", "A"];
    let at_once = late(&env, &args, "{\"notes\":\"x\"}\n", Duration::ZERO, &[]);
    let slow = late(
        &env,
        &args,
        "{\"notes\":\"x\"}\n",
        Duration::from_secs(3),
        &[],
    );
    assert_eq!(fields(&at_once), fields(&slow));
    assert_eq!(fields(&at_once)["title"], "A");
    assert!(fields(&at_once).get("notes").is_none(), "{at_once:?}");
}

#[test]
fn a_needed_input_that_never_comes_says_no_input_arrived() {
    let env = Env::new();
    let call = late(
        &env,
        &["task", "create"],
        "",
        Duration::from_secs(2),
        &[("PAS_STDIN_WAIT", "200")],
    );
    assert_ne!(call.exit, 0, "{call:?}");
    assert_eq!(call.code(), "MISSING_INPUT");
    let message = call.envelope["error"]["message"].as_str().unwrap();
    assert!(message.contains("no input arrived"), "{message}");
    assert!(message.contains("200 ms"), "{message}");
    assert!(!message.contains("title"), "{message}");
}

#[test]
fn an_explicit_input_file_dash_waits_for_its_input() {
    // `--input-file -` asks for stdin: read to its end, past the wait for an implicit read.
    let env = Env::new();
    let call = late(
        &env,
        &["task", "create", "--input-file", "-"],
        "{\"title\":\"y\"}\n",
        Duration::from_millis(1500),
        &[("PAS_STDIN_WAIT", "200")],
    );
    assert_eq!(call.data()["title"], "y", "{call:?}");
}

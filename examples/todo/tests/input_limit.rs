//! `task create` reads a JSON object on stdin: stdin from /dev/zero ends at the runtime's input
//! limit with a structured error envelope (issue 19), instead of growing without bound.

mod support;

use support::Env;

#[test]
fn stdin_from_dev_zero_is_refused_at_the_limit() {
    let env = Env::new();
    let out = env
        .command(&["task", "create"])
        .env("PAS_INPUT_LIMIT", "65536")
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    let call = support::Call::from(out);
    assert_eq!(
        (call.exit, call.code()),
        (1, "INVALID_ARGUMENT"),
        "{call:?}"
    );
    assert_eq!(
        call.envelope["error"]["message"],
        "stdin is larger than the input limit of 65536 bytes"
    );
}

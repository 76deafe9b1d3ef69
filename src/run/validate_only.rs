//! `--validate-only` (CLI Agent Spec 14 and 54): the call goes through every check the runtime
//! makes before a handler (clap's parse, the confirmation flag, declared constraints and
//! relations, requirements, credentials, stdin against the inputSchema) and then answers that
//! it is valid, without running the handler. A call that is not valid ends with the error it
//! would have ended with, so an agent learns every missing or wrong argument without acting.

use pas_spec::Command;
use serde_json::json;

use crate::reply::Reply;

/// The answer of a valid call: `{"valid": true, "command": NAME, "ran": false}`.
pub(crate) fn reply(command: &Command) -> Reply {
    Reply::object(&json!({
        "valid": true,
        "command": command.name,
        "ran": false,
    }))
}

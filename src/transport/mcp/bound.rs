//! The output bound of one `tools/call` (CLI Agent Spec failure mode 43, over MCP), only where
//! it is declared or asked for, as on the command line (`crate::guards::output_limit`): the command's
//! declared `maxOutputBytes` (MCP is machine mode, where it applies), and the caller's
//! `_meta: {"pas-kit/maxOutputBytes": N}` on the call (the same key `tools/list` states the
//! declared cap under), else `PAS_OUTPUT_LIMIT` in the server's environment. The caller's may
//! only lower the declared cap; 0 asks for none. What a bound does to a result, losing nothing,
//! is in [`super::result`].

use pas_spec::Command;
use pas_spec::faces::mcp::META_MAX_OUTPUT_BYTES;
use serde_json::Value;

use crate::error::Error;

/// The bound of a call of `command`, `asked` being the call's `_meta` value, if any.
pub(crate) fn of(command: &Command, asked: Option<&Value>) -> Result<Option<u64>, Error> {
    let caller = match asked {
        None => crate::guards::output_limit::caller(),
        Some(value) => match value.as_u64() {
            Some(0) => None,
            Some(bytes) => Some(bytes),
            None => {
                return Err(Error::invalid_argument(format!(
                    "`_meta.{META_MAX_OUTPUT_BYTES}` takes a number of bytes, not {value}"
                ))
                .with_suggestion(format!(
                    "`_meta: {{\"{META_MAX_OUTPUT_BYTES}\": 65536}}` (0: no bound); output past it is written whole to a file and the result points at it"
                )));
            }
        },
    };
    // MCP is machine mode: the declared cap applies.
    Ok(crate::guards::output_limit::combine(
        command.max_output_bytes,
        caller,
        true,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn command(declared: Option<u64>) -> Command {
        serde_json::from_value(json!({
            "name": "export",
            "description": "Export everything.",
            "maxOutputBytes": declared,
        }))
        .expect("a command")
    }

    #[test]
    fn the_caller_may_only_lower_the_declared_cap() {
        let asked = |v: Value| of(&command(Some(100)), Some(&v)).unwrap();
        assert_eq!(asked(json!(10)), Some(10));
        assert_eq!(asked(json!(1000)), Some(100));
        assert_eq!(asked(json!(0)), Some(100));
        assert_eq!(of(&command(None), Some(&json!(10))).unwrap(), Some(10));
        assert_eq!(of(&command(None), Some(&json!(0))).unwrap(), None);
    }

    #[test]
    fn a_value_that_is_not_bytes_is_refused() {
        for bad in [json!(-1), json!("10"), json!(1.5), json!(null)] {
            let error = of(&command(None), Some(&bad)).expect_err("refused");
            assert_eq!(error.code(), crate::codes::INVALID_ARGUMENT);
        }
    }
}

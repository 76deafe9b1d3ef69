//! A handler that fails with an error constant its tool does not declare (a typo such as
//! `BOOKMARK_NOTFOUND` for `BOOKMARK_NOT_FOUND`) breaks the contract quietly: the agent gets a
//! code no help text lists, and the process exits 1. Debug builds catch it at the first call:
//! the error becomes `INTERNAL_ERROR` naming the constant and the fix. Release builds pass the
//! error through unchanged (the generated `ErrorCode` enum makes the typo a compile error there).

use pas_spec::Registry;

use crate::codes;
use crate::error::Error;

/// Constants the runtime itself hands to handlers or stubs, which a tool need not declare.
const RUNTIME_CODES: &[&str] = &[
    crate::resources::NOT_IMPLEMENTED,
    crate::run::guard::FORCE_REQUIRED,
    crate::services::store::STORE_FILE_INVALID,
];

/// Whether `code` is one the tool's agents can look up: a built-in, a runtime constant, or one of
/// the registry's exit codes.
pub(crate) fn is_known(registry: &Registry, code: &str) -> bool {
    codes::builtin(code).is_some()
        || RUNTIME_CODES.contains(&code)
        || registry.exit_codes.iter().any(|c| c.name == code)
        || pas_spec::declare::declared_code_in(registry, code)
}

/// The error a handler returned, or (debug builds only) `INTERNAL_ERROR` when its constant is
/// not declared.
pub(crate) fn check(registry: &Registry, error: Error) -> Error {
    if !cfg!(debug_assertions) || is_known(registry, error.code()) {
        return error;
    }
    let code = error.code().to_owned();
    Error::internal(format!(
        "the handler failed with `{code}`, an error code `{}` does not declare ({})",
        registry.name,
        error.message()
    ))
    .with_suggestion(format!(
        "declare `{code}` under exitCodes (and in the command's errors), or use the generated ErrorCode enum; a debug build checks this, a release build would exit 1"
    ))
    .with_details(serde_json::json!({ "undeclared": code }))
}

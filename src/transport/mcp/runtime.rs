//! The protocol's tokio runtime, one for either transport.

use serde_json::json;

/// One thread, since the handlers run on threads of their own ([`super::exec`]); `None` (said
/// on stderr) when the system refuses it.
pub(crate) fn protocol_runtime() -> Option<tokio::runtime::Runtime> {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => Some(runtime),
        Err(err) => {
            eprintln!(
                "{}",
                json!({"error": "INTERNAL_ERROR", "message": format!("cannot start the MCP runtime: {err}")})
            );
            None
        }
    }
}

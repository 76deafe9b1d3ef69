//! The error constants every `pas` tool has without declaring them, and their exit codes.
//!
//! The table lives in `pas-spec` ([`pas_spec::builtin_codes`]) beside the agent-help face that
//! documents it, so `pas-gen help` and the built CLI print the same ERROR CODES; this module keeps
//! the runtime's `pas::codes` path.

pub use pas_spec::builtin_codes::*;

/// The constants a tool raises for what its spec declares (`auth`, `requirements`).
pub use pas_spec::declare::{
    AUTH_REQUIRED, CREDENTIALS_EXPIRED, REQUIREMENT_MISSING, RUNTIME_VERSION,
};

//! Every check of `runtime_declared.rs`, run against `pas-declared-derive`: the same spec
//! compiled with `pas::include_spec!`, so pas-emit's and the derive's `declared = "..."` keys
//! carry what the spec-driven runtime enforces (credentials, constraints, relations,
//! requirements, side effects, untrusted fields). A declaration dropped on the way fails here.

#[path = "runtime_declared.rs"]
mod runtime_declared_cases;

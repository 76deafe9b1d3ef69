//! Procedural macros of pas. Thin by design: parse the input, validate it with spans, and hand
//! the registry to the one emitter in `pas-spec`, so the derive, `include_spec!` and `pas-gen`
//! write the same code. The macros themselves arrive with the runtime and spec-first issues.

//! Routing: from argv (or an MCP call) to what answers it. `dispatch` handles what comes before
//! and at the parse (help, the spec, built-in words, clap's refusal); `matched` sends the parsed
//! command path to a built-in word or to the one pipeline of `crate::run::invoke`.

pub(crate) mod dispatch;
pub(crate) mod matched;

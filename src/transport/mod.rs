//! The two ways into a tool: argv (the CLI) and MCP. Both reach handlers through the one
//! pipeline of `run`; neither knows the other's insides beyond starting the server.

pub(crate) mod cli;
pub mod mcp;

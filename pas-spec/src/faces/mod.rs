//! Text faces of the registry: pure functions from a registry to bytes.
//!
//! They live here, beside the model, so that the built CLI (through the runtime) and `pas-gen`
//! print the very same bytes from one renderer: a face can never disagree with the CLI.
//!
//! - [`catalog`]: the compose `tools` catalog (also `tool --agent tools` in the `pas` profile).
//! - [`agent_help`]: `--agent --help` of the tool, a group or one command (PAS 4.1).
//! - [`llm`]: the `.llm` document (PAS 4.2), in the default layout or through a minijinja template.
//! - [`mcp`]: an MCP `tools/list` result, one tool per command.
//! - [`mcp_discovery`]: which tools a server serves (`--group`, `--tools`), and the three tools of progressive discovery.
//! - [`mcp_clients`]: what an MCP client's configuration needs to start the tool's server.
//! - [`masking`]: what a tool masks in its output and how to see it raw (every face says it).
//! - [`skill`]: an Agent Skill (`SKILL.md` and its `.llm` reference).
//! - [`plugin`]: an Agent Plugins package (the manifest, the skill and the MCP server's entry).

pub mod agent_help;
pub mod catalog;
mod limits;
pub use limits::{INPUT_FILE_FLAG, has_input_file};
pub mod llm;
mod llm_document;
mod llm_layout;
pub mod masking;
pub mod mcp;
pub mod mcp_clients;
pub mod mcp_discovery;
mod mcp_examples;
pub mod plugin;
pub mod skill;
mod words;

pub use words::{
    IDEMPOTENCY_KEY_FLAG, command_switches, config_env_var, mcp_token_env_var, offers_cleanup,
    scopes_env_var, takes_idempotency_key,
};

//! What an MCP client needs to start a tool's server (`TOOL mcp --print-config CLIENT`): the
//! entry for the client's configuration file, where that file is, and in which format.
//!
//! Pure: the caller gives the command that starts the server (the built binary's absolute path
//! and the words after it); writing a file is the runtime's (`--install`).
//!
//! The four clients and their files (project files resolve against the working directory):
//!
//! | client | file | servers under | entry |
//! |---|---|---|---|
//! | `claude-code` | `.mcp.json` | `mcpServers` | `{type: stdio, command, args}` |
//! | `codex` | `$CODEX_HOME/config.toml`, else `~/.codex/config.toml` | `[mcp_servers.NAME]` | `command`, `args` |
//! | `cursor` | `.cursor/mcp.json` | `mcpServers` | `{command, args}` |
//! | `vscode` | `.vscode/mcp.json` | `servers` | `{type: stdio, command, args}` |

use serde_json::{Map, Value, json};

use crate::Registry;
use crate::surface::{MCP_WORD, builtin_argv};

/// The words after the tool's name that start its MCP server: `mcp`, or `--builtin mcp` where a
/// root positional could take the word. Every client entry and the Agent Plugins package
/// ([`super::plugin`]) run the server with these.
pub fn server_args(registry: &Registry) -> Vec<String> {
    builtin_argv(registry, MCP_WORD)
}

/// A server run over stdio, `{type: "stdio", command, args}`: the shape Claude Code's and VS
/// Code's files and the Agent Plugins `mcp.json` share.
pub fn stdio_entry(command: &str, args: &[String]) -> Value {
    json!({ "type": "stdio", "command": command, "args": args })
}

/// A client `mcp --print-config` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpClient {
    /// Claude Code: the project's `.mcp.json`.
    ClaudeCode,
    /// Codex: its own `config.toml` (every project of the user).
    Codex,
    /// Cursor: the project's `.cursor/mcp.json`.
    Cursor,
    /// VS Code: the workspace's `.vscode/mcp.json`.
    VsCode,
}

/// The format of a client's configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigFormat {
    /// A JSON document.
    Json,
    /// A TOML document.
    Toml,
}

impl ConfigFormat {
    /// `json` or `toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            ConfigFormat::Json => "json",
            ConfigFormat::Toml => "toml",
        }
    }
}

/// Where a client's configuration file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigHome {
    /// A path relative to the project (the working directory).
    Project(&'static str),
    /// A file of the user's: this file under the directory the environment variable names,
    /// else under this directory of the home directory.
    User {
        /// The variable that names the client's home (`CODEX_HOME`).
        env: &'static str,
        /// Its default, relative to the home directory (`.codex`).
        default_dir: &'static str,
        /// The file's name in it (`config.toml`).
        file: &'static str,
    },
}

impl McpClient {
    /// Every client, in the order help lists them.
    pub const ALL: [McpClient; 4] = [
        McpClient::ClaudeCode,
        McpClient::Codex,
        McpClient::Cursor,
        McpClient::VsCode,
    ];

    /// The client's name as typed (`claude-code`).
    pub fn name(self) -> &'static str {
        match self {
            McpClient::ClaudeCode => "claude-code",
            McpClient::Codex => "codex",
            McpClient::Cursor => "cursor",
            McpClient::VsCode => "vscode",
        }
    }

    /// The client a name names, if any.
    pub fn from_name(name: &str) -> Option<McpClient> {
        McpClient::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The names of every client, comma-separated (for errors and help).
    pub fn names() -> String {
        McpClient::ALL.map(McpClient::name).join(", ")
    }

    /// Where the client reads its servers from.
    pub fn home(self) -> ConfigHome {
        match self {
            McpClient::ClaudeCode => ConfigHome::Project(".mcp.json"),
            McpClient::Codex => ConfigHome::User {
                env: "CODEX_HOME",
                default_dir: ".codex",
                file: "config.toml",
            },
            McpClient::Cursor => ConfigHome::Project(".cursor/mcp.json"),
            McpClient::VsCode => ConfigHome::Project(".vscode/mcp.json"),
        }
    }

    /// The format of its file.
    pub fn format(self) -> ConfigFormat {
        match self {
            McpClient::Codex => ConfigFormat::Toml,
            _ => ConfigFormat::Json,
        }
    }

    /// The key of the file's table of servers.
    pub fn servers_key(self) -> &'static str {
        match self {
            McpClient::ClaudeCode | McpClient::Cursor => "mcpServers",
            McpClient::Codex => "mcp_servers",
            McpClient::VsCode => "servers",
        }
    }

    /// The entry of one server that runs `command` with `args` over stdio.
    pub fn entry(self, command: &str, args: &[String]) -> Value {
        if matches!(self, McpClient::ClaudeCode | McpClient::VsCode) {
            return stdio_entry(command, args);
        }
        let mut entry = Map::new();
        entry.insert("command".into(), json!(command));
        entry.insert("args".into(), json!(args));
        Value::Object(entry)
    }

    /// The smallest whole file that declares the server `name`: `{servers_key: {name: entry}}`.
    pub fn document(self, name: &str, command: &str, args: &[String]) -> Value {
        json!({ self.servers_key(): { name: self.entry(command, args) } })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_by_its_name() {
        for client in McpClient::ALL {
            assert_eq!(McpClient::from_name(client.name()), Some(client));
        }
        assert_eq!(McpClient::from_name("claude"), None);
        assert_eq!(McpClient::names(), "claude-code, codex, cursor, vscode");
    }

    #[test]
    fn each_document_names_the_server_under_the_clients_key() {
        let args = vec!["mcp".to_owned()];
        let vscode = McpClient::VsCode.document("todo", "/bin/todo", &args);
        assert_eq!(
            vscode,
            json!({"servers": {"todo": {"type": "stdio", "command": "/bin/todo", "args": ["mcp"]}}})
        );
        let cursor = McpClient::Cursor.document("todo", "/bin/todo", &args);
        assert_eq!(
            cursor,
            json!({"mcpServers": {"todo": {"command": "/bin/todo", "args": ["mcp"]}}})
        );
        assert_eq!(McpClient::Codex.format(), ConfigFormat::Toml);
        assert_eq!(McpClient::Codex.servers_key(), "mcp_servers");
    }
}

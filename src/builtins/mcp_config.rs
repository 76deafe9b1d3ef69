//! `TOOL mcp --print-config CLIENT [--install]` (issue 31, item 6): what an MCP client needs to
//! start this tool's server, printed; written into the client's file only with `--install`.
//!
//! The entry runs this very binary (its absolute path) with the words that reach the `mcp`
//! word (`pas_spec::surface::builtin_argv`) and the `--call-timeout`, `--group`, `--tools` and
//! `--discovery` given here. Printed, it is
//! the client's whole document for a person (JSON, or TOML for Codex) and, in machine mode,
//! `{client, file, format, config}`. `--install` adds it to the client's file: the file's other
//! entries and keys stay as they are (JSON keys in their order; TOML comments and layout too),
//! its earlier bytes are copied to `FILE.bak-YYYYMMDD-HHMMSS` first, and the new bytes replace
//! it in one rename, its permissions kept (`crate::services::atomic_file`). A file that does not parse is an error that writes nothing; an entry that
//! is already the same writes nothing either.

use std::path::{Path, PathBuf};

use pas_spec::Registry;
use pas_spec::faces::mcp_clients::{ConfigFormat, ConfigHome, McpClient};
use pas_spec::surface::{MCP_CALL_TIMEOUT, MCP_INSTALL, MCP_PRINT_CONFIG};
use serde_json::{Value, json};

use crate::codes;
use crate::error::Error;
use crate::handler::args::Args;
use crate::reply::Reply;

/// The answer of `mcp --print-config CLIENT [--install]`.
pub(crate) fn run(registry: &Registry, args: &Args) -> Result<Reply, Error> {
    let name = args
        .get::<String>(MCP_PRINT_CONFIG.long)?
        .unwrap_or_default();
    let client = McpClient::from_name(&name).ok_or_else(|| {
        Error::new(
            codes::INVALID_VALUE,
            format!(
                "--{} {name}: not a client this tool knows",
                MCP_PRINT_CONFIG.long
            ),
        )
        .with_suggestion(format!("one of {}", McpClient::names()))
    })?;
    // A `--call-timeout`, `--group`, `--tools` or `--discovery` here goes into the entry,
    // checked as the server checks it.
    crate::parse::mcp_options::call_timeout(args.matches())?;
    let serving = crate::parse::mcp_options::serving(registry, args.matches())?;
    let command = server_command()?;
    let mut words = pas_spec::faces::mcp_clients::server_args(registry);
    if let Some(seconds) = args.get::<String>(MCP_CALL_TIMEOUT.long)? {
        words.extend([format!("--{}", MCP_CALL_TIMEOUT.long), seconds]);
    }
    words.extend(serving.words());
    let file = config_file(client)?;
    let document = client.document(&registry.name, &command, &words);
    if !args.flag(MCP_INSTALL.long) {
        let text = render(client, &document)?;
        let value = json!({
            "client": client.name(),
            "file": file.to_string_lossy(),
            "format": client.format().as_str(),
            "config": document,
        });
        return Ok(Reply::object_with_text(&value, text));
    }
    let entry = client.entry(&command, &words);
    let installed = install(client, &file, &registry.name, &entry)?;
    let text = match (&installed.backup, installed.changed) {
        (_, false) => format!(
            "{} is already in {}: nothing written",
            registry.name,
            file.display()
        ),
        (Some(backup), true) => format!(
            "added {} to {} (its earlier bytes are in {})",
            registry.name,
            file.display(),
            backup.display()
        ),
        (None, true) => format!("added {} to {} (a new file)", registry.name, file.display()),
    };
    let value = json!({
        "client": client.name(),
        "file": file.to_string_lossy(),
        "format": client.format().as_str(),
        "changed": installed.changed,
        "replaced": installed.replaced,
        "backup": installed.backup.map(|b| b.to_string_lossy().into_owned()),
        "config": document,
    });
    Ok(Reply::object_with_text(&value, text))
}

/// This binary's absolute path: what the client runs.
fn server_command() -> Result<String, Error> {
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|err| Error::general(format!("cannot tell where this binary is: {err}")))?;
    exe.into_os_string().into_string().map_err(|exe| {
        Error::general(format!(
            "this binary's path is not UTF-8 ({}), which a client's JSON or TOML cannot hold",
            exe.to_string_lossy()
        ))
    })
}

/// The client's file: a project's (under the working directory, which `--cwd` sets) or the
/// user's (Codex: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`).
fn config_file(client: McpClient) -> Result<PathBuf, Error> {
    match client.home() {
        ConfigHome::Project(relative) => std::env::current_dir()
            .map(|dir| dir.join(relative))
            .map_err(|err| Error::general(format!("cannot read the working directory: {err}"))),
        ConfigHome::User {
            env,
            default_dir,
            file,
        } => {
            let dir = match std::env::var_os(env).filter(|v| !v.is_empty()) {
                Some(dir) => PathBuf::from(dir),
                None => std::env::var_os("HOME")
                    .filter(|home| !home.is_empty())
                    .map(PathBuf::from)
                    .ok_or_else(|| {
                        Error::general(format!("neither ${env} nor $HOME is set"))
                            .with_suggestion(format!("set {env} to {}'s directory", client.name()))
                    })?
                    .join(default_dir),
            };
            Ok(dir.join(file))
        }
    }
}

/// The document as the client's file holds it.
fn render(client: McpClient, document: &Value) -> Result<String, Error> {
    match client.format() {
        ConfigFormat::Json => serde_json::to_string_pretty(document)
            .map(|text| text + "\n")
            .map_err(|err| Error::internal(format!("cannot write the JSON: {err}"))),
        ConfigFormat::Toml => {
            let mut doc = toml_edit::DocumentMut::new();
            for (key, servers) in document.as_object().into_iter().flatten() {
                for (name, entry) in servers.as_object().into_iter().flatten() {
                    set_toml_entry(&mut doc, key, name, entry)?;
                }
            }
            Ok(doc.to_string())
        }
    }
}

/// What `--install` did.
struct Installed {
    /// The bytes changed (the entry was missing or different).
    changed: bool,
    /// An entry of that name was there, different.
    replaced: bool,
    /// Where the file's earlier bytes are, when it existed and changed.
    backup: Option<PathBuf>,
}

fn install(client: McpClient, file: &Path, name: &str, entry: &Value) -> Result<Installed, Error> {
    let before = match std::fs::read(file) {
        Ok(bytes) => Some(bytes),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => {
            return Err(Error::general(format!(
                "cannot read {}: {err}",
                file.display()
            )));
        }
    };
    let text = match &before {
        Some(bytes) => std::str::from_utf8(bytes)
            .map_err(|_| unreadable(client, file, "it is not UTF-8 text".to_owned()))?,
        None => "",
    };
    let key = client.servers_key();
    let (after, replaced) = match client.format() {
        ConfigFormat::Json => merge_json(client, file, text, key, name, entry)?,
        ConfigFormat::Toml => merge_toml(client, file, text, key, name, entry)?,
    };
    let Some(after) = after else {
        return Ok(Installed {
            changed: false,
            replaced: false,
            backup: None,
        });
    };
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|err| Error::general(format!("cannot create {}: {err}", dir.display())))?;
    }
    let backup = match &before {
        Some(bytes) => Some(back_up(file, bytes)?),
        None => None,
    };
    crate::services::atomic_file::write_atomic(file, after.as_bytes())
        .map_err(|err| Error::general(format!("cannot write {}: {err}", file.display())))?;
    Ok(Installed {
        changed: true,
        replaced,
        backup,
    })
}

fn unreadable(client: McpClient, file: &Path, why: String) -> Error {
    Error::new(
        codes::CONFIG_INVALID,
        format!(
            "{}'s configuration {} cannot be read as {}: {why}; nothing was written",
            client.name(),
            file.display(),
            client.format().as_str()
        ),
    )
    .with_suggestion("fix the file, or add the entry `--print-config` prints by hand")
}

/// The JSON file with the entry set: `None` when it is there already, the same.
fn merge_json(
    client: McpClient,
    file: &Path,
    text: &str,
    key: &str,
    name: &str,
    entry: &Value,
) -> Result<(Option<String>, bool), Error> {
    let mut doc: Value = match text.trim().is_empty() {
        true => json!({}),
        false => {
            serde_json::from_str(text).map_err(|err| unreadable(client, file, err.to_string()))?
        }
    };
    let Some(top) = doc.as_object_mut() else {
        return Err(unreadable(
            client,
            file,
            "it is not a JSON object".to_owned(),
        ));
    };
    let servers = top.entry(key.to_owned()).or_insert_with(|| json!({}));
    let Some(servers) = servers.as_object_mut() else {
        return Err(unreadable(
            client,
            file,
            format!("its `{key}` is not an object"),
        ));
    };
    let replaced = match servers.get(name) {
        Some(old) if old == entry => return Ok((None, false)),
        Some(_) => true,
        None => false,
    };
    servers.insert(name.to_owned(), entry.clone());
    let text = serde_json::to_string_pretty(&doc)
        .map_err(|err| Error::internal(format!("cannot write the JSON: {err}")))?;
    Ok((Some(text + "\n"), replaced))
}

/// The TOML file with the entry set, comments and layout kept: `None` when it is there
/// already, the same.
fn merge_toml(
    client: McpClient,
    file: &Path,
    text: &str,
    key: &str,
    name: &str,
    entry: &Value,
) -> Result<(Option<String>, bool), Error> {
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|err: toml_edit::TomlError| unreadable(client, file, err.message().to_owned()))?;
    let old = doc.get(key).and_then(|servers| servers.get(name));
    let replaced = old.is_some();
    if old
        .and_then(toml_edit::Item::as_table_like)
        .is_some_and(|table| same_entry(table, entry))
    {
        return Ok((None, false));
    }
    if doc.get(key).is_some_and(|servers| !servers.is_table_like()) {
        return Err(unreadable(
            client,
            file,
            format!("its `{key}` is not a table"),
        ));
    }
    set_toml_entry(&mut doc, key, name, entry)?;
    Ok((Some(doc.to_string()), replaced))
}

/// Whether a TOML server table says what `entry` says (its `command` and `args`, nothing
/// else).
fn same_entry(table: &dyn toml_edit::TableLike, entry: &Value) -> bool {
    let command = table.get("command").and_then(|c| c.as_str());
    let args: Option<Vec<&str>> = table
        .get("args")
        .and_then(|a| a.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str()).collect());
    let want_args: Vec<&str> = entry["args"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    table.len() == 2 && command == entry["command"].as_str() && args == Some(want_args)
}

/// Sets `[key.name]` to the entry's `command` and `args`, making `[key]` an implicit table
/// when the document has none.
fn set_toml_entry(
    doc: &mut toml_edit::DocumentMut,
    key: &str,
    name: &str,
    entry: &Value,
) -> Result<(), Error> {
    let servers = doc.entry(key).or_insert_with(|| {
        let mut table = toml_edit::Table::new();
        table.set_implicit(true);
        toml_edit::Item::Table(table)
    });
    let Some(servers) = servers.as_table_mut() else {
        return Err(Error::general(format!("`{key}` is not a table")));
    };
    let mut table = toml_edit::Table::new();
    if let Some(command) = entry["command"].as_str() {
        table["command"] = toml_edit::value(command);
    }
    let mut args = toml_edit::Array::new();
    for arg in entry["args"].as_array().into_iter().flatten() {
        if let Some(arg) = arg.as_str() {
            args.push(arg);
        }
    }
    table["args"] = toml_edit::value(args);
    servers.insert(name, toml_edit::Item::Table(table));
    Ok(())
}

/// Copies the file's earlier bytes beside it, to a name no earlier backup has.
fn back_up(file: &Path, bytes: &[u8]) -> Result<PathBuf, Error> {
    let stamp = crate::time::compact_stamp(std::time::SystemTime::now());
    let base = format!("{}.bak-{stamp}", file.display());
    for n in 0..100u32 {
        let path = PathBuf::from(match n {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        });
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path);
        match created {
            Ok(mut out) => {
                use std::io::Write;
                out.write_all(bytes)
                    .and_then(|()| out.sync_all())
                    .map_err(|err| {
                        Error::general(format!("cannot write the backup {}: {err}", path.display()))
                    })?;
                return Ok(path);
            }
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(err) => {
                return Err(Error::general(format!(
                    "cannot write the backup {}: {err}; nothing was changed",
                    path.display()
                )));
            }
        }
    }
    Err(Error::general(format!(
        "too many backups of {} already",
        file.display()
    )))
}

//! Configuration files: values for a tool's global flags from a TOML file, below argv and the
//! environment and above the registry's defaults.
//!
//! The file's values become clap default values of the global args before clap parses, so a
//! handler reads them exactly as it reads a flag, and clap keeps the precedence (argv, then the
//! flag's `env`, then the default). clap reports such a value as a default; [`ConfigFile`]
//! remembers which args the file supplied so that `config show` can say `file`.
//!
//! Keys are global flag names (kebab-case); values have the parameter's type. Anything else is a
//! `CONFIG_INVALID` error naming the file and key, and never quoting a value (it may be secret).

pub(crate) mod blank;
pub(crate) mod locate;
pub(crate) mod typed;

use std::io;
use std::path::{Path, PathBuf};

use pas_spec::Registry;
use serde_json::json;

use crate::codes;
use crate::error::Error;
use crate::parse::clap_face::arg_id;
use crate::stdio::state_file::Refusal;

pub(crate) use locate::env_var;
use locate::{Located, Origin};
use typed::Mismatch;

/// The configuration file a call read, and the global flag values it supplied.
#[derive(Debug, Clone)]
pub(crate) struct ConfigFile {
    path: PathBuf,
    /// clap arg id and the texts clap parses, per key of the file.
    values: Vec<(String, Vec<String>)>,
}

impl ConfigFile {
    /// The file's path as the call named it (or the default location).
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file supplied the arg with this clap id.
    pub(crate) fn supplied(&self, id: &str) -> bool {
        self.values.iter().any(|(i, _)| i == id)
    }

    /// The tool's clap command with the file's values as the global args' defaults.
    pub(crate) fn apply(&self, mut cmd: clap::Command) -> Result<clap::Command, Error> {
        for (id, texts) in &self.values {
            if !cmd.get_arguments().any(|a| a.get_id() == id.as_str()) {
                // A derive-built parser whose ids break the convention (see `App::with_command`).
                return Err(Error::internal(format!(
                    "the global flag {id} of the registry has no clap arg with that id"
                )));
            }
            cmd = cmd.mut_arg(id, |arg| arg.default_values(texts.clone()));
        }
        Ok(cmd)
    }
}

/// Reads the call's configuration file with the reader the binary carries: the TOML reader when
/// the tool may have global flags (`room`), else the blank check of a tool known to have none.
pub(crate) fn load_with(
    room: Option<&ConfigRoom>,
    registry: &Registry,
    flag: Option<&Path>,
    secret: &mut dyn FnMut(&str, &str),
) -> Result<Option<ConfigFile>, Error> {
    match room {
        Some(room) => (room.load)(registry, flag, secret),
        None if registry.global_flags.is_empty() => load_blank(registry, flag),
        // Only a derive fact that lies (`AgentTool::HAS_GLOBAL_FLAGS`) gets here.
        None => Err(Error::internal(format!(
            "{} has global flags but was built without its configuration file reader",
            registry.name
        ))),
    }
}

/// Finds the call's configuration file and reads its text: `None` when there is none to read.
fn read(registry: &Registry, flag: Option<&Path>) -> Result<Option<(Located, String)>, Error> {
    let Some(located) = locate::locate(&registry.name, flag) else {
        return Ok(None);
    };
    // A regular file within its limit: a FIFO or a device (`/dev/zero`) in the config's
    // place is refused at once, never read until memory or patience runs out.
    let bytes = match crate::stdio::state_file::read(
        &located.path,
        crate::stdio::state_file::CONFIG,
        false,
    ) {
        Ok(bytes) => bytes,
        Err(Refusal::Missing) if !located.named() => return Ok(None),
        Err(refusal) => return Err(unreadable(&located, &refusal)),
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Some((located, text))),
        Err(_) => Err(unreadable(
            &located,
            &Refusal::Io(io::Error::new(
                io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )),
        )),
    }
}

/// A key the file sets that is not a global flag of the tool.
fn not_a_global_flag(registry: &Registry, path: &Path, key: &str) -> Error {
    let keys: Vec<&str> = registry
        .global_flags
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    let hint = if keys.is_empty() {
        format!(
            "remove `{key}` from {}: {} has no global flags to configure",
            path.display(),
            registry.name
        )
    } else {
        format!(
            "remove or rename `{key}` in {}; the keys are the global flags: {}",
            path.display(),
            keys.join(", ")
        )
    };
    invalid(
        path,
        Some(key),
        format!(
            "{}:{key}: `{key}` is not a global flag of {}",
            path.display(),
            registry.name
        ),
        hint,
    )
}

/// The configuration file of a tool with no global flags: found and read as by [`load`], and
/// refused unless it sets nothing (no TOML reader is linked for it: issue 15). A file that
/// starts with a key gets the error [`load`] gives for that key; anything else (a quoted key,
/// a syntax error) names the line.
fn load_blank(registry: &Registry, flag: Option<&Path>) -> Result<Option<ConfigFile>, Error> {
    let Some((located, text)) = read(registry, flag)? else {
        return Ok(None);
    };
    let path = &located.path;
    match blank::scan(&text) {
        blank::Content::Nothing => Ok(Some(ConfigFile {
            path: located.path,
            values: Vec::new(),
        })),
        blank::Content::Something { key: Some(key), .. } => {
            Err(not_a_global_flag(registry, path, key))
        }
        blank::Content::Something { line, key: None } => Err(invalid(
            path,
            None,
            format!(
                "{}:{line}: {} has no global flags to configure, so its configuration file can set nothing",
                path.display(),
                registry.name
            ),
            format!("leave only comments and blank lines in {}", path.display()),
        )),
    }
}

/// Finds and reads the call's configuration file with the TOML reader: `None` when there is
/// none to read. Secret values go to `secret` (the call's redactor: value, source) as they are read, so no later error can
/// print them.
pub(crate) fn load(
    registry: &Registry,
    flag: Option<&Path>,
    secret: &mut dyn FnMut(&str, &str),
) -> Result<Option<ConfigFile>, Error> {
    let Some((located, text)) = read(registry, flag)? else {
        return Ok(None);
    };
    let path = &located.path;
    // toml's own parse tree, without serde: a configuration file is a flat table of values the
    // runtime checks itself (`typed`), so serde's deserializer would only add weight.
    let table = toml::de::DeTable::parse(&text).map_err(|err: toml::de::Error| {
        // The message and position only: toml's Display quotes the line, which may hold a secret.
        let at = err.span().map_or(String::new(), |span| {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!(":{line}:{column}")
        });
        invalid(
            path,
            None,
            format!(
                "{}{at} is not valid TOML: {}",
                path.display(),
                err.message().trim()
            ),
            format!("fix the TOML syntax of {}{at}", path.display()),
        )
    })?;
    let table = table.into_inner();
    let mut values = Vec::with_capacity(table.len());
    for (key, value) in &table {
        let (key, value) = (key.get_ref().as_ref(), value.get_ref());
        let Some(param) = registry.global_flags.iter().find(|p| p.name == key) else {
            return Err(not_a_global_flag(registry, path, key));
        };
        let texts = typed::texts(param, value).map_err(|mismatch| {
            let wanted = match mismatch {
                Mismatch::Type { expected, found } => {
                    format!("must be {expected}, not a TOML {found}")
                }
                Mismatch::NotAllowed(allowed) => format!("must be one of: {}", allowed.join(", ")),
            };
            invalid(
                path,
                Some(key),
                format!("{}:{key}: `{key}` {wanted}", path.display()),
                format!("fix `{key}` in {}: it {wanted}", path.display()),
            )
        })?;
        if param.secret {
            let source = format!("`{key}` of {}", path.display());
            texts.iter().for_each(|t| secret(t, &source));
        }
        values.push((arg_id(param), texts));
    }
    Ok(Some(ConfigFile {
        path: located.path,
        values,
    }))
}

fn unreadable(located: &Located, refusal: &Refusal) -> Error {
    let path = located.path.display();
    let missing = matches!(refusal, Refusal::Missing);
    let hint = match (&located.origin, refusal) {
        (Origin::Flag, Refusal::Missing) => {
            format!("create {path}, or give --config an existing TOML file")
        }
        (Origin::Environment(var), Refusal::Missing) => {
            format!("create {path}, or point {var} at an existing TOML file (or unset it)")
        }
        (_, Refusal::NotRegular(_)) => {
            format!("make {path} a regular TOML file (not a pipe, device or directory)")
        }
        (_, Refusal::TooLarge(_)) => format!(
            "a configuration file holds at most {} bytes: shorten {path}",
            crate::stdio::state_file::CONFIG.limit
        ),
        _ => format!("make {path} a readable UTF-8 TOML file"),
    };
    let message = match refusal {
        Refusal::Io(err) if !missing => {
            format!("cannot read the configuration file {path}: {err}")
        }
        other => other.describe(crate::stdio::state_file::CONFIG, &located.path),
    };
    let mut error = invalid(&located.path, None, message, hint);
    if !missing && !matches!(refusal, Refusal::Io(_)) {
        let mut details = refusal.details(crate::stdio::state_file::CONFIG, &located.path);
        details["file"] = json!(located.path.display().to_string());
        details["key"] = serde_json::Value::Null;
        error = error.with_details(details);
    }
    error
}

/// A `CONFIG_INVALID` error: a blocked prerequisite (exit 2), with the file and key as details.
fn invalid(path: &Path, key: Option<&str>, message: String, hint: String) -> Error {
    Error::new(codes::CONFIG_INVALID, message)
        .with_suggestion(hint)
        .with_details(json!({ "file": path.display().to_string(), "key": key }))
}

/// Reads a configuration file's values for the tool's global flags (`load`: the TOML reader):
/// only a tool that may have global flags links it (`crate::run::rooms`); a tool known to have
/// none checks only that its file sets nothing.
pub(crate) struct ConfigRoom {
    /// Finds and reads the call's file; secret values go to the callback (value, source).
    pub(crate) load: LoadConfig,
}

/// [`load`]'s signature: the registry, the `--config` path, where secret values go.
type LoadConfig =
    fn(&Registry, Option<&Path>, &mut dyn FnMut(&str, &str)) -> Result<Option<ConfigFile>, Error>;

//! A scaffolded Cargo project: what `pas-gen new` writes and `pas-gen generate` refreshes.
//!
//! Two kinds of file: the user's (Cargo.toml, main.rs, handlers.rs, the contract test, README,
//! .gitignore, the spec), rendered once from templates; and pas-gen's (`src/generated.rs`, from
//! the emitter, with the `@generated` header), the only kind `generate` ever rewrites.

pub mod calls;
pub mod escape;
pub mod templates;

use std::path::{Path, PathBuf};

use pas_spec::{Profile, Registry};
use serde::Serialize;

/// The generated Rust module, relative to the project.
pub const GENERATED_RS: &str = "src/generated.rs";
/// The user's handlers, relative to the project.
pub const HANDLERS_RS: &str = "src/handlers.rs";

/// One file of the project.
pub struct File {
    /// Relative to the project, `/`-separated.
    pub path: String,
    pub text: String,
}

/// How the project depends on the runtime.
pub enum Runtime {
    /// A path dependency on this repository (builds offline here).
    Path(PathBuf),
    /// A version from the registry.
    Version(String),
}

impl Runtime {
    /// The default: this repository when pas-gen runs from it, else the version pas-gen was
    /// built as.
    pub fn default_for_here() -> Runtime {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        match repo
            .join("Cargo.toml")
            .exists()
            .then(|| repo.canonicalize())
        {
            Some(Ok(repo)) => Runtime::Path(repo),
            _ => Runtime::Version(env!("CARGO_PKG_VERSION").to_owned()),
        }
    }

    /// The dependency's TOML value, escaped by toml_edit.
    fn toml(&self) -> String {
        match self {
            Runtime::Path(path) => {
                let mut table = toml_edit::InlineTable::new();
                table.insert("path", path.to_string_lossy().as_ref().into());
                table.to_string().trim().to_owned()
            }
            Runtime::Version(version) => escape::toml(version.clone()),
        }
    }
}

/// What every template sees. Values are raw spec text; templates escape them with the filters
/// of [`escape`], except `pas_dependency` (TOML already) and `handlers`' Rust parts (names the
/// emitter made).
#[derive(Serialize)]
struct Context<'a> {
    name: &'a str,
    package: String,
    bin: &'a str,
    bin_env: String,
    version: &'a str,
    summary: &'a str,
    spec_file: &'a str,
    pas_dependency: String,
    pas_profile: bool,
    agent_help: String,
    handlers: Vec<pas_emit::HandlerSignature>,
    /// The `pas::Resources` verbs to stub (a level 3/4 spec's).
    resources: Vec<pas_emit::HandlerSignature>,
    /// Whether the spec has global flags (the generated `Globals` exists).
    has_globals: bool,
    calls: Vec<Vec<String>>,
    /// robot: the session error constant a call with `--session` may answer before its stub.
    robot_session_code: Option<String>,
}

/// The user's files from the templates, then pas-gen's.
pub fn project(
    spec_file: &str,
    spec_text: &str,
    registry: &Registry,
    runtime: &Runtime,
    templates: Option<&Path>,
) -> Result<Vec<File>, pas::Error> {
    let handlers = pas_emit::handler_signatures(registry).map_err(unsupported)?;
    let generated = pas_emit::emit_file(registry, spec_file).map_err(unsupported)?;
    let context = Context {
        name: &registry.name,
        package: package_name(&registry.name),
        bin: &registry.name,
        bin_env: format!("CARGO_BIN_EXE_{}", registry.name),
        version: &registry.version,
        summary: &registry.summary,
        spec_file,
        pas_dependency: runtime.toml(),
        pas_profile: registry.profile == Profile::Pas,
        agent_help: pas_spec::faces::agent_help::render_tool(registry),
        handlers,
        resources: pas_emit::resource_signatures(registry),
        has_globals: !registry.global_flags.is_empty(),
        calls: calls::calls(registry),
        robot_session_code: (registry.profile == Profile::Robot)
            .then(|| registry.role_code(pas_spec::robot::ExitRole::Session).0),
    };
    let env = templates::environment(templates).map_err(template_error)?;
    let mut files = Vec::new();
    for (name, path, _) in templates::TEMPLATES {
        let template = env
            .get_template(name)
            .map_err(|e| template_error(e.to_string()))?;
        let text = template
            .render(minijinja::value::Serde(&context))
            .map_err(|e| template_error(format!("{name}: {e:#}")))?;
        files.push(File {
            path: (*path).to_owned(),
            text,
        });
    }
    files.push(File {
        path: spec_file.to_owned(),
        text: spec_text.to_owned(),
    });
    files.push(File {
        path: format!("docs/{}.llm", registry.name),
        text: pas_spec::faces::llm::render(registry),
    });
    files.push(File {
        path: GENERATED_RS.to_owned(),
        text: generated,
    });
    Ok(files)
}

/// The emitter's Rust module alone (what `generate` refreshes).
pub fn generated(registry: &Registry, spec_file: &str) -> Result<String, pas::Error> {
    pas_emit::emit_file(registry, spec_file).map_err(unsupported)
}

/// A Cargo package name: the tool's name when it is one, else its letters and digits.
fn package_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if cleaned.starts_with(|c: char| c.is_ascii_alphabetic()) {
        cleaned
    } else {
        format!("tool-{cleaned}")
    }
}

/// The spec is valid but the derive cannot express it.
pub fn unsupported(err: pas_emit::EmitError) -> pas::Error {
    pas::Error::new(err.code, err.message)
        .with_suggestion(err.hint)
        .with_details(serde_json::json!({ "pointer": err.pointer }))
}

fn template_error(message: String) -> pas::Error {
    pas::Error::new("TEMPLATE_ERROR", message)
        .with_suggestion("fix the template (see templates/ in the pas repository for the defaults)")
}

/// Reads and validates a spec for `new` and `generate`: its source and registry, or the
/// structured error (the diagnostics in its details).
pub fn load_spec(name: &str) -> Result<(pas_spec::Source, Registry), pas::Error> {
    let source = pas_spec::load::read_path(Path::new(name)).map_err(|d| {
        pas::Error::new("SPEC_INVALID", d.message.clone()).with_suggestion(
            d.hint
                .clone()
                .unwrap_or_else(|| "check the path of the spec".to_owned()),
        )
    })?;
    let (registry, diagnostics) = pas_spec::check_source(&source);
    let errors: Vec<&pas_spec::Diagnostic> = diagnostics.iter().filter(|d| d.is_error()).collect();
    match registry {
        Some(registry) if errors.is_empty() => Ok((source, registry)),
        _ => {
            let details: Vec<serde_json::Value> = errors
                .iter()
                .map(|d| {
                    serde_json::json!({
                        "code": d.code,
                        "message": d.message,
                        "line": d.location.as_ref().map(|l| l.line),
                        "column": d.location.as_ref().map(|l| l.column),
                    })
                })
                .collect();
            Err(pas::Error::new(
                "SPEC_INVALID",
                format!("{name} has {} error(s)", errors.len().max(1)),
            )
            .with_suggestion(format!(
                "run `pas-gen check {name}` and fix what it reports"
            ))
            .with_details(serde_json::json!({ "errors": details })))
        }
    }
}

/// The spec's file name inside the project (its own name, without directories).
pub fn spec_file_name(name: &str) -> String {
    Path::new(name)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "spec.yaml".to_owned())
}

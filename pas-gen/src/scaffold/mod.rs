//! A scaffolded Cargo project: what `pas-gen new` writes and `pas-gen generate` refreshes.
//!
//! Two kinds of file: the user's (Cargo.toml, main.rs, handlers.rs, `tests/my_tests.rs`,
//! README, .gitignore, the spec), rendered once from templates; and pas-gen's, with the
//! `@generated` header (`src/generated.rs` from the emitter, and the contract test
//! `tests/contract.rs` from its template), the only kind `generate` ever rewrites.

pub mod calls;
pub mod escape;
pub mod features;
pub mod templates;

use std::path::{Path, PathBuf};

use pas_spec::{ParamType, Profile, Registry};
use serde::Serialize;

pub use templates::CONTRACT_RS;

/// The generated Rust module, relative to the project.
pub const GENERATED_RS: &str = "src/generated.rs";
/// The lockfile, seeded from this workspace's so a scaffold builds offline with the versions
/// already fetched and built here.
pub const CARGO_LOCK: &str = "Cargo.lock";
/// This workspace's lockfile as pas-gen was built with it; empty when pas-gen was built from its
/// package, outside the workspace (see build.rs).
const WORKSPACE_LOCK: &str = include_str!(concat!(env!("OUT_DIR"), "/workspace.lock"));
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
    /// What `--pas-version V` / `--pas-path DIR` ask for (not both), else [`Self::default_for_here`].
    pub fn chosen(version: Option<String>, path: Option<String>) -> Result<Runtime, pas::Error> {
        match (version, path) {
            (Some(_), Some(_)) => Err(pas::Error::new(
                pas::codes::ARGUMENT_CONFLICT,
                "--pas-version and --pas-path both choose the runtime",
            )
            .with_suggestion("give one: --pas-version V (the registry) or --pas-path DIR")),
            (Some(version), None) => Ok(Runtime::Version(version)),
            // The project's Cargo.toml resolves a relative path from itself, not from here.
            (None, Some(path)) => Ok(Runtime::Path(
                Path::new(&path)
                    .canonicalize()
                    .unwrap_or_else(|_| PathBuf::from(path)),
            )),
            (None, None) => Ok(Runtime::default_for_here()),
        }
    }

    /// The default: the checkout pas-gen was built in when it still holds the runtime (the
    /// workspace whose package is `pas-kit`), else the version pas-gen was built as: an
    /// installed pas-gen (built from its package, beside no runtime) scaffolds against the
    /// registry's pas-kit of its own version.
    pub fn default_for_here() -> Runtime {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let holds_runtime = std::fs::read_to_string(repo.join("Cargo.toml"))
            .is_ok_and(|manifest| manifest.contains("name = \"pas-kit\""));
        match holds_runtime.then(|| repo.canonicalize()) {
            Some(Ok(repo)) => Runtime::Path(repo),
            _ => Runtime::Version(env!("CARGO_PKG_VERSION").to_owned()),
        }
    }

    /// The dependency's TOML value, escaped by toml_edit. It turns on the runtime's `mcp`
    /// feature by name, so a scaffold is an MCP server (`TOOL mcp`) whatever pas-kit's
    /// default features are.
    fn toml(&self) -> String {
        let mut table = toml_edit::InlineTable::new();
        match self {
            Runtime::Path(path) => {
                table.insert("path", path.to_string_lossy().as_ref().into());
            }
            Runtime::Version(version) => {
                table.insert("version", version.as_str().into());
            }
        }
        let mut names = toml_edit::Array::new();
        for feature in features::SCAFFOLD {
            names.push(*feature);
        }
        table.insert("features", names.into());
        table.to_string().trim().to_owned()
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
    /// The words that ask for machine output (`--agent`, or none where it is always on), from
    /// the profile's surface table.
    machine: Vec<&'static str>,
    /// How agent help is asked for, e.g. `todo --help` or `weather --agent --help`.
    help_call: String,
    agent_help: String,
    /// The README's example of a handler failing with one of the spec's own codes: (name,
    /// `ErrorCode` variant) of its first error code, none when it declares none.
    error_example: Option<(String, String)>,
    handlers: Vec<pas_emit::HandlerSignature>,
    /// The `pas::Resources` verbs to stub (a level 3/4 spec's).
    resources: Vec<pas_emit::HandlerSignature>,
    /// Whether the spec has global flags (the generated `Globals` exists).
    has_globals: bool,
    /// The contract test's calls, and the calls the runtime must refuse without `--force`.
    calls: Vec<calls::Call>,
    refusals: Vec<Vec<String>>,
    /// The constant a refusal answers with (`FORCE_REQUIRED`, robot's confirmation code).
    confirm_error: String,
    /// The profile's name and every exit code the tool may end with.
    profile: &'static str,
    exit_codes: Vec<u8>,
    /// `<TOOL>_CONFIG`, unset in the contract test's sandbox.
    config_env: String,
    /// The global flags' variables in the sandbox: a path inside it, or unset.
    sandbox_env: Vec<SandboxVar>,
}

/// One variable of a global flag, as the contract test's sandbox sets it.
#[derive(Serialize)]
struct SandboxVar {
    name: String,
    /// A path relative to the sandbox, for a flag whose default is a path (a store, a
    /// directory): the tool then works inside the sandbox. `None`: the variable is unset.
    value: Option<String>,
}

/// The user's files from the templates, then pas-gen's.
pub fn project(
    spec_file: &str,
    spec_text: &str,
    registry: &Registry,
    runtime: &Runtime,
    templates: Option<&Path>,
) -> Result<Vec<File>, pas::Error> {
    // Its faces list the built-ins the scaffold is built with (its Cargo.toml's features).
    let registry = &features::as_built(
        registry,
        pas_spec::Features::from_names(features::SCAFFOLD.iter().copied()),
    );
    let generated = generated(registry, spec_file)?;
    let context = context(spec_file, registry, runtime)?;
    let env = templates::environment(templates).map_err(template_error)?;
    let mut files = Vec::new();
    for (name, path, _) in templates::TEMPLATES {
        files.push(File {
            path: (*path).to_owned(),
            text: render(&env, name, &context)?,
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
    // The Agent Skill (what `TOOL docs --skill` prints, and its `.llm` reference), pas-gen's too.
    let skill_dir = format!("skills/{}", pas_spec::faces::skill::name(registry));
    for (path, text) in pas_spec::faces::skill::files(registry) {
        files.push(File {
            path: format!("{skill_dir}/{path}"),
            text,
        });
    }
    files.push(File {
        path: GENERATED_RS.to_owned(),
        text: generated,
    });
    // Cargo keeps the locked version of every package the scaffold shares with the workspace
    // (all of them), adds the scaffold itself and drops the rest on its first build.
    if !WORKSPACE_LOCK.is_empty() {
        files.push(File {
            path: CARGO_LOCK.to_owned(),
            text: WORKSPACE_LOCK.to_owned(),
        });
    }
    Ok(files)
}

/// The contract test alone (what `generate` refreshes), from the built-in template.
pub fn contract_test(registry: &Registry, spec_file: &str) -> Result<String, pas::Error> {
    let context = context(spec_file, registry, &Runtime::default_for_here())?;
    let env = templates::environment(None).map_err(template_error)?;
    render(&env, "contract.rs.j2", &context)
}

fn render(
    env: &minijinja::Environment<'static>,
    name: &str,
    context: &Context<'_>,
) -> Result<String, pas::Error> {
    let template = env
        .get_template(name)
        .map_err(|e| template_error(e.to_string()))?;
    template
        .render(minijinja::value::Serde(context))
        .map_err(|e| template_error(format!("{name}: {e:#}")))
}

fn context<'a>(
    spec_file: &'a str,
    registry: &'a Registry,
    runtime: &Runtime,
) -> Result<Context<'a>, pas::Error> {
    let handlers = pas_emit::handler_signatures(registry).map_err(unsupported)?;
    Ok(Context {
        name: &registry.name,
        package: package_name(&registry.name),
        bin: &registry.name,
        bin_env: format!("CARGO_BIN_EXE_{}", registry.name),
        version: &registry.version,
        summary: &registry.summary,
        spec_file,
        pas_dependency: runtime.toml(),
        pas_profile: registry.profile == Profile::Pas,
        machine: pas_spec::surface::of(registry.profile)
            .machine_switch
            .into_iter()
            .collect(),
        help_call: {
            let mut words = pas_spec::surface::of(registry.profile).invocation_prefix(registry);
            words.push("--help".to_owned());
            words.join(" ")
        },
        agent_help: pas_spec::faces::agent_help::render_tool(registry),
        error_example: pas_emit::error_code_variants(registry)
            .into_iter()
            .zip(&registry.exit_codes)
            .find(|(_, code)| !code.success)
            .map(|(example, _)| example),
        handlers,
        resources: pas_emit::resource_signatures(registry),
        has_globals: !registry.global_flags.is_empty(),
        calls: calls::calls(registry),
        refusals: calls::refusals(registry),
        confirm_error: pas_spec::surface::of(registry.profile)
            .confirm_error_in(registry)
            .to_owned(),
        profile: registry.profile.as_str(),
        exit_codes: exit_codes(registry),
        config_env: pas_spec::faces::config_env_var(&registry.name),
        sandbox_env: sandbox_env(registry),
    })
}

/// Every exit code a tool of this registry may end with, sorted: 0, the profile's codes for
/// errors, and those of signals.
fn exit_codes(registry: &Registry) -> Vec<u8> {
    let mut codes: Vec<u8> = vec![0];
    match registry.profile {
        // Compose: 1, and 2 for blocking codes and usage errors.
        Profile::Compose => codes.extend([1, 2]),
        _ => {
            codes.extend(pas_spec::builtin_codes::BUILTINS.iter().map(|b| b.exit));
            codes.extend(
                registry
                    .exit_codes
                    .iter()
                    .filter_map(|c| u8::try_from(c.code).ok()),
            );
        }
    }
    codes.extend([130, 143]);
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// The global flags' environment variables in the contract test's sandbox. A string flag
/// whose default is a path (`/var/lib/...`, `~/...`, `./...`) points inside the sandbox, so a
/// default that names real data is never used; every other variable is unset, so the user's
/// own settings (a `TOOL_DB` exported in their shell) never reach the tests.
fn sandbox_env(registry: &Registry) -> Vec<SandboxVar> {
    registry
        .global_flags
        .iter()
        .filter_map(|flag| {
            let name = flag.env.clone()?;
            let path_default = flag.ty == ParamType::String
                && flag
                    .default
                    .as_ref()
                    .and_then(|d| d.as_str())
                    .is_some_and(|d| d.starts_with(['/', '~', '.']));
            let value = path_default.then(|| format!("env/{}", flag.name));
            Some(SandboxVar { name, value })
        })
        .collect()
}

/// The emitter's Rust module alone (what `generate` refreshes).
pub fn generated(registry: &Registry, spec_file: &str) -> Result<String, pas::Error> {
    let mut code = pas_emit::emit_file(registry, spec_file).map_err(unsupported)?;
    code.push_str(REGISTRY_MARK);
    code.push_str(&ascii_json(registry));
    code.push('\n');
    Ok(code)
}

/// The comment that starts the last line of `src/generated.rs`.
const REGISTRY_MARK: &str = "// pas-gen registry: ";

/// The registry the generated module was made from, when its last line records it.
pub fn recorded_registry(generated: &str) -> Option<Registry> {
    let line = generated
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix(REGISTRY_MARK))?;
    serde_json::from_str(line).ok()
}

/// The registry as one line of JSON with every non-ASCII character escaped (a direction mark
/// in a Rust comment is a compile error, and the line must stay one line).
fn ascii_json(registry: &Registry) -> String {
    let json = serde_json::to_string(registry).expect("a registry always serialises");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
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

/// [`unsupported`], placed in the spec's text: `file:line:col` leads the message and the
/// details say `line` and `column`, as `pas-gen check` places its diagnostics.
pub fn unsupported_in(err: pas_emit::EmitError, source: &pas_spec::Source) -> pas::Error {
    let (line, column) = pas_spec::SourceMap::build(source).nearest(&err.pointer);
    pas::Error::new(
        err.code,
        format!("{}:{line}:{column}: {}", source.name, err.message),
    )
    .with_suggestion(err.hint)
    .with_details(serde_json::json!({ "pointer": err.pointer, "line": line, "column": column }))
}

fn template_error(message: String) -> pas::Error {
    pas::Error::new("TEMPLATE_ERROR", message).with_suggestion(
        "fix the template (see pas-gen/templates/ in the pas repository for the defaults)",
    )
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
        Some(registry) if errors.is_empty() => match pas_emit::check(&registry) {
            Ok(()) => Ok((source, registry)),
            Err(err) => Err(unsupported_in(err, &source)),
        },
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

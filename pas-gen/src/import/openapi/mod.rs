//! `pas-gen import openapi DOC --out SPEC`: an OpenAPI 3.0 or 3.1 document (JSON or YAML, one
//! local file) becomes a pas spec that `pas-gen check` accepts and a person can edit.
//!
//! Parse, validate, map, emit are separate steps: [`load`] reads and version-checks the
//! document, [`refs`] refuses remote and dangling `$ref`s (every one at once, located), then
//! [`operations`], [`params`], [`schema`] and [`tool`] map it, [`emit`] writes the YAML with
//! comments, and the written text is checked by pas-spec like any spec. The same document and
//! options give the same bytes: everything is walked in document order, nothing hashed.

mod curate;
mod emit;
mod load;
mod names;
mod operations;
mod params;
mod refs;
mod report;
mod schema;
mod tokens;
mod tool;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use pas::{Args, Context as RunContext, Error, Reply};
use pas_spec::{Profile, Registry};
use serde_json::{Value, json};

pub use load::Document;
pub use report::{Notes, Problem};

/// What every mapping step reads.
pub struct Context<'a> {
    pub root: &'a Value,
    pub version: load::Version,
    /// Flags the built CLI adds by itself: no parameter may take their names.
    pub reserved_flags: Vec<String>,
    /// The API keys of the security schemes (`in`, lowercase `name`): a parameter that repeats
    /// one is the credential, which `auth` carries from the environment.
    pub api_keys: Vec<(String, String)>,
    /// The tool's environment prefix (`GITHUB_ISSUES`), for secret parameters' variables.
    pub env_prefix: String,
}

/// The choices of one import.
#[derive(Default)]
pub struct Options {
    pub name: Option<String>,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

/// One import's result: the spec's text and the report.
pub struct Imported {
    pub spec: String,
    pub report: Value,
    pub warnings: Vec<String>,
}

/// The handler of `import openapi`.
pub fn command(args: &Args, _ctx: &RunContext) -> Result<Reply, Error> {
    let doc_path = PathBuf::from(args.require::<String>("doc")?);
    let out = PathBuf::from(args.require::<String>("out")?);
    let options = Options {
        name: args.get::<String>("name")?,
        include: args.many("include")?,
        exclude: args.many("exclude")?,
    };
    // Writing the spec over the document would lose the document.
    if let (Ok(a), Ok(b)) = (
        std::fs::canonicalize(&doc_path),
        std::fs::canonicalize(&out),
    ) && a == b
    {
        return Err(Error::new(
            "WRITE_FAILED",
            format!("--out {} is the document itself", out.display()),
        )
        .with_suggestion("write the spec to another file, e.g. --out api-cli.yaml"));
    }
    let document = load::load(&doc_path)
        .map_err(|problems| problems_error(&doc_path.display().to_string(), None, problems))?;
    let imported = import(&document, &options).map_err(|problems| {
        problems_error(&doc_path.display().to_string(), Some(&document), problems)
    })?;
    crate::cmd_new::write(&out, &imported.spec)?;
    let mut value = imported.report;
    value["out"] = json!(out.display().to_string());
    let mut text = format!(
        "wrote {} ({} commands, {} o200k tokens of MCP tools/list, {} notes)",
        out.display(),
        value["commands"],
        value["tokens"]["toolsList"],
        value["notes"].as_array().map_or(0, Vec::len)
    );
    for warning in &imported.warnings {
        text.push_str(&format!("\nwarning: {warning}"));
    }
    Ok(Reply::object_with_text(&value, text))
}

/// Problems as one structured error, each with file:line:col and a hint in `details`.
fn problems_error(file: &str, document: Option<&Document>, mut problems: Vec<Problem>) -> Error {
    if let Some(document) = document {
        let source = pas_spec::Source::new(
            file,
            document.text.clone(),
            if document.json {
                pas_spec::Format::Json
            } else {
                pas_spec::Format::Yaml
            },
        );
        let map = pas_spec::SourceMap::build(&source);
        for problem in problems.iter_mut().filter(|p| p.line.is_none()) {
            let (line, column) = map.nearest(&problem.pointer);
            problem.line = Some(line);
            problem.column = Some(column);
        }
    }
    // One kind of problem has its own code; a mix is an invalid document.
    let code = match problems[0].code {
        code if problems.iter().all(|p| p.code == code) => code,
        _ => "OPENAPI_INVALID",
    };
    let first = &problems[0];
    let at = match (first.line, first.column) {
        (Some(line), Some(column)) => format!("{file}:{line}:{column}"),
        _ => file.to_owned(),
    };
    let more = if problems.len() > 1 {
        format!(" (and {} more, in details)", problems.len() - 1)
    } else {
        String::new()
    };
    let hint = first.hint.clone();
    Error::new(code, format!("{at}: {}{more}", first.message))
        .with_suggestion(hint)
        .with_details(json!({ "file": file, "problems": problems }))
}

/// Import a document read already: every step but writing the file.
pub fn import(document: &Document, options: &Options) -> Result<Imported, Vec<Problem>> {
    let root = &document.root;
    let problems = refs::check(root);
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut notes = Notes::default();
    let name = tool::name(root, options.name.as_deref());
    let env_prefix = names::upper_snake(&name);
    let context = Context {
        root,
        version: document.version,
        reserved_flags: reserved_flags(),
        api_keys: tool::api_keys(root),
        env_prefix: env_prefix.clone(),
    };
    let all = operations::collect(root);
    let filter = curate::Filter {
        include: options.include.clone(),
        exclude: options.exclude.clone(),
    };
    let total = all.len();
    let kept: Vec<_> = all.into_iter().filter(|op| filter.keeps(op)).collect();
    if kept.is_empty() {
        let (message, hint) = if total == 0 && root.get("webhooks").is_some() {
            (
                "the document has no operations under `paths`, only webhooks (requests the API makes, which a CLI does not call)",
                "an OpenAPI document to import describes at least one operation",
            )
        } else if total == 0 {
            (
                "the document has no operations under `paths`",
                "an OpenAPI document to import describes at least one operation",
            )
        } else {
            (
                "--include/--exclude leave no operation",
                "name a tag of the document or a path glob starting with `/` (e.g. `/users/**`)",
            )
        };
        return Err(vec![Problem::new("/paths", message, hint)]);
    }

    let base_url = tool::base_url(root, &env_prefix, &mut notes);
    let globals = vec![base_url.name.clone()];
    let auth = tool::auth(root, &env_prefix, &mut notes);

    // Names first (all of them), so a clash is resolved the same way whatever is mapped.
    let reserved: Vec<String> = pas_spec::surface::reserved_words()
        .map(str::to_owned)
        .collect();
    let mut taken = names::Scope::default();
    let mut rust_types = names::Scope::default();
    let mut commands = Vec::new();
    let mut comments: HashMap<String, emit::CommandComment> = HashMap::new();
    let mut uses: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut command_statuses = Vec::new();
    for operation in &kept {
        let (mut group, mut action) = operations::command_name(operation);
        if reserved.contains(&group) {
            group = format!("{group}-api");
        }
        if action == "help" {
            action = "help-op".to_owned();
        }
        let wanted = format!("{group}.{action}");
        let mut dotted = wanted.clone();
        let mut n = 2;
        while taken.is_taken(&dotted)
            || rust_types.is_taken(&pas_spec::naming::pascal_type(&dotted))
        {
            dotted = format!("{group}.{action}-{n}");
            n += 1;
        }
        taken.take(&dotted);
        rust_types.take(&pas_spec::naming::pascal_type(&dotted));
        if dotted != wanted {
            notes.add(&dotted, "renamed", &operation.pointer, format!("`{wanted}` is taken (by another operation or a built-in word): the command is `{dotted}`"));
        }
        let mapped = operations::map(&context, operation, &dotted, &globals, &mut notes);
        let mut lines = vec![format!(
            "{}{}",
            operation.title(),
            operation
                .op
                .get("operationId")
                .and_then(Value::as_str)
                .map(|id| format!("  (operationId {id})"))
                .unwrap_or_default()
        )];
        if !mapped.bindings.is_empty() {
            lines.push(
                mapped
                    .bindings
                    .iter()
                    .map(params::Binding::describe)
                    .collect::<Vec<_>>()
                    .join("; "),
            );
        }
        lines.extend(mapped.comments);
        comments.insert(dotted.clone(), emit::CommandComment { lines });
        for status in &mapped.statuses {
            let (constant, meaning) = tool::error_for(status);
            uses.entry(constant).or_insert((meaning, 0)).1 += 1;
        }
        command_statuses.push(mapped.statuses);
        commands.push(mapped.command);
    }
    aggregate_notes(&kept, &mut notes);

    let constants = uses.into_iter().map(|(c, (m, n))| (c, m, n)).collect();
    let (exit_codes, merged) = tool::exit_codes(constants, &mut notes);
    for (command, statuses) in commands.iter_mut().zip(command_statuses) {
        for status in statuses {
            let constant = tool::error_for(&status).0;
            let constant = merged.get(&constant).cloned().unwrap_or(constant);
            if !command.errors.contains(&constant) {
                command.errors.push(constant);
            }
        }
    }

    let description = root
        .pointer("/info/description")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_owned);
    let mut registry = Registry {
        spec_version: pas_spec::SPEC_VERSION,
        name,
        version: tool::version(root, &mut notes),
        summary: tool::summary(root),
        description,
        level: 2,
        profile: Profile::Pas,
        schema_version: None,
        global_flags: vec![base_url],
        exit_codes,
        anti_patterns: Vec::new(),
        examples: Vec::new(),
        resources: Vec::new(),
        robot: None,
        auth: auth.clone(),
        requirements: Vec::new(),
        changelog: Vec::new(),
        mask_high_entropy: false,
        commands,
        built: Default::default(),
    };
    if auth.is_none() {
        for command in registry.commands.iter_mut().filter(|c| c.auth) {
            command.auth = false;
            command.scopes.clear();
            notes.add(
                &command.name,
                "unsupported",
                "/security",
                "the operation needs credentials the document names no security scheme for",
            );
        }
    } else if let Some(auth) = &registry.auth {
        for command in registry.commands.iter_mut() {
            command
                .scopes
                .retain(|s| auth.scopes.iter().any(|d| &d.name == s));
        }
    }
    repair(&mut registry, &mut notes);

    let cost = tokens::measure(&registry);
    let warnings: Vec<String> = tokens::warning(&cost).into_iter().collect();
    let header = vec![
        format!("Imported by `pas-gen import openapi` from {} (OpenAPI {}).", document.file_name, document.version_text),
        format!("{} of the document's {total} operations are commands; each command's comment names its", kept.len()),
        "HTTP operation, where its parameters go, and what pas cannot say about it (the import report".to_owned(),
        "lists the same notes). Edit freely: this file is yours now.".to_owned(),
    ];
    let spec = emit::yaml(&registry, &header, &comments, &notes);

    // The written text is checked like any spec: an error here is the importer's bug.
    let source = pas_spec::Source::new("imported.yaml", spec.clone(), pas_spec::Format::Yaml);
    let (_, diagnostics) = pas_spec::check_source(&source);
    if let Some(budget) = diagnostics
        .iter()
        .find(|d| matches!(d.code, "E002" | "E009"))
    {
        let mut problem = Problem::new(
            "/paths",
            format!(
                "the spec of {} commands would be past what pas reads ({}): one tool cannot hold this document",
                registry.commands.len(),
                budget.message
            ),
            format!(
                "import one tool per group instead, e.g. {}",
                tokens::largest_groups(&cost)
            ),
        );
        problem.code = "SPEC_TOO_LARGE";
        return Err(vec![problem]);
    }
    let errors: Vec<Problem> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            Problem::new(
                d.pointer.clone(),
                format!(
                    "the imported spec fails its check: {} {}",
                    d.code, d.message
                ),
                "this is a bug of `pas-gen import openapi`: please report it with the document",
            )
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let report = json!({
        "tool": registry.name,
        "openapi": document.version_text,
        "operations": total,
        "commands": registry.commands.len(),
        "excluded": total - kept.len(),
        "tokens": { "toolsList": cost.tools_list, "budget": tokens::BUDGET },
        "warnings": warnings,
        "notes": notes.list,
    });
    Ok(Imported {
        spec,
        report,
        warnings,
    })
}

/// The flags every built CLI has (any profile's), plus `force` and `dry-run`.
fn reserved_flags() -> Vec<String> {
    let mut flags: Vec<String> = [Profile::Pas, Profile::Compose, Profile::Robot]
        .iter()
        .flat_map(|p| {
            pas_spec::surface::of(*p)
                .flags
                .iter()
                .map(|f| f.long.to_owned())
        })
        .collect();
    flags.extend(
        [
            "help",
            "version",
            "agent",
            "force",
            "dry-run",
            "yes",
            "input-file",
        ]
        .map(str::to_owned),
    );
    flags.sort();
    flags.dedup();
    flags
}

/// Notes about every operation at once (one line each, not one per operation): long
/// descriptions shortened, vendor extensions not carried over.
fn aggregate_notes(kept: &[operations::Operation], notes: &mut Notes) {
    let shortened = kept
        .iter()
        .filter(|op| {
            let summary = op.op.get("summary").and_then(Value::as_str);
            let description = op
                .op
                .get("description")
                .and_then(Value::as_str)
                .map(str::trim)
                .unwrap_or("");
            (summary.is_some() && !description.is_empty() && summary != Some(description))
                || description.contains("\n\n")
        })
        .count();
    if shortened > 0 {
        notes.add("", "changed", "/paths", format!("{shortened} operation descriptions are shortened to their summary (or first paragraph)"));
    }
    let mut extensions: BTreeMap<&str, usize> = BTreeMap::new();
    for op in kept {
        for key in op.op.as_object().into_iter().flat_map(|m| m.keys()) {
            if key.starts_with("x-")
                && !key.starts_with("x-pas-")
                && !["x-readonly", "x-read-only", "x-readOnly"].contains(&key.as_str())
            {
                *extensions.entry(key).or_default() += 1;
            }
        }
    }
    for (key, count) in extensions {
        notes.add(
            "",
            "unsupported",
            "/paths",
            format!("the vendor extension `{key}` ({count} operations) is not carried over"),
        );
    }
}

/// What the validator refuses and the importer can mend without a person: a parameter pattern
/// pas's regex engine does not read, a schema the 2020-12 meta-schema refuses (both left out,
/// noted). Anything else is reported as the importer's bug.
fn repair(registry: &mut Registry, notes: &mut Notes) {
    for _ in 0..3 {
        let diagnostics = pas_spec::validate::validate(registry);
        let mut changed = false;
        for diagnostic in diagnostics.iter().filter(|d| d.is_error()) {
            let parts: Vec<&str> = diagnostic.pointer.split('/').collect();
            let Some(index) = parts
                .get(2)
                .and_then(|i| i.parse::<usize>().ok())
                .filter(|_| parts.get(1) == Some(&"commands"))
            else {
                continue;
            };
            let Some(command) = registry.commands.get_mut(index) else {
                continue;
            };
            let name = command.name.clone();
            match (diagnostic.code, parts.get(3).copied()) {
                ("E087", Some("parameters")) => {
                    if let Some(parameter) = parts
                        .get(4)
                        .and_then(|i| i.parse::<usize>().ok())
                        .and_then(|i| command.parameters.get_mut(i))
                        && let Some(pattern) = parameter.pattern.take()
                    {
                        parameter
                            .description
                            .push_str(&format!(" Pattern: `{pattern}`."));
                        notes.add(&name, "unsupported", "", format!("the pattern of `{}` is not a regular expression pas reads; it is in the description", parameter.name));
                        changed = true;
                    }
                }
                ("E062" | "E063", Some(field @ ("outputSchema" | "inputSchema"))) => {
                    let slot = if field == "outputSchema" {
                        &mut command.output_schema
                    } else {
                        &mut command.input_schema
                    };
                    if slot.take().is_some() {
                        notes.add(&name, "unsupported", "", format!("the {field} is not a valid JSON Schema 2020-12 ({}); it is left out", diagnostic.message));
                        changed = true;
                    }
                }
                _ => {}
            }
        }
        if !changed {
            return;
        }
    }
}

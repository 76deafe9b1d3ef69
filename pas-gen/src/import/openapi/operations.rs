//! Operations to commands: the name from tags and operationId, parameters, the request body as
//! structured input, the success response as the output, error responses as error codes,
//! effects from the method (or the document's own word), pagination, credentials.

use pas_spec::{Command, Deprecation, Effect, OutputKind, Paging, StdinMode};
use serde_json::Value;

use super::Context;
use super::names::{Scope, kebab};
use super::params::{self, Binding};
use super::refs;
use super::report::{Notes, escape};
use super::schema;

/// The HTTP methods a Path Item Object may hold.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// One operation of the document, in document order.
pub struct Operation<'a> {
    pub path: &'a str,
    pub method: &'a str,
    pub op: &'a Value,
    pub item: &'a Value,
    pub pointer: String,
}

impl Operation<'_> {
    pub fn tags(&self) -> Vec<&str> {
        self.op
            .get("tags")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect()
    }

    /// `GET /pets/{id}`.
    pub fn title(&self) -> String {
        format!("{} {}", self.method.to_ascii_uppercase(), self.path)
    }
}

pub fn collect(root: &Value) -> Vec<Operation<'_>> {
    let mut operations = Vec::new();
    for (path, item) in root
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let pointer = format!("/paths/{}", escape(path));
        let (item, _) = refs::follow(root, item, &pointer);
        for (method, op) in item.as_object().into_iter().flatten() {
            if METHODS.contains(&method.as_str()) && op.is_object() {
                operations.push(Operation {
                    path,
                    method,
                    op,
                    item,
                    pointer: format!("{pointer}/{method}"),
                });
            }
        }
    }
    operations
}

/// `group.action`: the group from the first tag (else the path's first literal segment), the
/// action from the operationId (its part after `/` when it has one, as GitHub's `repos/get`),
/// else from the method and the path.
pub fn command_name(operation: &Operation) -> (String, String) {
    let group = match operation.tags().first() {
        Some(tag) => kebab(tag, true),
        None => operation
            .path
            .split('/')
            .find(|s| !s.is_empty() && !s.starts_with('{'))
            .map(|s| kebab(s, true))
            .unwrap_or_else(|| "api".to_owned()),
    };
    let action = match operation.op.get("operationId").and_then(Value::as_str) {
        Some(id) => kebab(
            strip_generated_suffix(id.rsplit('/').next().unwrap_or(id), operation),
            true,
        ),
        None => {
            let words: Vec<String> = operation
                .path
                .split('/')
                .filter(|s| !s.is_empty())
                .map(|s| kebab(s, true))
                .collect();
            kebab(&format!("{} {}", operation.method, words.join(" ")), true)
        }
    };
    (group, action)
}

/// FastAPI's generated ids repeat the path and method after the function's name
/// (`list_todos_todos_get` for `list_todos` on GET /todos): the function's name is the action.
fn strip_generated_suffix<'a>(id: &'a str, operation: &Operation) -> &'a str {
    let path: String = operation
        .path
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let suffix = format!("{path}_{}", operation.method);
    match id.strip_suffix(&suffix) {
        Some(name) if !name.is_empty() => name,
        _ => id,
    }
}

/// What the mapping of one operation gives besides its command.
pub struct Mapped {
    pub command: Command,
    pub bindings: Vec<Binding>,
    /// HTTP statuses of the error responses, in the document's order (`404`, `4XX`, `default`).
    pub statuses: Vec<String>,
    /// Extra comment lines (pagination through a Link header, the body's media type).
    pub comments: Vec<String>,
}

pub fn map(
    context: &Context,
    operation: &Operation,
    name: &str,
    globals: &[String],
    notes: &mut Notes,
) -> Mapped {
    let op = operation.op;
    let at = &operation.pointer;
    let mut comments = Vec::new();
    let description = description(op)
        .unwrap_or_else(|| format!("{} (no summary in the document).", operation.title()));
    let (effect, idempotent) = effect(operation, name, notes);
    let mut command = Command {
        name: name.to_owned(),
        path: None,
        category: None,
        description,
        effect,
        idempotent,
        rate_limit: None,
        parameters: Vec::new(),
        stdin: StdinMode::None,
        output: OutputKind::None,
        output_schema: None,
        input_schema: None,
        errors: Vec::new(),
        examples: Vec::new(),
        anti_patterns: Vec::new(),
        aliases: Vec::new(),
        deprecated: None,
        stability: Default::default(),
        dry_run: false,
        paging: None,
        session: None,
        confirm: false,
        list_field: None,
        compact_omit: Vec::new(),
        side_effects: Vec::new(),
        needs: Vec::new(),
        auth: false,
        scopes: Vec::new(),
        untrusted: Vec::new(),
        timeout: None,
        max_output_bytes: None,
        max_input_bytes: None,
        lock: None,
        job: None,
    };
    if op.get("deprecated") == Some(&Value::Bool(true)) {
        command.deprecated = Some(Deprecation {
            replacement: None,
            since: None,
            message: Some("The API marks this operation deprecated.".to_owned()),
        });
    }

    // Parameters: the path item's, overridden by the operation's of the same name and place;
    // path parameters first, in the template's order (they are positionals).
    let mut raw: Vec<(&Value, String)> = Vec::new();
    let item_pointer = at.rsplit_once('/').map_or("", |(p, _)| p).to_owned();
    for (source, pointer) in [(operation.item, item_pointer), (op, at.clone())] {
        for (index, param) in source
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let resolved = refs::follow(context.root, param, "").0;
            let key = |p: &Value| (p.get("name").cloned(), p.get("in").cloned());
            raw.retain(|(p, _)| key(refs::follow(context.root, p, "").0) != key(resolved));
            raw.push((param, format!("{pointer}/parameters/{index}")));
        }
    }
    let order = template_names(operation.path);
    raw.sort_by_key(|(p, _)| {
        let p = refs::follow(context.root, p, "").0;
        let name = p.get("name").and_then(Value::as_str).unwrap_or("");
        match p.get("in").and_then(Value::as_str) {
            Some("path") => order.iter().position(|n| n == name).unwrap_or(order.len()),
            _ => usize::MAX,
        }
    });
    let mut scope = Scope::with(
        context
            .reserved_flags
            .iter()
            .cloned()
            .chain(globals.iter().cloned()),
    );
    let mut bindings = Vec::new();
    for (param, pointer) in raw {
        if let Some((parameter, binding)) =
            params::map(context, name, param, &pointer, &mut scope, notes)
        {
            command.parameters.push(parameter);
            bindings.push(binding);
        }
    }

    request_body(context, operation, &mut command, &mut comments, notes);
    let statuses = responses(context, operation, &mut command, &mut comments, notes);
    paging(&mut command, &bindings, operation, &mut comments);
    security(context, operation, &mut command);

    for key in ["callbacks", "servers"] {
        if op.get(key).is_some() {
            notes.add(
                name,
                "unsupported",
                &format!("{at}/{key}"),
                format!("the operation's `{key}` have no place in a pas spec"),
            );
        }
    }
    Mapped {
        command,
        bindings,
        statuses,
        comments,
    }
}

/// The summary, else the first paragraph of the description: one or two sentences, as pas's
/// descriptions are (the agent reads them in every tool list).
fn description(op: &Value) -> Option<String> {
    let pick = |key: &str| {
        let text = op.get(key)?.as_str()?.trim();
        let paragraph = text
            .split("\n\n")
            .next()?
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        (!paragraph.is_empty()).then_some(paragraph)
    };
    pick("summary").or_else(|| pick("description"))
}

/// `read` for GET/HEAD/OPTIONS/TRACE, `write` for POST/PATCH, idempotent `write` for PUT,
/// idempotent `destructive` for DELETE; `x-pas-effect` (`read`, `write`, `destructive`),
/// `x-pas-idempotent`, or a `x-readonly`/`x-read-only: true` hint decide instead.
pub fn effect(operation: &Operation, name: &str, notes: &mut Notes) -> (Effect, Option<bool>) {
    let (mut effect, mut idempotent) = match operation.method {
        "get" | "head" | "options" | "trace" => (Effect::Read, None),
        "put" => (Effect::Write, Some(true)),
        "delete" => (Effect::Destructive, Some(true)),
        _ => (Effect::Write, None),
    };
    let op = operation.op;
    let said = match op.get("x-pas-effect").and_then(Value::as_str) {
        Some("read") => Some(Effect::Read),
        Some("write") => Some(Effect::Write),
        Some("destructive") => Some(Effect::Destructive),
        _ if ["x-readonly", "x-read-only", "x-readOnly"]
            .iter()
            .any(|k| op.get(k) == Some(&Value::Bool(true))) =>
        {
            Some(Effect::Read)
        }
        _ => None,
    };
    if let Some(said) = said
        && said != effect
    {
        notes.add(
            name,
            "changed",
            &operation.pointer,
            format!(
                "the document makes it `{}`, not `{}` as its method says",
                said.as_str(),
                effect.as_str()
            ),
        );
        effect = said;
        if effect == Effect::Read {
            idempotent = None;
        }
    }
    if let Some(said) = op.get("x-pas-idempotent").and_then(Value::as_bool) {
        idempotent = Some(said);
    }
    (effect, idempotent)
}

/// The `{names}` of a path template, in order.
fn template_names(path: &str) -> Vec<String> {
    path.split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(n, _)| n.to_owned()))
        .collect()
}

/// The JSON media type of a content map (`application/json`, else any `+json`, else the first).
fn pick_media(content: &serde_json::Map<String, Value>) -> Option<(&String, &Value)> {
    content
        .iter()
        .find(|(m, _)| m.as_str() == "application/json")
        .or_else(|| content.iter().find(|(m, _)| m.contains("json")))
        .or_else(|| content.iter().next())
}

/// The request body: its schema is the command's `inputSchema`, read from stdin (or the
/// runtime's `--input-file`), required when the body is.
fn request_body(
    context: &Context,
    operation: &Operation,
    command: &mut Command,
    comments: &mut Vec<String>,
    notes: &mut Notes,
) {
    let Some(body) = operation.op.get("requestBody") else {
        return;
    };
    let pointer = format!("{}/requestBody", operation.pointer);
    let (body, pointer) = refs::follow(context.root, body, &pointer);
    let required = body.get("required") == Some(&Value::Bool(true));
    command.stdin = if required {
        StdinMode::Required
    } else {
        StdinMode::Optional
    };
    let Some(content) = body.get("content").and_then(Value::as_object) else {
        return;
    };
    let Some((media, chosen)) = pick_media(content) else {
        return;
    };
    let others: Vec<&str> = content
        .keys()
        .filter(|m| *m != media)
        .map(String::as_str)
        .collect();
    if !others.is_empty() {
        notes.add(
            &command.name,
            "unsupported",
            &pointer,
            format!(
                "the body is read as `{media}`; the document also accepts {}",
                others.join(", ")
            ),
        );
    }
    if !media.contains("json") {
        comments.push(format!("body: `{media}` read from stdin"));
        notes.add(&command.name, "unsupported", &pointer, format!("the body is `{media}`, not JSON: its schema describes the fields the handler must encode"));
    }
    if let Some(schema) = chosen.get("schema") {
        let converted = schema::standalone(context.root, context.version, schema);
        for text in converted.notes {
            notes.add(&command.name, "changed", &pointer, text);
        }
        command.input_schema = Some(converted.schema);
    }
    if command.effect == pas_spec::Effect::Read {
        // pas reads structured input only for commands that change state (W014).
        command.effect = pas_spec::Effect::Write;
        notes.add(&command.name, "changed", &pointer, "a read operation with a body is `effect: write` (pas takes structured input only for commands that act)");
    }
}

/// The success response (the lowest 2xx) is the output: a JSON array is a list of its items,
/// anything else one object; no content is `none`, text a document. Error responses give the
/// statuses returned.
fn responses(
    context: &Context,
    operation: &Operation,
    command: &mut Command,
    comments: &mut Vec<String>,
    notes: &mut Notes,
) -> Vec<String> {
    let pointer = format!("{}/responses", operation.pointer);
    let Some(responses) = operation.op.get("responses").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut success: Option<(&String, &Value)> = None;
    let mut statuses = Vec::new();
    let mut redirects = Vec::new();
    for (status, response) in responses {
        match status.chars().next() {
            Some('2') if success.is_none_or(|(s, _)| status < s) => {
                success = Some((status, response));
            }
            Some('2') => {}
            Some('3') => redirects.push(status.as_str()),
            Some('4' | '5') => statuses.push(status.clone()),
            _ if status == "default" => statuses.push(status.clone()),
            _ => {}
        }
    }
    let successes: Vec<&str> = responses
        .keys()
        .filter(|s| s.starts_with('2'))
        .map(String::as_str)
        .collect();
    if successes.len() > 1 {
        let (chosen, _) = success.expect("a 2xx exists");
        notes.add(
            &command.name,
            "unsupported",
            &pointer,
            format!(
                "several success statuses ({}): the output is the {chosen} response's",
                successes.join(", ")
            ),
        );
    }
    if !redirects.is_empty() {
        notes.add(
            &command.name,
            "unsupported",
            &pointer,
            format!(
                "the {} response(s) are left to the HTTP client (redirects, not modified)",
                redirects.join(", ")
            ),
        );
    }
    let Some((status, response)) = success else {
        return statuses;
    };
    let at = format!("{pointer}/{}", escape(status));
    let (response, at) = refs::follow(context.root, response, &at);
    let headers: Vec<&str> = response
        .get("headers")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(h, _)| h.as_str())
        .collect();
    if headers.iter().any(|h| h.eq_ignore_ascii_case("link")) {
        comments.push("pages: the `Link` response header's rel=\"next\"".to_owned());
    }
    let other_headers: Vec<&str> = headers
        .iter()
        .copied()
        .filter(|h| !h.eq_ignore_ascii_case("link"))
        .collect();
    if !other_headers.is_empty() {
        notes.add(
            &command.name,
            "unsupported",
            &at,
            format!(
                "the response headers {} are not part of the output",
                other_headers.join(", ")
            ),
        );
    }
    if response.get("links").is_some() {
        notes.add(
            &command.name,
            "unsupported",
            &format!("{at}/links"),
            "response links have no place in a pas spec",
        );
    }
    let Some((media, content)) = response
        .get("content")
        .and_then(Value::as_object)
        .and_then(pick_media)
    else {
        command.output = OutputKind::None;
        return statuses;
    };
    if !media.contains("json") {
        if media.starts_with("text/") {
            command.output = OutputKind::Document;
            if !media.contains("markdown") {
                notes.add(
                    &command.name,
                    "changed",
                    &at,
                    format!("the `{media}` response is a document (pas documents are Markdown)"),
                );
            }
        } else {
            command.output = OutputKind::Object;
            notes.add(
                &command.name,
                "unsupported",
                &at,
                format!(
                    "the `{media}` response is not JSON: the handler must turn it into an object"
                ),
            );
        }
        return statuses;
    }
    command.output = OutputKind::Object;
    let Some(schema_value) = content.get("schema") else {
        return statuses;
    };
    let (resolved, _) = refs::follow(context.root, schema_value, "");
    if params::type_of(resolved) == Some(pas_spec::ParamType::Array) {
        command.output = OutputKind::List;
        let items = resolved.get("items").cloned().unwrap_or(Value::Bool(true));
        command.output_schema = Some(convert(context, &items, &command.name, &at, notes));
    } else {
        command.output_schema = Some(convert(context, schema_value, &command.name, &at, notes));
    }
    statuses
}

fn convert(context: &Context, schema: &Value, name: &str, at: &str, notes: &mut Notes) -> Value {
    let converted = schema::standalone(context.root, context.version, schema);
    for text in converted.notes {
        notes.add(name, "changed", at, text);
    }
    converted.schema
}

/// Page-size and cursor parameter names the common APIs use (by their API names, lowercase).
const LIMITS: [&str; 9] = [
    "per_page",
    "perpage",
    "page_size",
    "pagesize",
    "limit",
    "max_results",
    "maxresults",
    "size",
    "$top",
];
const CURSORS: [&str; 12] = [
    "page",
    "cursor",
    "after",
    "offset",
    "starting_after",
    "page_token",
    "pagetoken",
    "next_token",
    "nexttoken",
    "marker",
    "skip",
    "$skip",
];

/// A list with a page size and a cursor (or page, or offset) parameter pages: declared, so the
/// runtime and the agent know which flags walk the pages.
fn paging(
    command: &mut Command,
    bindings: &[Binding],
    operation: &Operation,
    comments: &mut Vec<String>,
) {
    if command.output != OutputKind::List {
        return;
    }
    let find = |names: &[&str]| {
        names.iter().find_map(|wanted| {
            bindings
                .iter()
                .find(|b| b.location == "query" && b.api_name.to_ascii_lowercase() == *wanted)
                .map(|b| b.name.clone())
        })
    };
    if let (Some(limit), Some(cursor)) = (find(&LIMITS), find(&CURSORS)) {
        command.paging = Some(Paging { limit, cursor });
    } else if operation.op.get("x-pagination").is_some() {
        comments.push("pages: as its `x-pagination` says".to_owned());
    }
}

/// The operation's security requirement (else the document's): credentials needed unless an
/// empty requirement makes them optional; OAuth scopes kept.
fn security(context: &Context, operation: &Operation, command: &mut Command) {
    let requirements = operation
        .op
        .get("security")
        .or_else(|| context.root.get("security"))
        .and_then(Value::as_array);
    let Some(requirements) = requirements else {
        return;
    };
    if requirements.is_empty()
        || requirements
            .iter()
            .any(|r| r.as_object().is_some_and(|m| m.is_empty()))
    {
        return;
    }
    command.auth = true;
    if let Some(first) = requirements.first().and_then(Value::as_object) {
        for scopes in first.values().filter_map(Value::as_array) {
            for scope in scopes.iter().filter_map(Value::as_str) {
                if !command.scopes.iter().any(|s| s == scope) {
                    command.scopes.push(scope.to_owned());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn operation<'a>(op: &'a Value, method: &'a str, path: &'a str) -> Operation<'a> {
        Operation {
            path,
            method,
            op,
            item: op,
            pointer: "/paths/x/get".to_owned(),
        }
    }

    #[test]
    fn effects_follow_the_method_unless_the_document_says_otherwise() {
        let mut notes = Notes::default();
        let plain = json!({});
        let cases = [
            ("get", (Effect::Read, None)),
            ("head", (Effect::Read, None)),
            ("post", (Effect::Write, None)),
            ("patch", (Effect::Write, None)),
            ("put", (Effect::Write, Some(true))),
            ("delete", (Effect::Destructive, Some(true))),
        ];
        for (method, expected) in cases {
            assert_eq!(
                effect(&operation(&plain, method, "/a"), "a.b", &mut notes),
                expected,
                "{method}"
            );
        }
        let said = json!({"x-pas-effect": "read"});
        assert_eq!(
            effect(&operation(&said, "post", "/search"), "a.b", &mut notes),
            (Effect::Read, None)
        );
        let hint = json!({"x-readonly": true});
        assert_eq!(
            effect(&operation(&hint, "post", "/q"), "a.b", &mut notes).0,
            Effect::Read
        );
        assert_eq!(notes.list.len(), 2);
    }

    #[test]
    fn names_come_from_tags_and_operation_ids_or_path_and_method() {
        let github = json!({"tags": ["repos"], "operationId": "repos/list-for-org"});
        assert_eq!(
            command_name(&operation(&github, "get", "/orgs/{org}/repos")),
            ("repos".to_owned(), "list-for-org".to_owned())
        );
        let camel = json!({"tags": ["Pet Store"], "operationId": "findPetsByStatus"});
        assert_eq!(
            command_name(&operation(&camel, "get", "/pet")),
            ("pet-store".to_owned(), "find-pets-by-status".to_owned())
        );
        let fastapi = json!({"tags": ["todos"], "operationId": "get_todo_todos__todo_id__get"});
        assert_eq!(
            command_name(&operation(&fastapi, "get", "/todos/{todo_id}")).1,
            "get-todo"
        );
        let bare = json!({});
        assert_eq!(
            command_name(&operation(&bare, "delete", "/pets/{id}")),
            ("pets".to_owned(), "delete-pets-id".to_owned())
        );
    }

    #[test]
    fn path_template_names_are_in_order() {
        assert_eq!(
            template_names("/repos/{owner}/{repo}/x/{id}"),
            ["owner", "repo", "id"]
        );
    }
}

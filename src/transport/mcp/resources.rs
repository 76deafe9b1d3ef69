//! Levels 3 and 4 as MCP resources: URIs are `TOOL:///PATH` (`notes:///notebooks/inbox/milk`),
//! `resources/templates/list` is the path templates that offer `cat`, `resources/list` the
//! files `ls` reaches from `/`, and `resources/read` the `cat` of the path.

use pas_spec::{Registry, Verb};
use serde_json::{Value, json};

use super::result::Collected;

/// The resource path a URI of this tool names.
pub(crate) fn path_of(tool: &str, uri: &str) -> Option<String> {
    let path = uri.strip_prefix(tool)?.strip_prefix("://")?;
    path.starts_with('/').then(|| path.to_owned())
}

/// The URI of a path.
pub(crate) fn uri_of(tool: &str, path: &str) -> String {
    format!("{tool}://{path}")
}

/// `resources/templates/list`: one URI template per path template that `cat` reads.
pub(crate) fn templates(registry: &Registry) -> Value {
    let templates: Vec<Value> = registry
        .resources
        .iter()
        .filter(|r| r.verbs.contains(&Verb::Cat))
        .map(|r| {
            let mut template = json!({
                "uriTemplate": uri_of(&registry.name, &r.path),
                "name": r.path,
                "mimeType": "application/json",
            });
            if let Some(description) = &r.description {
                template["description"] = description.clone().into();
            }
            template
        })
        .collect();
    json!({ "resourceTemplates": templates })
}

/// One `ls` entry (a file) as an MCP resource.
pub(crate) fn resource(tool: &str, entry: &Value) -> Value {
    let path = entry["path"].as_str().unwrap_or_default();
    let name = entry["name"]
        .as_str()
        .or_else(|| path.rsplit('/').next())
        .unwrap_or(path);
    let mut resource = json!({
        "uri": uri_of(tool, path),
        "name": name,
        "mimeType": "application/json",
    });
    if let Some(size) = entry["size"].as_u64() {
        resource["size"] = size.into();
    }
    resource
}

/// `resources/read`: what `cat` answered, as one text content.
pub(crate) fn contents(uri: &str, collected: Collected) -> Value {
    let (mime, text) = match collected {
        Collected::Object(value) => ("application/json", value.to_string()),
        Collected::Items(items) => ("application/json", Value::Array(items.items).to_string()),
        Collected::Document(markdown) => ("text/markdown", markdown),
        Collected::Nothing => ("text/plain", String::new()),
    };
    json!({ "contents": [{ "uri": uri, "mimeType": mime, "text": text }] })
}

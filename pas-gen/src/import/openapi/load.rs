//! Reading the document: bytes to a JSON value (YAML or JSON), and the OpenAPI version check.

use std::path::Path;

use serde_json::Value;

use super::report::Problem;

/// The largest document read (64 MiB): GitHub's whole description is 13 MB.
const MAX_DOC_BYTES: u64 = 64 * 1024 * 1024;

/// The two OpenAPI versions the importer reads; their schemas differ (3.0's `nullable`, boolean
/// `exclusiveMinimum`, `example`; 3.1 is JSON Schema 2020-12 already).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    V30,
    V31,
}

/// A document read and checked for its version.
pub struct Document {
    /// The file name alone: what the emitted spec quotes, so the bytes do not depend on where
    /// the document was (determinism across machines).
    pub file_name: String,
    /// The whole text, kept for locating problems (line:col).
    pub text: String,
    pub json: bool,
    pub root: Value,
    pub version: Version,
    /// The `openapi` field as written, e.g. `3.1.0`.
    pub version_text: String,
}

pub fn load(path: &Path) -> Result<Document, Vec<Problem>> {
    let fail = |message: String, hint: &str| vec![Problem::new("", message, hint)];
    let metadata = std::fs::metadata(path).map_err(|err| {
        fail(
            format!("cannot read {}: {err}", path.display()),
            "give the path of a local OpenAPI document (JSON or YAML); URLs are not fetched",
        )
    })?;
    if metadata.len() > MAX_DOC_BYTES {
        return Err(fail(
            format!(
                "{} is {} bytes, above the {MAX_DOC_BYTES} the importer reads",
                path.display(),
                metadata.len()
            ),
            "split the document, or import a bundled one without inlined examples",
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|err| {
        fail(
            format!("cannot read {} as UTF-8 text: {err}", path.display()),
            "an OpenAPI document is JSON or YAML text",
        )
    })?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse(file_name, text)
}

/// Parse text already read (tests give documents inline).
pub fn parse(file_name: String, text: String) -> Result<Document, Vec<Problem>> {
    let json = pas_spec::Format::sniff(&text) == pas_spec::Format::Json;
    let root: Value = if json {
        serde_json::from_str(&text).map_err(|err| {
            vec![Problem::at_line(
                err.line() as u32,
                err.column() as u32,
                format!("the document is not valid JSON: {err}"),
                "fix the JSON syntax at this position",
            )]
        })?
    } else {
        serde_saphyr::from_str(&text).map_err(|err| {
            vec![Problem::new(
                "",
                format!("the document is not valid YAML: {err}"),
                "fix the YAML syntax at the position named",
            )]
        })?
    };
    let Some(object) = root.as_object() else {
        return Err(vec![Problem::new(
            "",
            "the document is not a mapping (an OpenAPI document is one object)",
            "give an OpenAPI 3.0 or 3.1 document",
        )]);
    };
    let version_text = match object.get("openapi").and_then(Value::as_str) {
        Some(text) => text.to_owned(),
        None if object.contains_key("swagger") => {
            return Err(vec![Problem::new(
                "/swagger",
                "this is a Swagger 2.0 document; the importer reads OpenAPI 3.0 and 3.1",
                "convert it to OpenAPI 3 first (swagger2openapi and most editors do), then import it",
            )]);
        }
        None => {
            return Err(vec![Problem::new(
                "",
                "the document has no `openapi` version field",
                "an OpenAPI document starts with `openapi: 3.0.x` or `openapi: 3.1.x`",
            )]);
        }
    };
    let version = if version_text.starts_with("3.0") {
        Version::V30
    } else if version_text.starts_with("3.1") {
        Version::V31
    } else {
        return Err(vec![Problem::new(
            "/openapi",
            format!("OpenAPI {version_text} is not read by the importer"),
            "give an OpenAPI 3.0 or 3.1 document",
        )]);
    };
    Ok(Document {
        file_name,
        text,
        json,
        root,
        version,
        version_text,
    })
}

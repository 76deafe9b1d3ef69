//! The tool as a whole: its name and version from `info`, the base URL from `servers`, the
//! credentials from `securitySchemes`, and the exit codes of the error responses.

use pas_spec::declare::{Auth, Scope as AuthScope};
use pas_spec::{ExitCode, ParamKind, ParamType, Parameter};
use serde_json::Value;

use super::names::{kebab, upper_snake};
use super::report::{Notes, escape};

/// The tool's name: `--name`, else the title in kebab-case.
pub fn name(root: &Value, given: Option<&str>) -> String {
    match given {
        Some(name) => kebab(name, false),
        None => kebab(
            root.pointer("/info/title")
                .and_then(Value::as_str)
                .unwrap_or("api"),
            true,
        ),
    }
}

/// `info.version` when it is a semantic version, else 0.1.0 (noted).
pub fn version(root: &Value, notes: &mut Notes) -> String {
    let given = root
        .pointer("/info/version")
        .and_then(Value::as_str)
        .unwrap_or("");
    let core = given.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    let semver = parts.len() == 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.chars().all(|c| c.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
        })
        && given
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'));
    if semver {
        return given.to_owned();
    }
    notes.add(
        "",
        "changed",
        "/info/version",
        format!("the API version `{given}` is not a semantic version: the tool is 0.1.0"),
    );
    "0.1.0".to_owned()
}

/// A first-sentence summary (the title, or `info.summary`).
pub fn summary(root: &Value) -> String {
    let pick = |p: &str| {
        root.pointer(p)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let text = pick("/info/summary")
        .or_else(|| pick("/info/title"))
        .unwrap_or("An HTTP API");
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.ends_with('.') {
        one_line
    } else {
        format!("{one_line}.")
    }
}

/// `--base-url` with the first server's URL (its variables at their defaults) as default; an
/// environment variable overrides it.
pub fn base_url(root: &Value, env_prefix: &str, notes: &mut Notes) -> Parameter {
    let servers: Vec<&Value> = root
        .get("servers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let urls: Vec<String> = servers.iter().map(|s| expand(s)).collect();
    let default = urls.first().filter(|u| u.contains("://")).cloned();
    let mut description = "The API's base URL".to_owned();
    match (&default, urls.first()) {
        (Some(_), _) if urls.len() > 1 => description.push_str(&format!(
            "; the document also names {}",
            urls[1..].join(", ")
        )),
        (None, Some(relative)) => {
            description.push_str(&format!(" (the document's server `{relative}` is relative to where it is served: give the full URL)"));
            notes.add(
                "",
                "unsupported",
                "/servers/0/url",
                format!("the server `{relative}` is relative: --base-url has no default"),
            );
        }
        (None, None) => {
            description.push_str(" (the document names no server: give it)");
            notes.add(
                "",
                "unsupported",
                "/servers",
                "the document names no server: --base-url has no default",
            );
        }
        _ => {}
    }
    description.push('.');
    Parameter {
        name: "base-url".to_owned(),
        kind: ParamKind::Flag,
        short: None,
        ty: ParamType::String,
        items: None,
        values: None,
        required: false,
        default: default.map(Value::String),
        env: Some(format!("{env_prefix}_BASE_URL")),
        secret: false,
        description,
        rust_name: None,
        aliases: Vec::new(),
        deprecated_aliases: Vec::new(),
        minimum: None,
        maximum: None,
        min_length: None,
        max_length: None,
        pattern: None,
        requires: Vec::new(),
        conflicts: Vec::new(),
        format: None,
        agent_hardening: None,
    }
}

/// A server's URL with `{variables}` at their defaults.
fn expand(server: &Value) -> String {
    let mut url = server
        .get("url")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    for (name, variable) in server
        .get("variables")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if let Some(default) = variable.get("default").and_then(Value::as_str) {
            url = url.replace(&format!("{{{name}}}"), default);
        }
    }
    url
}

/// The credentials: one environment variable per security scheme (never a flag: argv shows up
/// in process lists and logs), OAuth scopes declared.
pub fn auth(root: &Value, env_prefix: &str, notes: &mut Notes) -> Option<Auth> {
    let schemes = root
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object)?;
    let mut auth = Auth {
        env: Vec::new(),
        methods: Vec::new(),
        login: None,
        scopes: Vec::new(),
    };
    for (name, scheme) in schemes {
        let pointer = format!("/components/securitySchemes/{}", escape(name));
        let (scheme, _) = super::refs::follow(root, scheme, &pointer);
        let kind = scheme.get("type").and_then(Value::as_str).unwrap_or("");
        // `api_key` is `TOOL_API_KEY`, not `TOOL_API_KEY_KEY`.
        let env = |suffix: &str| {
            let scheme = upper_snake(name);
            if scheme.ends_with(suffix) {
                format!("{env_prefix}_{scheme}")
            } else {
                format!("{env_prefix}_{scheme}_{suffix}")
            }
        };
        let (variable, method) = match kind {
            "apiKey" => {
                let place = scheme.get("in").and_then(Value::as_str).unwrap_or("header");
                let key = scheme.get("name").and_then(Value::as_str).unwrap_or("");
                let variable = env("KEY");
                let method = format!("set {variable} to the API key (sent in the {place} `{key}`)");
                (variable, method)
            }
            "http" => {
                let http = scheme
                    .get("scheme")
                    .and_then(Value::as_str)
                    .unwrap_or("bearer")
                    .to_ascii_lowercase();
                if http == "basic" {
                    let variable = env("CREDENTIALS");
                    (
                        variable.clone(),
                        format!("set {variable} to `user:password` (HTTP basic authentication)"),
                    )
                } else {
                    let variable = env("TOKEN");
                    (
                        variable.clone(),
                        format!("set {variable} to the token (HTTP `{http}` authentication)"),
                    )
                }
            }
            "oauth2" | "openIdConnect" => {
                let variable = env("TOKEN");
                for flow in scheme
                    .get("flows")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flat_map(|f| f.values())
                {
                    for (scope, description) in flow
                        .get("scopes")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flatten()
                    {
                        if !auth.scopes.iter().any(|s| &s.name == scope) {
                            auth.scopes.push(AuthScope {
                                name: scope.clone(),
                                description: description.as_str().unwrap_or("").to_owned(),
                            });
                        }
                    }
                }
                (
                    variable.clone(),
                    format!("set {variable} to an OAuth access token ({kind} `{name}`)"),
                )
            }
            other => {
                notes.add(
                    "",
                    "unsupported",
                    &pointer,
                    format!(
                        "the `{other}` security scheme `{name}` has no environment form in pas"
                    ),
                );
                continue;
            }
        };
        if !auth.env.contains(&variable) {
            auth.env.push(variable);
            auth.methods.push(method);
        }
    }
    (!auth.env.is_empty()).then_some(auth)
}

/// The `(in, lowercase name)` of every `apiKey` security scheme.
pub fn api_keys(root: &Value) -> Vec<(String, String)> {
    let schemes = root
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object);
    schemes
        .into_iter()
        .flatten()
        .map(|(_, scheme)| super::refs::follow(root, scheme, "").0)
        .filter(|scheme| scheme.get("type").and_then(Value::as_str) == Some("apiKey"))
        .filter_map(|scheme| {
            let place = scheme.get("in")?.as_str()?.to_owned();
            let name = scheme.get("name")?.as_str()?.to_ascii_lowercase();
            Some((place, name))
        })
        .collect()
}

/// The error constant and meaning of an HTTP status (`404`, `4XX`, `default`).
pub fn error_for(status: &str) -> (String, String) {
    let reason = match status {
        "400" => "Bad Request",
        "401" => "Unauthorized",
        "402" => "Payment Required",
        "403" => "Forbidden",
        "404" => "Not Found",
        "405" => "Method Not Allowed",
        "406" => "Not Acceptable",
        "408" => "Request Timeout",
        "409" => "Conflict",
        "410" => "Gone",
        "411" => "Length Required",
        "412" => "Precondition Failed",
        "413" => "Content Too Large",
        "414" => "URI Too Long",
        "415" => "Unsupported Media Type",
        "416" => "Range Not Satisfiable",
        "417" => "Expectation Failed",
        "418" => "Im A Teapot",
        "421" => "Misdirected Request",
        "422" => "Unprocessable Content",
        "423" => "Locked",
        "424" => "Failed Dependency",
        "425" => "Too Early",
        "426" => "Upgrade Required",
        "428" => "Precondition Required",
        "429" => "Too Many Requests",
        "431" => "Request Header Fields Too Large",
        "451" => "Unavailable For Legal Reasons",
        "500" => "Internal Server Error",
        "501" => "Not Implemented",
        "502" => "Bad Gateway",
        "503" => "Service Unavailable",
        "504" => "Gateway Timeout",
        "4XX" | "4xx" => "Client Error",
        "5XX" | "5xx" => "Server Error",
        "default" => "Api Error",
        _ => "",
    };
    if reason.is_empty() {
        return (
            format!("HTTP_{}", status.to_ascii_uppercase()),
            format!("The API answered HTTP {status}"),
        );
    }
    let constant = format!("HTTP_{}", upper_snake(reason));
    let meaning = match status {
        "default" => "The API answered an error the document does not detail".to_owned(),
        _ => format!("The API answered HTTP {status} {reason}"),
    };
    (constant, meaning)
}

/// The tool's exit codes: one per error constant in use, 100 upwards in status order, 124 (the
/// runtime's TIMEOUT) skipped. Past the 25 codes of the tool range, the rarest share the
/// client/server catch-alls (noted), which the returned map says.
pub fn exit_codes(
    mut constants: Vec<(String, String, usize)>,
    notes: &mut Notes,
) -> (Vec<ExitCode>, std::collections::BTreeMap<String, String>) {
    let mut merged = std::collections::BTreeMap::new();
    let slots: Vec<u16> = (100..=125).filter(|c| *c != 124).collect();
    if constants.len() > slots.len() {
        // Keep the most used; the others go to the catch-all of their class.
        constants.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
        let catch_alls = [error_for("4XX"), error_for("5XX"), error_for("default")];
        let keep = slots.len() - catch_alls.len();
        let rest: Vec<_> = constants.split_off(keep.min(constants.len()));
        for (constant, meaning, _) in &rest {
            let into = if meaning.contains("HTTP 4") {
                &catch_alls[0].0
            } else if meaning.contains("HTTP 5") {
                &catch_alls[1].0
            } else {
                &catch_alls[2].0
            };
            merged.insert(constant.clone(), into.clone());
            notes.add(
                "",
                "changed",
                "",
                format!("{constant} shares the exit code of {into}: the tool range holds 25 codes"),
            );
        }
        for (constant, meaning) in catch_alls {
            if !constants.iter().any(|c| c.0 == constant) {
                constants.push((constant, meaning, 0));
            }
        }
    }
    constants.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    let codes = constants
        .into_iter()
        .zip(slots)
        .map(|((name, meaning, _), code)| ExitCode {
            code,
            name,
            meaning,
            blocking: false,
            success: false,
            trigger: None,
            role: None,
        })
        .collect();
    (codes, merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn statuses_become_error_constants() {
        assert_eq!(error_for("404").0, "HTTP_NOT_FOUND");
        assert_eq!(error_for("4XX").0, "HTTP_CLIENT_ERROR");
        assert_eq!(error_for("default").0, "HTTP_API_ERROR");
        assert_eq!(error_for("499").0, "HTTP_499");
    }

    #[test]
    fn exit_codes_skip_the_runtime_timeout_and_stay_in_range() {
        let mut notes = Notes::default();
        let constants: Vec<_> = (400..430)
            .map(|s| (format!("HTTP_{s}"), format!("The API answered HTTP {s}"), 1))
            .collect();
        let (codes, merged) = exit_codes(constants, &mut notes);
        assert_eq!(codes.len(), 25);
        assert!(
            codes
                .iter()
                .all(|c| (100..=125).contains(&c.code) && c.code != 124)
        );
        assert_eq!(merged.len(), 8);
        assert_eq!(merged.values().next().unwrap(), "HTTP_CLIENT_ERROR");
    }

    #[test]
    fn servers_and_security_schemes() {
        let mut notes = Notes::default();
        let doc = json!({
            "servers": [{"url": "https://{region}.example.test/v1", "variables": {"region": {"default": "eu"}}}],
            "components": {"securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer"},
                "petstore_auth": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "x", "scopes": {"read:pets": "read your pets"}}}},
                "mtls": {"type": "mutualTLS"}
            }}
        });
        let flag = base_url(&doc, "PETS", &mut notes);
        assert_eq!(flag.default, Some(json!("https://eu.example.test/v1")));
        assert_eq!(flag.env.as_deref(), Some("PETS_BASE_URL"));
        let auth = auth(&doc, "PETS", &mut notes).unwrap();
        assert_eq!(
            auth.env,
            ["PETS_BEARER_AUTH_TOKEN", "PETS_PETSTORE_AUTH_TOKEN"]
        );
        assert_eq!(auth.scopes[0].name, "read:pets");
        assert_eq!(notes.list.len(), 1, "mutualTLS is noted");
    }
}

//! Resource paths (PAS 5.1, 5.3): what an agent types, normalised, and matched against the
//! registry's path templates (`/collections/{collection}/docs/{id}`).
//!
//! Normalising is the same for every tool, so handlers never see the variants PAS allows: the
//! root is `/` whether typed as `/` or as an empty string, a trailing slash is dropped, repeated
//! slashes are one, and a path without its leading slash gets one. A backslash (PAS forbids it
//! as a separator), a NUL, or a `.` or `..` segment is refused rather than guessed at.

use pas_spec::{Registry, Resource};

use crate::codes;
use crate::error::Error;

/// A normalised resource path and, when a resource template matches it, that template and the
/// values of its placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourcePath {
    path: String,
    template: Option<String>,
    params: Vec<(String, String)>,
}

impl ResourcePath {
    /// `raw` normalised and matched against the registry's resources (the first matching
    /// template in spec order wins). A path no template matches is still a path: the runtime
    /// answers `ls` and `stat` of the directories above the templates itself.
    pub fn resolve(registry: &Registry, raw: &str) -> Result<ResourcePath, Error> {
        let path = normalise(raw)?;
        let matched = registry
            .resources
            .iter()
            .find_map(|resource| matches(&resource.path, &path).map(|params| (resource, params)));
        Ok(match matched {
            Some((resource, params)) => ResourcePath {
                path,
                template: Some(resource.path.clone()),
                params,
            },
            None => ResourcePath {
                path,
                template: None,
                params: Vec::new(),
            },
        })
    }

    /// The path, normalised: `/`, or `/a/b` without a trailing slash.
    pub fn as_str(&self) -> &str {
        &self.path
    }

    /// The resource template this path matched, e.g. `/collections/{collection}`.
    pub fn template(&self) -> Option<&str> {
        self.template.as_deref()
    }

    /// The value of a placeholder of the matched template: `param("id")` of
    /// `/collections/books/docs/42` under `/collections/{collection}/docs/{id}` is `42`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Every placeholder with its value, in template order.
    pub fn params(&self) -> &[(String, String)] {
        &self.params
    }

    /// The path's segments (none for the root).
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.path.split('/').filter(|s| !s.is_empty())
    }

    /// Whether this is the root, `/`.
    pub fn is_root(&self) -> bool {
        self.path == "/"
    }

    /// The last segment (empty for the root).
    pub fn name(&self) -> &str {
        self.segments().last().unwrap_or("")
    }

    /// The path of a child: `/a` and `b` give `/a/b`.
    pub fn child(&self, name: &str) -> String {
        join(&self.path, name)
    }

    /// Whether the path holds a wildcard (`*`, `?` or `[`): `rm` refuses one without `--force`,
    /// and a handler given one decides what it matches (see [`wildcard_matches`]).
    pub fn is_pattern(&self) -> bool {
        self.path.contains(['*', '?', '['])
    }

    /// The resource this path matched, in the registry.
    pub(crate) fn resource<'a>(&self, registry: &'a Registry) -> Option<&'a Resource> {
        let template = self.template.as_deref()?;
        registry.resources.iter().find(|r| r.path == template)
    }
}

/// `/a` and `b` give `/a/b`; `/` and `b` give `/b`.
pub(crate) fn join(parent: &str, name: &str) -> String {
    if parent.ends_with('/') {
        format!("{parent}{name}")
    } else {
        format!("{parent}/{name}")
    }
}

impl std::fmt::Display for ResourcePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path)
    }
}

/// PAS 5.3's spellings of one path, made one.
pub(crate) fn normalise(raw: &str) -> Result<String, Error> {
    let refuse = |why: &str| {
        Error::new(
            codes::INVALID_ARGUMENT,
            format!("the resource path {raw:?} {why}"),
        )
        .with_suggestion(
            "write paths with forward slashes, e.g. `/collections/books`; `/` is the root",
        )
    };
    if raw.contains('\\') {
        return Err(refuse(
            "contains a backslash, which is not a path separator",
        ));
    }
    if raw.contains('\0') {
        return Err(refuse("contains a NUL byte"));
    }
    if let Some(error) = url_spelling(raw) {
        return Err(error);
    }
    let segments: Vec<&str> = raw.split('/').filter(|s| !s.is_empty()).collect();
    if segments.iter().any(|s| *s == "." || *s == "..") {
        return Err(refuse("has a `.` or `..` segment; give the path itself"));
    }
    Ok(format!("/{}", segments.join("/")))
}

/// A path spelt as part of a URL, which agents write and people rarely do (failure modes 34
/// and 35): a percent-encoded byte (`acme%2Fwidgets`), a query (`users?active=true`) or a
/// fragment (`repos/main#readme`). Refused rather than looked up literally and reported
/// missing; no other path is offered in its place (`/a` is not what `/a#b` names), the error
/// says which spelling to drop. A lone `?` stays a wildcard (`rm '/logs/a?'`).
fn url_spelling(raw: &str) -> Option<Error> {
    let (pattern, why) = if raw.contains('#') {
        ("fragment", "has a `#` fragment")
    } else if raw
        .find('?')
        .is_some_and(|at| raw[at..].split('/').next().is_some_and(|q| q.contains('=')))
    {
        ("query_string", "has a `?key=value` query")
    } else if pas_spec::hardening::has_percent_escape(raw) {
        ("percent_encoding", "is percent-encoded")
    } else {
        return None;
    };
    Some(
        Error::new(
            codes::INVALID_ARGUMENT,
            format!("the resource path {raw:?} {why}; resource paths are not URLs"),
        )
        .with_suggestion(
            "give the resource path itself, as `ls` lists it: not percent-encoded, without a query or a fragment",
        )
        .with_details(serde_json::json!({ "input": raw, "rejected_pattern": pattern })),
    )
}

/// The placeholder values when `path` fits `template`, segment by segment. A placeholder takes
/// a whole segment or, beside literal text in the same segment (`{name}.json`), the part
/// between the literals; it never spans a `/`.
pub(crate) fn matches(template: &str, path: &str) -> Option<Vec<(String, String)>> {
    let wanted: Vec<&str> = template.split('/').filter(|s| !s.is_empty()).collect();
    let given: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if wanted.len() != given.len() {
        return None;
    }
    let mut params = Vec::new();
    for (pattern, segment) in wanted.iter().zip(&given) {
        params.extend(segment_matches(pattern, segment)?);
    }
    Some(params)
}

/// One segment against one template segment.
pub(crate) fn segment_matches(pattern: &str, segment: &str) -> Option<Vec<(String, String)>> {
    let mut params = Vec::new();
    let mut rest = segment;
    let mut pattern = pattern;
    loop {
        match pattern.find('{') {
            None => return (rest == pattern).then_some(params),
            Some(open) => {
                let literal = &pattern[..open];
                rest = rest.strip_prefix(literal)?;
                let close = pattern[open..].find('}')? + open;
                let name = &pattern[open + 1..close];
                pattern = &pattern[close + 1..];
                // The value runs to the next literal (the segment's literal tail, when no
                // placeholder follows) and is never empty: `/docs/` is not `/docs/{id}`.
                let end = match pattern.find('{') {
                    None if rest.ends_with(pattern) => rest.len() - pattern.len(),
                    None => return None,
                    // Two placeholders side by side: the first takes one character.
                    Some(0) => 1.min(rest.len()),
                    Some(next) => rest.find(&pattern[..next])?,
                };
                if end == 0 {
                    return None;
                }
                params.push((name.to_owned(), rest[..end].to_owned()));
                rest = &rest[end..];
            }
        }
    }
}

/// Whether a template segment is literal text (no placeholder).
pub(crate) fn is_literal(segment: &str) -> bool {
    !segment.contains('{')
}

/// Whether `name` fits a shell-style wildcard: `*` any run of characters, `?` one character,
/// `[abc]` one of a set (`[!abc]` or `[^abc]` none of it). For handlers that expand the
/// wildcard an agent gave to `rm --force`.
pub fn wildcard_matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    glob(&pattern, &name)
}

fn glob(pattern: &[char], name: &[char]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some(('*', rest)) => (0..=name.len()).any(|skip| glob(rest, &name[skip..])),
        Some(('?', rest)) => !name.is_empty() && glob(rest, &name[1..]),
        Some(('[', rest)) => match rest.iter().position(|c| *c == ']') {
            Some(close) if !name.is_empty() => {
                let (negated, set) = match rest[..close].split_first() {
                    Some(('!' | '^', set)) => (true, set),
                    _ => (false, &rest[..close]),
                };
                set.contains(&name[0]) != negated && glob(&rest[close + 1..], &name[1..])
            }
            Some(_) => false,
            // An unclosed `[` is a literal.
            None => name.first() == Some(&'[') && glob(rest, &name[1..]),
        },
        Some((c, rest)) => name.first() == Some(c) && glob(rest, &name[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_the_spellings_pas_allows() {
        for (raw, want) in [
            ("", "/"),
            ("/", "/"),
            ("//", "/"),
            ("/users", "/users"),
            ("/users/", "/users"),
            ("users/", "/users"),
            ("/a//b/", "/a/b"),
        ] {
            assert_eq!(normalise(raw).unwrap(), want, "{raw:?}");
        }
    }

    #[test]
    fn refuses_url_spellings_and_offers_no_other_path() {
        for (raw, pattern) in [
            ("/acme%2Fwidgets", "percent_encoding"),
            ("/users?active=true", "query_string"),
            ("/repos/main#readme", "fragment"),
        ] {
            let error = normalise(raw).unwrap_err();
            assert_eq!(error.code(), codes::INVALID_ARGUMENT, "{raw:?}");
            let details = error.details().unwrap();
            assert_eq!(details["rejected_pattern"], pattern, "{raw:?}");
            assert_eq!(details["input"], raw);
            assert!(details.get("corrected_input").is_none(), "{details}");
        }
        // A wildcard `?` and a lone `%` are not URL spellings.
        assert_eq!(normalise("/logs/a?").unwrap(), "/logs/a?");
        assert_eq!(normalise("/100%").unwrap(), "/100%");
    }

    #[test]
    fn refuses_backslashes_dots_and_nul() {
        for raw in ["\\users", "/a/../b", "/a/./b", "/a\0b"] {
            let error = normalise(raw).unwrap_err();
            assert_eq!(error.code(), codes::INVALID_ARGUMENT, "{raw:?}");
        }
    }

    #[test]
    fn matches_templates_segment_by_segment() {
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        assert_eq!(matches("/", "/"), Some(Vec::new()));
        assert_eq!(matches("/collections", "/collections"), Some(Vec::new()));
        assert_eq!(
            matches("/c/{collection}/docs/{id}", "/c/books/docs/42"),
            Some(pairs(&[("collection", "books"), ("id", "42")]))
        );
        assert_eq!(
            matches("/files/{name}.json", "/files/a.b.json"),
            Some(pairs(&[("name", "a.b")]))
        );
        assert_eq!(
            matches("/files/{name}.json", "/files/x.json.json"),
            Some(pairs(&[("name", "x.json")]))
        );
        assert_eq!(matches("/files/{name}.json", "/files/.json"), None);
        assert_eq!(matches("/files/{name}.json", "/files/x.txt"), None);
        assert_eq!(matches("/c/{collection}", "/c"), None);
        assert_eq!(matches("/c/{collection}", "/c/a/b"), None);
        assert_eq!(matches("/c/{collection}", "/d/a"), None);
    }

    #[test]
    fn wildcards() {
        assert!(wildcard_matches("*", "anything"));
        assert!(wildcard_matches("a*.json", "abc.json"));
        assert!(!wildcard_matches("a*.json", "abc.jsonl"));
        assert!(wildcard_matches("doc-?", "doc-1"));
        assert!(!wildcard_matches("doc-?", "doc-12"));
        assert!(wildcard_matches("[ab]1", "b1"));
        assert!(!wildcard_matches("[!ab]1", "b1"));
        assert!(wildcard_matches("[x", "[x"));
    }
}

//! `--include` and `--exclude`: a tag (as written, or in kebab-case) or a path glob (starting
//! with `/`: `*` is one segment or part of one, `**` any number of segments).

use super::names::kebab;
use super::operations::Operation;

pub struct Filter {
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

impl Filter {
    pub fn keeps(&self, operation: &Operation) -> bool {
        let matches = |pattern: &String| matches(pattern, operation);
        (self.include.is_empty() || self.include.iter().any(matches))
            && !self.exclude.iter().any(matches)
    }
}

fn matches(pattern: &str, operation: &Operation) -> bool {
    if pattern.starts_with('/') {
        return glob(pattern.as_bytes(), operation.path.as_bytes());
    }
    operation
        .tags()
        .iter()
        .any(|tag| *tag == pattern || kebab(tag, true) == pattern)
}

/// Glob matching on bytes: `**` crosses `/`, `*` does not.
pub fn glob(pattern: &[u8], text: &[u8]) -> bool {
    match pattern {
        [] => text.is_empty(),
        [b'*', b'*', rest @ ..] => (0..=text.len()).any(|i| glob(rest, &text[i..])),
        [b'*', rest @ ..] => {
            let segment = text.iter().position(|b| *b == b'/').unwrap_or(text.len());
            (0..=segment).any(|i| glob(rest, &text[i..]))
        }
        [first, rest @ ..] => text.first() == Some(first) && glob(rest, &text[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn path_globs() {
        assert!(glob(b"/repos/**", b"/repos/{owner}/{repo}"));
        assert!(glob(b"/repos/*/{repo}", b"/repos/{owner}/{repo}"));
        assert!(!glob(b"/repos/*", b"/repos/{owner}/{repo}"));
        assert!(glob(b"/pets*", b"/pets"));
        assert!(!glob(b"/pets", b"/pets/{id}"));
    }

    #[test]
    fn include_and_exclude_by_tag_or_path() {
        let op = json!({"tags": ["Pet Store"]});
        let operation = Operation {
            path: "/pets/{id}",
            method: "get",
            op: &op,
            item: &op,
            pointer: String::new(),
        };
        let filter = |include: &[&str], exclude: &[&str]| Filter {
            include: include.iter().map(|s| s.to_string()).collect(),
            exclude: exclude.iter().map(|s| s.to_string()).collect(),
        };
        assert!(filter(&[], &[]).keeps(&operation));
        assert!(filter(&["pet-store"], &[]).keeps(&operation));
        assert!(filter(&["Pet Store"], &[]).keeps(&operation));
        assert!(!filter(&["users"], &[]).keeps(&operation));
        assert!(!filter(&["pet-store"], &["/pets/*"]).keeps(&operation));
    }
}

//! The directories above the resource templates, which no handler serves: the root `/` of a
//! tool whose resources start at `/collections`, or `/collections/books/docs` between
//! `/collections/{collection}` and `/collections/{collection}/docs/{id}`. Their children are
//! known from the templates alone when they are literal words; a placeholder child can only be
//! listed by a handler.

use pas_spec::{Registry, Verb};

use super::path::{is_literal, join, segment_matches};
use super::types::Entry;

/// What the templates say about a path no template matches.
#[derive(Debug, PartialEq)]
pub(crate) enum Above {
    /// A directory above some templates whose children are these literal words.
    Listed(Vec<Entry>),
    /// A directory above some templates whose children are placeholders (`{id}`): no handler
    /// lists them at this path. Holds the templates of those children.
    Unlisted(Vec<String>),
    /// Nothing: no template lies below this path.
    Nothing,
}

fn segments(path: &str) -> Vec<&str> {
    path.split('/').filter(|s| !s.is_empty()).collect()
}

/// Whether `template`'s first segments fit `path`'s segments.
fn below(template: &[&str], path: &[&str]) -> bool {
    template.len() > path.len()
        && template
            .iter()
            .zip(path)
            .all(|(pattern, segment)| segment_matches(pattern, segment).is_some())
}

/// The children of `path` as the templates below it describe them.
pub(crate) fn above(registry: &Registry, path: &str) -> Above {
    let given = segments(path);
    let mut listed: Vec<Entry> = Vec::new();
    let mut unlisted: Vec<String> = Vec::new();
    let depth = given.len();
    for resource in &registry.resources {
        let template = segments(&resource.path);
        if !below(&template, &given) {
            continue;
        }
        let word = template[depth];
        if !is_literal(word) {
            unlisted.push(resource.path.clone());
            continue;
        }
        let child = join(path, word);
        // A directory when something lies below it, or when its own resource lists it.
        let deeper = template.len() > depth + 1;
        let lists = !deeper && resource.verbs.contains(&Verb::Ls);
        let entry = if deeper || lists {
            Entry::dir(child)
        } else {
            Entry::file(child)
        };
        match listed.iter_mut().find(|e| e.path == entry.path) {
            // Seen as a file from its own template and as a directory from a deeper one.
            Some(seen) if entry.kind == super::types::Kind::Dir => *seen = entry,
            Some(_) => {}
            None => listed.push(entry),
        }
    }
    if !listed.is_empty() {
        Above::Listed(listed)
    } else if !unlisted.is_empty() {
        Above::Unlisted(unlisted)
    } else {
        Above::Nothing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pas_spec::Resource;
    use serde_json::json;

    fn registry(resources: &[(&str, &[Verb])]) -> Registry {
        let mut registry: Registry = serde_json::from_value(json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "t", "commands": []
        }))
        .unwrap();
        registry.resources = resources
            .iter()
            .map(|(path, verbs)| Resource {
                path: (*path).to_owned(),
                description: None,
                verbs: verbs.to_vec(),
            })
            .collect();
        registry
    }

    #[test]
    fn the_root_lists_the_first_literal_words() {
        let reg = registry(&[
            ("/collections", &[Verb::Ls]),
            ("/collections/{c}", &[Verb::Ls]),
            ("/about", &[Verb::Cat]),
        ]);
        assert_eq!(
            above(&reg, "/"),
            Above::Listed(vec![Entry::dir("/collections"), Entry::file("/about")])
        );
    }

    #[test]
    fn a_directory_between_templates() {
        let reg = registry(&[
            ("/collections/{c}", &[Verb::Ls]),
            ("/collections/{c}/docs/{id}", &[Verb::Cat]),
        ]);
        assert_eq!(
            above(&reg, "/collections/books"),
            Above::Listed(vec![Entry::dir("/collections/books/docs")])
        );
        assert_eq!(
            above(&reg, "/collections/books/docs"),
            Above::Unlisted(vec!["/collections/{c}/docs/{id}".to_owned()])
        );
        assert_eq!(above(&reg, "/elsewhere"), Above::Nothing);
        assert_eq!(above(&reg, "/collections/books/docs/1"), Above::Nothing);
    }
}

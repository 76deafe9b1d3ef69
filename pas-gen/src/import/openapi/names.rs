//! The document's names made into pas's spellings: kebab-case words for commands and flags,
//! UPPER_SNAKE_CASE for constants and environment variables, each unique in its scope.

use std::collections::HashSet;

/// Words of a name: split at anything not a letter or digit, and at camelCase humps when
/// `camel` (operation ids, `petId`); header names keep their humps (`X-GitHub-Api`).
fn words(text: &str, camel: bool) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (index, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if camel && c.is_ascii_uppercase() && !current.is_empty() {
            let previous = chars[index - 1];
            let next_lower = chars.get(index + 1).is_some_and(|n| n.is_ascii_lowercase());
            // `petId` splits before `I`; `HTTPServer` before `S` (the last capital of a run).
            if previous.is_ascii_lowercase()
                || previous.is_ascii_digit()
                || (previous.is_ascii_uppercase() && next_lower)
            {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `listPets`, `list_pets`, `List Pets` are `list-pets`; never empty, always starting with a
/// letter (`2fa` is `n2fa`), as pas's kebab-case requires.
pub fn kebab(text: &str, camel: bool) -> String {
    let joined = words(text, camel).join("-");
    match joined.chars().next() {
        None => "x".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("n{joined}"),
        Some(_) => joined,
    }
}

/// `bearerAuth` is `BEARER_AUTH`.
pub fn upper_snake(text: &str) -> String {
    let joined = words(text, true).join("_").to_ascii_uppercase();
    match joined.chars().next() {
        None => "X".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("N{joined}"),
        Some(_) => joined,
    }
}

/// Names given out in one scope: a second `name` becomes `name-2`, and so on.
#[derive(Default)]
pub struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    pub fn with(taken: impl IntoIterator<Item = String>) -> Scope {
        Scope {
            taken: taken.into_iter().collect(),
        }
    }

    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name)
    }

    /// `name` if free, else the first free `name-N`; taken from now on.
    pub fn claim(&mut self, name: &str) -> String {
        let mut candidate = name.to_owned();
        let mut n = 2;
        while self.taken.contains(&candidate) {
            candidate = format!("{name}-{n}");
            n += 1;
        }
        self.taken.insert(candidate.clone());
        candidate
    }

    pub fn take(&mut self, name: &str) {
        self.taken.insert(name.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_kebab_case() {
        assert_eq!(kebab("listPets", true), "list-pets");
        assert_eq!(kebab("per_page", true), "per-page");
        assert_eq!(kebab("HTTPServer", true), "http-server");
        assert_eq!(kebab("X-GitHub-Api-Version", false), "x-github-api-version");
        assert_eq!(kebab("list-for-org", true), "list-for-org");
        assert_eq!(kebab("2fa", true), "n2fa");
        assert_eq!(kebab("$top", true), "top");
        assert_eq!(kebab("", true), "x");
        assert_eq!(upper_snake("bearerAuth"), "BEARER_AUTH");
    }

    #[test]
    fn a_taken_name_gets_a_number() {
        let mut scope = Scope::with(["help".to_owned()]);
        assert_eq!(scope.claim("help"), "help-2");
        assert_eq!(scope.claim("help"), "help-3");
        assert_eq!(scope.claim("page"), "page");
    }
}

//! The templates of a scaffolded project: embedded in the binary (`pas-gen/templates/` of the
//! repository), each replaceable by a file of the same name in `--templates DIR`.

use std::path::Path;

use minijinja::{Environment, UndefinedBehavior};

use super::escape;

/// Every template: its name, and where its output goes in the project.
pub const TEMPLATES: &[(&str, &str, &str)] = &[
    (
        "Cargo.toml.j2",
        "Cargo.toml",
        include_str!("../../templates/Cargo.toml.j2"),
    ),
    (
        "gitignore.j2",
        ".gitignore",
        include_str!("../../templates/gitignore.j2"),
    ),
    (
        "README.md.j2",
        "README.md",
        include_str!("../../templates/README.md.j2"),
    ),
    (
        "main.rs.j2",
        "src/main.rs",
        include_str!("../../templates/main.rs.j2"),
    ),
    (
        "handlers.rs.j2",
        "src/handlers.rs",
        include_str!("../../templates/handlers.rs.j2"),
    ),
    (
        "contract.rs.j2",
        CONTRACT_RS,
        include_str!("../../templates/contract.rs.j2"),
    ),
    (
        "my_tests.rs.j2",
        "tests/my_tests.rs",
        include_str!("../../templates/my_tests.rs.j2"),
    ),
];

/// The contract test, relative to the project: `@generated`, so `generate` refreshes it.
pub const CONTRACT_RS: &str = "tests/contract.rs";

/// The environment with every template (overridden from `dir` where it has one) and the
/// escaping filters. Undefined variables are errors, so a template cannot print nothing by a
/// typo.
pub fn environment(dir: Option<&Path>) -> Result<Environment<'static>, String> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .keep_trailing_newline(true)
        .build()
        .map_err(|e| e.to_string())?;
    env.set_syntax(syntax);
    // No auto-escaping: none of these files is HTML, and each value is escaped by a filter.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    escape::install(&mut env);
    for (name, _, builtin) in TEMPLATES {
        let source = match dir.map(|dir| dir.join(name)) {
            Some(path) if path.exists() => std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read template {}: {e}", path.display()))?,
            _ => (*builtin).to_owned(),
        };
        env.add_template_owned(*name, source)
            .map_err(|e| format!("template {name}: {e}"))?;
    }
    Ok(env)
}

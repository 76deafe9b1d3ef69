//! The example specs of `specs/` and their documentation: each spec is valid and shows what it
//! is there to show, and `specs/README.md` agrees with the code (its example validates, it
//! documents every key, its table of diagnostic codes is `pas_spec::diagnostic_codes::CODES`).

mod common;

use std::path::Path;

use pas_spec::diagnostic_codes::CODES;
use pas_spec::load::{Format, Source};
use pas_spec::{Effect, OutputKind, ParamKind, ParamType, Profile, Registry, Verb};

use common::{example_specs, load, readme_example, specs_dir, stem};

const MODELINE: &str = "# yaml-language-server: $schema=./pas-spec.schema.json\n";

/// Every diagnostic of a source, errors and warnings, one per line.
fn diagnostics(name: &str, text: &str) -> Vec<String> {
    let source = Source::new(name, text, Format::Yaml);
    let (registry, diagnostics) = pas_spec::check_source(&source);
    assert!(registry.is_some() || !diagnostics.is_empty());
    diagnostics
        .iter()
        .map(|d| {
            let at = d
                .location
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            format!(
                "{at} {} {}: {} ({:?})",
                d.code, d.pointer, d.message, d.hint
            )
        })
        .collect()
}

/// The examples are what people copy: not one error, not one warning.
#[test]
fn example_specs_are_clean() {
    for path in example_specs() {
        let text = std::fs::read_to_string(&path).unwrap();
        let found = diagnostics(&path.display().to_string(), &text);
        assert!(
            found.is_empty(),
            "{}:\n{}",
            path.display(),
            found.join("\n")
        );
    }
}

#[test]
fn readme_example_is_clean() {
    let found = diagnostics("specs/README.md", &readme_example());
    assert!(
        found.is_empty(),
        "the README's example:\n{}",
        found.join("\n")
    );
}

#[test]
fn example_specs_open_with_the_schema_modeline() {
    for path in example_specs() {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with(MODELINE),
            "{} must start with {MODELINE}",
            path.display()
        );
    }
    assert!(readme_example().starts_with(MODELINE));
}

fn spec(name: &str) -> Registry {
    load(&specs_dir().join(format!("{name}.yaml")))
}

/// PAS Appendix A, key for key.
#[test]
fn word_counter_is_the_pas_appendix() {
    let tool = spec("word-counter");
    assert_eq!((tool.level, tool.profile), (2, Profile::Pas));
    assert_eq!(tool.commands.len(), 1);
    let count = &tool.commands[0];
    assert_eq!(count.path, Some(Vec::new()), "a single-command tool");
    assert_eq!(count.output, OutputKind::List);
    let files = &count.parameters[0];
    assert_eq!(
        (files.name.as_str(), files.kind, files.ty, files.required),
        ("files", ParamKind::Variadic, ParamType::String, true)
    );
    let schema = count.output_schema.as_ref().unwrap();
    assert_eq!(schema["properties"]["file"]["type"], "string");
    assert_eq!(schema["properties"]["words"]["type"], "integer");
    let codes: Vec<(u16, &str)> = tool
        .exit_codes
        .iter()
        .map(|c| (c.code, c.name.as_str()))
        .collect();
    assert_eq!(codes, [(100, "FILE_NOT_FOUND"), (101, "FILE_NOT_READABLE")]);
    let patterns: Vec<&str> = tool.examples.iter().map(|e| e.command.as_str()).collect();
    assert_eq!(
        patterns,
        [
            "word-counter --agent file.txt",
            "find . -name \"*.md\" | xargs word-counter --agent",
            "word-counter --agent *.txt | jq -s 'map(.words) | add'",
        ]
    );
    assert_eq!(
        tool.anti_patterns[0].pattern,
        "word-counter *.txt > out.txt"
    );
}

#[test]
fn weather_keeps_its_key_secret() {
    let tool = spec("weather");
    assert_eq!((tool.level, tool.profile), (2, Profile::Pas));
    let key = tool
        .global_flags
        .iter()
        .find(|p| p.name == "api-key")
        .unwrap();
    assert!(key.secret);
    assert_eq!(key.env.as_deref(), Some("WEATHER_API_KEY"));
    assert_eq!(key.default, None);
    let units = tool
        .global_flags
        .iter()
        .find(|p| p.name == "units")
        .unwrap();
    assert!(units.values.is_some());
    assert!(tool.commands.iter().all(|c| c.rate_limit.is_some()));
    let days = tool
        .commands
        .iter()
        .flat_map(|c| &c.parameters)
        .find(|p| p.name == "days");
    assert_eq!(days.unwrap().ty, ParamType::Integer);
    for (code, name) in [
        (100, "CITY_NOT_FOUND"),
        (103, "UPSTREAM_TIMEOUT"),
        (104, "NETWORK_ERROR"),
        (105, "RATE_LIMITED"),
    ] {
        assert!(
            tool.exit_codes
                .iter()
                .any(|c| (c.code, c.name.as_str()) == (code, name))
        );
    }
}

#[test]
fn todo_is_a_compose_crud_tool() {
    let tool = spec("todo");
    assert_eq!((tool.level, tool.profile), (2, Profile::Compose));
    let names: Vec<&str> = tool.commands.iter().map(|c| c.name.as_str()).collect();
    for name in [
        "task.create",
        "task.list",
        "task.get",
        "task.update",
        "task.done",
        "task.delete",
    ] {
        assert!(names.contains(&name), "{name}");
    }
    for command in &tool.commands {
        assert_eq!(
            command.dry_run,
            command.effect != Effect::Read,
            "{}",
            command.name
        );
    }
    let command = |name: &str| tool.commands.iter().find(|c| c.name == name).unwrap();
    assert_eq!(command("task.delete").effect, Effect::Destructive);
    assert!(command("task.create").input_schema.is_some());
    assert!(command("task.update").input_schema.is_some());
    let list = command("task.list");
    assert_eq!(list.output, OutputKind::List);
    let paging = list.paging.as_ref().unwrap();
    assert_eq!(
        (paging.limit.as_str(), paging.cursor.as_str()),
        ("limit", "cursor")
    );
    let db = &tool.global_flags[0];
    assert_eq!(
        (db.name.as_str(), db.env.as_deref()),
        ("db", Some("TODO_DB"))
    );
    let blocking: Vec<&str> = tool
        .exit_codes
        .iter()
        .filter(|c| c.blocking)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        blocking,
        [
            "STORE_UNAVAILABLE",
            "SCHEMA_TOO_NEW",
            "STORE_PATH_INVALID",
            "STORE_CORRUPT",
            "STORE_READ_ONLY"
        ]
    );
}

#[test]
fn docstore_offers_every_verb() {
    let tool = spec("docstore");
    assert_eq!((tool.level, tool.profile), (4, Profile::Pas));
    let offered: Vec<Verb> = Verb::ALL
        .into_iter()
        .filter(|verb| tool.resources.iter().any(|r| r.verbs.contains(verb)))
        .collect();
    assert_eq!(offered, Verb::ALL);
    assert!(!tool.commands.is_empty(), "at least one ordinary command");
    let all: Vec<String> = tool.all_commands().into_iter().map(|c| c.name).collect();
    assert_eq!(
        all,
        [
            "search", "ls", "cat", "stat", "cp", "rm", "sync", "feedback"
        ]
    );
}

/// The verb commands pas builds pass the validator as if a person had written them: names,
/// parameters, output schemas and examples that parse.
#[test]
fn synthesised_verbs_are_valid_commands() {
    let mut tool = spec("docstore");
    tool.commands = tool.all_commands();
    // Without resources the verbs are ordinary commands; levels 3 and 4 need resources.
    tool.resources.clear();
    tool.level = 2;
    let found: Vec<String> = pas_spec::validate::validate(&tool)
        .iter()
        .map(|d| format!("{} {}: {}", d.code, d.pointer, d.message))
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Every key of the format (every property of the JSON Schema) is documented in the README.
#[test]
fn readme_documents_every_key() {
    let readme = std::fs::read_to_string(specs_dir().join("README.md")).unwrap();
    let schema = pas_spec::schema::spec_schema();
    let mut owners = vec![&schema];
    owners.extend(schema["$defs"].as_object().unwrap().values());
    for owner in owners {
        for key in owner["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            assert!(
                readme.contains(&format!("| `{key}` |")),
                "specs/README.md has no table row for the key `{key}`"
            );
        }
    }
}

/// The README's table of codes, as Markdown.
fn codes_table() -> String {
    let mut table = String::from("| code | problem |\n|---|---|\n");
    for (code, summary) in CODES {
        // A `|` would end the cell.
        table.push_str(&format!("| `{code}` | {} |\n", summary.replace('|', "\\|")));
    }
    table
}

#[test]
fn readme_lists_every_diagnostic_code() {
    let path = specs_dir().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let heading = "\n## Diagnostic codes\n";
    let start = readme
        .find(heading)
        .expect("the README has a Diagnostic codes section");
    let section = &readme[start + heading.len()..];
    let table_start = start + heading.len() + section.find("| code |").expect("a table");
    // The table runs to the first line that is not a table row.
    let table_len = readme[table_start..]
        .split_inclusive('\n')
        .take_while(|line| line.starts_with('|'))
        .map(str::len)
        .sum::<usize>();
    let table = &readme[table_start..table_start + table_len];
    let expected = codes_table();
    if table == expected {
        return;
    }
    if std::env::var_os("UPDATE_README").is_some() {
        let updated = format!(
            "{}{expected}{}",
            &readme[..table_start],
            &readme[table_start + table_len..]
        );
        std::fs::write(&path, updated).unwrap();
        return;
    }
    let listed: Vec<&str> = table.lines().skip(2).collect();
    let missing: Vec<String> = expected
        .lines()
        .skip(2)
        .filter(|line| !listed.contains(line))
        .map(str::to_owned)
        .collect();
    panic!(
        "specs/README.md's table of diagnostic codes differs from pas_spec::diagnostic_codes::CODES; \
         rows missing or different:\n{}\nRefresh it with \
         `UPDATE_README=1 cargo test -p pas-spec --test specs`.",
        missing.join("\n")
    );
}

/// Keep `stem` and `Path` used here the same way as in the other test files.
#[test]
fn example_spec_names() {
    let names: Vec<String> = example_specs().iter().map(|p| stem(p)).collect();
    assert_eq!(
        names,
        ["docstore", "pt-agent", "todo", "weather", "word-counter"]
    );
    assert!(
        Path::new(&specs_dir())
            .join("pas-spec.schema.json")
            .exists()
    );
}

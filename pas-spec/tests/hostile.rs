//! Hostile input: each gets its code and a clear, one-line, located message, quickly, without a
//! panic and without reading or building more than the loader's limits allow.

use std::io::Read;

use pas_spec::{Diagnostic, Format, Source, SourceMap, load};

/// A valid spec whose first command ends with `outputSchema:` waiting for a value (indented 6).
const YAML_HEAD: &str = "\
specVersion: 1
name: demo
version: 0.1.0
summary: A demo tool.
commands:
  - name: task.list
    description: List tasks.
    outputSchema:
";

/// A valid JSON spec whose first command's `outputSchema` is `SCHEMA`.
const JSON_WITH_SCHEMA: &str = r#"{"specVersion": 1, "name": "demo", "version": "0.1.0",
"summary": "A demo tool.", "commands": [{"name": "task.list", "description": "List tasks.",
"outputSchema": SCHEMA}]}"#;

fn parse_error(source: &Source) -> Diagnostic {
    match load::parse(source) {
        Ok(_) => panic!("{} parsed", source.name),
        Err(diagnostic) => diagnostic,
    }
}

fn read_error(path: &std::path::Path) -> Diagnostic {
    match load::read_path(path) {
        Ok(source) => panic!("{} was read: {} bytes", source.name, source.text.len()),
        Err(diagnostic) => diagnostic,
    }
}

/// A one-sentence message: one line, no parser snippet, of bounded length.
fn assert_clear(diagnostic: &Diagnostic) {
    assert!(!diagnostic.message.is_empty());
    assert!(!diagnostic.message.contains('\n'), "{diagnostic:?}");
    assert!(diagnostic.message.chars().count() <= 301, "{diagnostic:?}");
    if let Some(hint) = &diagnostic.hint {
        assert!(!hint.contains('\n'), "{diagnostic:?}");
    }
}

fn yaml(text: impl Into<String>) -> Source {
    Source::new("hostile.yaml", text, Format::Yaml)
}

fn json(text: impl Into<String>) -> Source {
    Source::new("hostile.json", text, Format::Json)
}

#[test]
fn deep_yaml_flow_nesting_exceeds_the_budget() {
    for text in [
        "[".repeat(100_000),
        format!("{YAML_HEAD}      {}", "[".repeat(100_000)),
        format!("{YAML_HEAD}      {}1{}\n", "[".repeat(65), "]".repeat(65)),
    ] {
        let d = parse_error(&yaml(text));
        assert_eq!(d.code, "E009", "{d:?}");
        assert_eq!(d.message, "the document nests deeper than 64 levels");
        assert!(d.location.is_some());
        assert_clear(&d);
    }
}

#[test]
fn nesting_up_to_the_limit_is_accepted() {
    // The spec's mapping, `commands`, the command: 3 levels, so 61 more make 64.
    let deep = format!("{YAML_HEAD}      {}1{}\n", "[".repeat(61), "]".repeat(61));
    assert!(load::parse(&yaml(deep)).is_ok());
    let deep =
        JSON_WITH_SCHEMA.replace("SCHEMA", &format!("{}1{}", "[".repeat(61), "]".repeat(61)));
    assert!(load::parse(&json(deep)).is_ok());
}

#[test]
fn deep_yaml_block_nesting_exceeds_the_budget() {
    let mut text = YAML_HEAD.to_owned();
    for depth in 6..206 {
        text.push_str(&" ".repeat(depth));
        text.push_str("k:\n");
    }
    let d = parse_error(&yaml(text));
    assert_eq!(d.code, "E009", "{d:?}");
    assert_clear(&d);
}

#[test]
fn deep_json_nesting_exceeds_the_budget() {
    for text in [
        "[".repeat(100_000),
        format!("{{\"a\": {}", "{\"a\": ".repeat(100_000)),
        JSON_WITH_SCHEMA.replace("SCHEMA", &"[".repeat(100_000)),
        JSON_WITH_SCHEMA.replace("SCHEMA", &format!("{}1{}", "[".repeat(65), "]".repeat(65))),
    ] {
        let d = parse_error(&json(text));
        assert_eq!(d.code, "E009", "{d:?}");
        assert_eq!(d.message, "the document nests deeper than 64 levels");
        assert!(d.location.is_some());
        assert_clear(&d);
    }
}

/// The classic "billion laughs": nine levels of nine aliases each to the level before.
fn billion_laughs(indent: &str) -> String {
    let mut text = format!(
        "{indent}a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
    );
    let names: Vec<char> = ('a'..='i').collect();
    for pair in names.windows(2) {
        let (previous, name) = (pair[0], pair[1]);
        let refs = vec![format!("*{previous}"); 9].join(",");
        text.push_str(&format!("{indent}{name}: &{name} [{refs}]\n"));
    }
    text
}

#[test]
fn an_alias_bomb_is_refused() {
    let d = parse_error(&yaml(format!("{YAML_HEAD}{}", billion_laughs("      "))));
    assert_eq!(d.code, "E009", "{d:?}");
    assert!(d.message.contains("alias"), "{d:?}");
    assert!(d.location.is_some());
    assert_clear(&d);
}

#[test]
fn an_alias_bomb_at_the_top_is_refused_before_it_expands() {
    // The first unknown key stops the load before any alias is replayed.
    let d = parse_error(&yaml(billion_laughs("")));
    assert_eq!(d.code, "E007", "{d:?}");
    assert_clear(&d);
    // The source map does not expand aliases at all.
    let map = SourceMap::build(&yaml(billion_laughs("")));
    assert_eq!(map.position("/i/8"), Some((9, 32)));
    assert_eq!(map.position("/i/8/0"), None);
}

#[test]
fn a_100_mb_file_is_refused_by_its_size() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("huge.yaml");
    let file = std::fs::File::create(&path).expect("create");
    // A sparse file: 100 MB long without writing 100 MB; the loader must not read it.
    file.set_len(100 * 1024 * 1024).expect("set_len");
    let d = read_error(&path);
    assert_eq!(d.code, "E002", "{d:?}");
    assert!(d.message.contains("104857600 bytes"), "{d:?}");
    assert!(d.message.contains("16 MiB"), "{d:?}");
    assert_clear(&d);
}

#[test]
fn an_endless_reader_is_cut_at_the_limit() {
    // Like a FIFO or /dev/zero: no size to check, so the read itself must stop.
    let endless = std::io::repeat(b'a');
    let d = match load::read_reader("<stdin>", endless) {
        Ok(_) => panic!("an endless stream was read"),
        Err(d) => d,
    };
    assert_eq!(d.code, "E002", "{d:?}");
    assert_clear(&d);
}

#[test]
fn a_huge_text_in_memory_is_refused_by_parse() {
    let big = "#".repeat(usize::try_from(load::MAX_SPEC_BYTES).unwrap_or(usize::MAX) + 1);
    let d = parse_error(&yaml(big));
    assert_eq!(d.code, "E002", "{d:?}");
}

#[test]
fn a_file_at_the_limit_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.yaml");
    let limit = usize::try_from(load::MAX_SPEC_BYTES).unwrap_or(usize::MAX);
    let mut text = YAML_HEAD.replace("    outputSchema:\n", "");
    text.push_str(&"#".repeat(limit - text.len()));
    std::fs::write(&path, &text).expect("write");
    let source = load::read_path(&path).expect("a spec of exactly the limit is accepted");
    assert_eq!(source.text.len(), limit);
}

#[test]
fn invalid_utf8_is_located_at_the_first_bad_byte() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("latin1.yaml");
    std::fs::write(&path, b"specVersion: 1\nname: d\xE9mo\n").expect("write");
    let d = read_error(&path);
    assert_eq!(d.code, "E003", "{d:?}");
    let location = d.location.clone().expect("located");
    assert_eq!((location.line, location.column), (2, 8));
    assert_eq!(location.file, path.display().to_string());
    assert_clear(&d);
    // The temporary directory differs on every run; the snapshot keeps the file name.
    let mut d = d;
    if let Some(location) = &mut d.location {
        location.file = "latin1.yaml".to_owned();
    }
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn utf8_columns_count_characters() {
    let d = match load::read_reader(
        "<stdin>",
        "é€: \u{1F600}\u{FF}".as_bytes().chain(&b"\xFF"[..]),
    ) {
        Ok(_) => panic!("read"),
        Err(d) => d,
    };
    assert_eq!(d.code, "E003");
    let location = d.location.expect("located");
    // é, €, :, space, 😀, ÿ are six characters before the bad byte.
    assert_eq!((location.line, location.column), (1, 7));
}

#[test]
fn utf16_is_recognised_in_the_hint() {
    let bytes: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("a: 1".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let d = match load::read_reader("<stdin>", bytes.as_slice()) {
        Ok(_) => panic!("read"),
        Err(d) => d,
    };
    assert_eq!(d.code, "E003");
    assert!(d.hint.unwrap_or_default().contains("UTF-16"));
}

#[test]
fn empty_and_blank_files_are_empty() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases: [(&str, &str); 5] = [
        ("empty.yaml", ""),
        ("blank.yaml", "  \n\t\n\r\n   "),
        ("comments.yaml", "# a spec, one day\n\n   # not yet\n"),
        ("markers.yaml", "---\n# nothing\n...\n"),
        ("empty.json", "\n\n"),
    ];
    for (name, text) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        let d = read_error(&path);
        assert_eq!(d.code, "E004", "{name}: {d:?}");
        assert_eq!(d.location.map(|l| (l.line, l.column)), Some((1, 1)));
        // parse says the same of a source built in memory.
        let d = parse_error(&yaml(text));
        assert_eq!(d.code, "E004", "{name}: {d:?}");
    }
}

#[test]
fn a_directory_is_not_a_spec() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = read_error(dir.path());
    assert_eq!(d.code, "E001", "{d:?}");
    assert!(d.message.contains("is a directory"), "{d:?}");
    assert_clear(&d);
}

#[test]
fn a_missing_path_cannot_be_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("nowhere.yaml");
    let d = read_error(&path);
    assert_eq!(d.code, "E001", "{d:?}");
    assert!(d.message.contains("no such file"), "{d:?}");
    assert!(d.message.contains("nowhere.yaml"), "{d:?}");
    assert_clear(&d);
    let d = match load::load_path(&path) {
        Ok(_) => panic!("loaded"),
        Err(d) => d,
    };
    assert_eq!(d.code, "E001");
}

/// Deterministic noise (a xorshift generator), so the test is the same on every run.
fn noise(len: usize, mut state: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect()
}

#[test]
fn random_binary_is_not_utf8() {
    let dir = tempfile::tempdir().expect("tempdir");
    for seed in 1..=20u64 {
        let path = dir.path().join(format!("noise{seed}.bin"));
        std::fs::write(&path, noise(4096, seed)).expect("write");
        let d = read_error(&path);
        assert_eq!(d.code, "E003", "{d:?}");
        assert_clear(&d);
    }
}

#[test]
fn random_ascii_noise_fails_cleanly() {
    for seed in 1..=50u64 {
        let text: String = noise(2048, seed)
            .into_iter()
            .map(|b| char::from(b % 128))
            .collect();
        for source in [yaml(text.clone()), json(text)] {
            if let Err(d) = load::parse(&source) {
                assert!(d.code.starts_with("E00"), "{d:?}");
                assert!(d.location.is_some(), "{d:?}");
                assert_clear(&d);
            }
            let _ = SourceMap::build(&source);
        }
    }
}

#[test]
fn several_yaml_documents_are_refused() {
    let spec = YAML_HEAD.replace("    outputSchema:\n", "");
    let d = parse_error(&yaml(format!("{spec}---\n{spec}")));
    assert_eq!(d.code, "E005", "{d:?}");
    assert_eq!(d.message, "the file holds more than one YAML document");
    // The spec is lines 1-7, `---` line 8: the second document starts on line 9.
    assert_eq!(d.location.map(|l| l.line), Some(9));
    // Many documents: the same error, not a budget breach.
    let d = parse_error(&yaml(format!("{spec}{}", "---\na: 1\n".repeat(5000))));
    assert_eq!(d.code, "E005", "{d:?}");
}

#[test]
fn a_nul_byte_is_a_located_syntax_error() {
    for source in [
        yaml("specVersion: 1\nname: de\0mo\n"),
        json("{\"specVersion\": 1,\n\"name\": \"de\0mo\"}"),
    ] {
        let d = parse_error(&source);
        assert_eq!(d.code, "E005", "{d:?}");
        assert_eq!(d.location.as_ref().map(|l| l.line), Some(2), "{d:?}");
        assert!(
            d.message.contains("\\u{0}") || d.message.contains("control character"),
            "{d:?}"
        );
        assert_clear(&d);
    }
}

#[test]
fn a_huge_key_is_cut_in_the_message() {
    let key = "k".repeat(1_000_000);
    let d = parse_error(&json(format!("{{\"specVersion\": 1, \"{key}\": 1}}")));
    assert_eq!(d.code, "E007", "{d:?}");
    assert!(d.message.contains("kkk…"), "{d:?}");
    assert_clear(&d);
    // YAML does not allow a key of more than 1024 characters without `?`.
    let d = parse_error(&yaml(format!("specVersion: 1\n\"{key}\": 1\n")));
    assert_eq!(d.code, "E005", "{d:?}");
    assert_clear(&d);
}

#[test]
fn a_flood_of_nodes_exceeds_the_budget() {
    let items = "0,".repeat(load::MAX_NODES + 10);
    for source in [
        yaml(format!("{YAML_HEAD}      [{items}0]\n")),
        json(JSON_WITH_SCHEMA.replace("SCHEMA", &format!("[{items}0]"))),
    ] {
        let d = parse_error(&source);
        assert_eq!(d.code, "E009", "{d:?}");
        assert_clear(&d);
    }
}

#[test]
fn control_characters_in_keys_are_escaped() {
    let d = parse_error(&yaml("specVersion: 1\n\"bad\\u001b[31mkey\": 1\n"));
    assert_eq!(d.code, "E007");
    assert!(!d.message.contains('\u{1b}'), "{d:?}");
    assert!(d.message.contains("\\u{1b}"), "{d:?}");
}

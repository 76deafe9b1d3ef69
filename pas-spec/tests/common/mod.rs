//! What the integration tests share: where the example specs live and how to read them.

// Each test binary compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use pas_spec::Registry;
use pas_spec::load::{self, Format, Source};

/// The repository's `specs/` folder.
pub fn specs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs")
}

/// Every example spec (`specs/*.yaml`), sorted by file name.
pub fn example_specs() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(specs_dir())
        .expect("specs/ exists")
        .map(|entry| entry.expect("specs/ is readable").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 4,
        "expected the example specs in specs/, found {paths:?}"
    );
    paths
}

/// The file name without `.yaml`, e.g. `todo`.
pub fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Read and parse a spec file with the real loader; any diagnostic fails the test.
pub fn load(path: &Path) -> Registry {
    match load::load_path(path) {
        Ok((_, registry)) => registry,
        Err(diagnostic) => panic!("{} does not load: {diagnostic:?}", path.display()),
    }
}

/// Parse spec text with the real loader; any diagnostic fails the test.
pub fn parse(name: &str, text: &str, format: Format) -> Registry {
    match load::parse(&Source::new(name, text, format)) {
        Ok(registry) => registry,
        Err(diagnostic) => panic!("{name} does not parse: {diagnostic:?}\n{text}"),
    }
}

/// The annotated example of `specs/README.md`: the first ```yaml block after its heading.
pub fn readme_example() -> String {
    let readme = std::fs::read_to_string(specs_dir().join("README.md")).expect("specs/README.md");
    let section = readme
        .split_once("\n## A complete example")
        .expect("specs/README.md has a `## A complete example` section")
        .1;
    let block = section
        .split_once("```yaml\n")
        .expect("the example section has a ```yaml block")
        .1;
    block
        .split_once("\n```")
        .expect("the yaml block is closed")
        .0
        .to_owned()
        + "\n"
}

//! Finding the workspace and building the binaries a benchmark runs, in release mode.

use std::path::PathBuf;
use std::process::Command;

/// The workspace root (the bench crate sits one level below it).
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ has a parent")
        .to_path_buf()
}

/// Build `package` in release mode and return the path of its binary `bin`.
pub fn release_binary(package: &str, bin: &str) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--release", "-p", package, "--bin", bin])
        .current_dir(workspace())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building {package} failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace().join("target"), PathBuf::from);
    target.join("release").join(bin)
}

/// Build `package`'s binary `bin` in release mode with `cargo_args` added (feature flags, e.g.
/// `--no-default-features`) and copy it to `<target>/release/pas-bench-builds/<bin>-<label>`, so that
/// builds of one binary with different features can be measured side by side (the next build
/// overwrites `target/release/<bin>`).
pub fn release_binary_as(package: &str, bin: &str, cargo_args: &[&str], label: &str) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--release", "-p", package, "--bin", bin])
        .args(cargo_args)
        .current_dir(workspace())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building {package} {cargo_args:?} failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace().join("target"), PathBuf::from);
    let built = target.join("release").join(bin);
    let dir = target.join("release").join("pas-bench-builds");
    std::fs::create_dir_all(&dir).expect("create target/release/pas-bench-builds");
    let copy = dir.join(format!("{bin}-{label}"));
    std::fs::copy(&built, &copy).expect("copy the built binary");
    copy
}

/// The size in bytes of `binary` once stripped of symbols and debug information (`strip`, as a
/// release profile's `strip = true` would), measured on a copy.
pub fn stripped_size(binary: &std::path::Path) -> u64 {
    let out = binary.with_extension("stripped");
    let status = Command::new("strip")
        .arg("-o")
        .arg(&out)
        .arg(binary)
        .status()
        .expect("strip runs (binutils)");
    assert!(status.success(), "strip {} failed", binary.display());
    let size = std::fs::metadata(&out).expect("the stripped copy").len();
    let _ = std::fs::remove_file(&out);
    size
}

/// Whether a program is on PATH.
pub fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A scratch directory for the suite `suite` holding `words.txt`, `lines` copies of one
/// English line (100 lines: the 4 KiB file the start-up rows count). Returns the directory,
/// which the suite removes when it ends, and the file's path as a command argument.
pub fn words_file(suite: &str, lines: usize) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("pas-bench-{suite}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("words.txt");
    std::fs::write(
        &file,
        "the quick brown fox jumps over the lazy dog\n".repeat(lines),
    )
    .expect("write the counted file");
    let file = file.display().to_string();
    (dir, file)
}

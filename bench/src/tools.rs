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

/// Whether a program is on PATH.
pub fn on_path(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

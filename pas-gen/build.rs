//! Seeds scaffolds' `Cargo.lock` with this workspace's (issue 14: a scaffold made in a checkout
//! builds offline with the versions already fetched here). Built from its package (`cargo
//! install pas-gen`) there is no workspace lockfile beside the crate; the seed is then empty and
//! a scaffold resolves its own lockfile, as any new project does.

use std::path::Path;

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let workspace_lock = Path::new(&manifest_dir).join("../Cargo.lock");
    println!("cargo:rerun-if-changed={}", workspace_lock.display());
    // A packaged pas-gen unpacks beside other crates, never inside this workspace: only a lockfile
    // that sits beside this crate's own workspace manifest counts.
    let in_workspace = Path::new(&manifest_dir)
        .join("../pas-gen/pas-gen.yaml")
        .is_file()
        && Path::new(&manifest_dir).join("../Cargo.toml").is_file();
    let seed = if in_workspace {
        std::fs::read_to_string(&workspace_lock).unwrap_or_default()
    } else {
        String::new()
    };
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("workspace.lock");
    std::fs::write(out, seed).expect("OUT_DIR is writable");
}

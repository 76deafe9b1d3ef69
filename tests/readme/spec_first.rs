mod spec {
    pas::include_spec!("specs/word-counter.yaml"); // relative to Cargo.toml
}

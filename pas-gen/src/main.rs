//! pas-gen: check, document and scaffold pas specs.
fn main() {}

//! What the derive's compile-time checks call: plain `const fn`s, since they run in a `const`.

/// Whether `declared` holds `name` (byte for byte), usable in a `const`.
pub const fn declares(declared: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < declared.len() {
        if same(declared[i].as_bytes(), name.as_bytes()) {
            return true;
        }
        i += 1;
    }
    false
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_exact_names_only() {
        // Evaluated at compile time, as the derive's checks are.
        const { assert!(super::declares(&["NOT_FOUND", "TAKEN"], "TAKEN")) };
        assert!(!super::declares(&["NOT_FOUND"], "NOT_FOUN"));
        assert!(!super::declares(&[], "X"));
    }
}

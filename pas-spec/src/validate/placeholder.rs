//! What a placeholder value looks like. Both the examples' argv check and the secrets rule ask it,
//! and the examples check calls the secrets rule, so it lives apart from both.

/// A value that stands for one: `<id>`, `$TOKEN`, `${TOKEN}`, a glob such as `*.txt`, or `...`.
pub fn is_placeholder(value: &str) -> bool {
    value.len() > 2 && value.starts_with('<') && value.ends_with('>')
        || value.len() > 1 && value.starts_with('$')
        || value.contains(['*', '?'])
        || value == "..."
}

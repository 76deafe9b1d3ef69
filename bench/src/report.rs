//! Writing a benchmark's table into BENCHMARKS.md, between markers that name the benchmark, so
//! each benchmark refreshes its own section and leaves the others alone.

use std::path::Path;

/// Replace (or append) the section `<!-- bench:NAME -->` ... `<!-- /bench:NAME -->`.
pub fn update_section(file: &Path, name: &str, body: &str) -> std::io::Result<()> {
    let start = format!("<!-- bench:{name} -->");
    let end = format!("<!-- /bench:{name} -->");
    let old = std::fs::read_to_string(file).unwrap_or_else(|_| "# Benchmarks\n".to_owned());
    let section = format!("{start}\n{body}{end}");
    let new = match (old.find(&start), old.find(&end)) {
        (Some(a), Some(b)) if a < b => format!("{}{}{}", &old[..a], section, &old[b + end.len()..]),
        _ => format!("{}\n{}\n", old.trim_end(), section),
    };
    std::fs::write(file, new)
}

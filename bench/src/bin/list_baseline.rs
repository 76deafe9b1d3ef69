//! The list baseline: `COUNT` items written by hand with serde_json and a BufWriter, the
//! fastest NDJSON a program can reasonably write. `list_runtime list --count N` is measured
//! against `list_baseline N`; both build the same item (with the same allocation for its name).

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use serde::Serialize;

#[derive(Serialize)]
struct Item {
    id: u64,
    name: String,
}

fn main() -> ExitCode {
    let count: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    // The runtime's buffer size, so the ratio measures the runtime and not a buffer size.
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    for id in 0..count {
        let item = Item {
            id,
            name: format!("item-{id}"),
        };
        if serde_json::to_writer(&mut out, &item).is_err() || out.write_all(b"\n").is_err() {
            // A closed pipe ends the baseline as it ends the runtime: quietly.
            return ExitCode::SUCCESS;
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}

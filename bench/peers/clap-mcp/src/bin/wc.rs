//! The word counter with clap-mcp: a clap `Parser` enum with `#[derive(ClapMcp)]` and one `run`
//! shared by the CLI and the MCP server (`--mcp`), as the crate documentation's quick start
//! writes it. `run` answers the counts as structured output (`AsStructured`) or an error text;
//! clap-mcp has no exit codes for tool errors, so the CLI maps an error to exit 1 itself.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use clap::Parser;
use clap_mcp::{AsStructured, ClapMcp, ParseOrServeMcp};
use serde::Serialize;

/// Count the words in files.
#[derive(Debug, Parser, ClapMcp)]
#[clap_mcp(reinvocation_safe, parallel_safe = false)]
#[clap_mcp_output_from = "run"]
#[command(name = "wc-clap-mcp", version, subcommand_required = true)]
enum Cli {
    /// Count the words in each file, one result per file in the order given.
    Count {
        /// The files to count.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// The word count of one file.
#[derive(Debug, Serialize)]
struct FileCount {
    file: String,
    words: u64,
}

/// Words as `wc -w` counts them in the C locale (the rule every peer shares).
fn words(mut reader: impl BufRead) -> std::io::Result<u64> {
    let (mut count, mut in_word) = (0u64, false);
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(count);
        }
        for &byte in chunk {
            let space = matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
            count += u64::from(!space && !in_word);
            in_word = !space;
        }
        let len = chunk.len();
        reader.consume(len);
    }
}

fn run(cli: Cli) -> Result<AsStructured<Vec<FileCount>>, String> {
    let Cli::Count { files } = cli;
    let mut counts = Vec::new();
    for path in files {
        let file = path.display().to_string();
        let words = std::fs::File::open(&path)
            .and_then(|f| words(BufReader::new(f)))
            .map_err(|err| format!("{file}: {err}"))?;
        counts.push(FileCount { file, words });
    }
    Ok(AsStructured(counts))
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse_or_serve_mcp();
    match run(cli) {
        Ok(AsStructured(counts)) => {
            for count in counts {
                println!(
                    "{}",
                    serde_json::to_string(&count).expect("a count serializes")
                );
            }
            std::process::ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            std::process::ExitCode::FAILURE
        }
    }
}

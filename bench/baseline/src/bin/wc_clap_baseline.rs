//! The start-up baseline for `word-counter`: the same job (count the words of each file, one
//! JSON line per file) written by hand with clap's derive and serde_json, and nothing else.
//! `word-counter --agent FILE` is measured against `wc_clap_baseline FILE`, and
//! `word-counter --agent --help` against `wc_clap_baseline --help`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use serde::Serialize;

/// Count the words in files.
#[derive(Parser)]
#[command(name = "wc-clap-baseline", version)]
struct Cli {
    /// The files to count.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Serialize)]
struct FileCount<'a> {
    file: &'a str,
    words: u64,
}

/// Words as `wc -w` counts them in the C locale (the same rule as word-counter).
fn words(mut reader: impl BufRead) -> io::Result<u64> {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = io::stdout().lock();
    for path in &cli.files {
        let Ok(words) = File::open(path).and_then(|f| words(BufReader::new(f))) else {
            return ExitCode::from(100);
        };
        let name = path.to_string_lossy();
        let line = FileCount { file: &name, words };
        if serde_json::to_writer(&mut out, &line).is_err() || out.write_all(b"\n").is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

//! The word counter with incurs: one typed command, as incurs' README writes one. The files come
//! in as an argument, each count is a JSON object (`--format jsonl` prints one per line), and a
//! file that cannot be read is a structured error with its own exit code.

use std::io::{BufRead, BufReader};

use incurs::cli::Cli;
use incurs::command::{CommandDef, TypedContext, TypedResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, incurs::Args)]
struct CountArgs {
    /// The files to count.
    files: Vec<String>,
}

/// The word count of one file.
#[derive(JsonSchema, Serialize)]
struct FileCount {
    /// The file as named on the command line.
    file: String,
    /// Number of whitespace-separated words.
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

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let count = CommandDef::typed::<CountArgs, (), (), Vec<FileCount>, _, _>(
        "count",
        |ctx: TypedContext<CountArgs, (), ()>| async move {
            let mut counts = Vec::new();
            for file in ctx.args.files {
                let counted = std::fs::File::open(&file).and_then(|f| words(BufReader::new(f)));
                match counted {
                    Ok(words) => counts.push(FileCount { file, words }),
                    Err(err) => {
                        let code = if err.kind() == std::io::ErrorKind::NotFound {
                            ("FILE_NOT_FOUND", 100)
                        } else {
                            ("FILE_NOT_READABLE", 101)
                        };
                        return TypedResult::Error {
                            code: code.0.to_owned(),
                            message: format!("{file}: {err}"),
                            retryable: false,
                            exit_code: Some(code.1),
                            cta: None,
                        };
                    }
                }
            }
            TypedResult::ok(counts)
        },
    )
    .description("Count the words in each file, one result per file in the order given.")
    .done();

    Cli::create("wc-incurs")
        .version("1.0.0")
        .description("Count the words in files.")
        .command("count", count)
        .serve()
        .await
}

//! The word counter with agcli: one command on the builder, as agcli's README writes one. The
//! answer is agcli's envelope, whose `result` is the list of counts (`CommandOutput::list`); a
//! file that cannot be read is a typed error with its exit code and fix.

use std::io::{BufRead, BufReader};

use agcli::{AgentCli, Command, CommandError, CommandOutput, ErrorCode, ExitCode};
use serde::Serialize;

/// The word count of one file.
#[derive(Serialize)]
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

fn cli() -> AgentCli {
    AgentCli::new("wc-agcli", "Count the words in files")
        .version("1.0.0")
        .command(
            Command::new(
                "count",
                "Count the words in each file, one result per file in the order given",
            )
            .usage("wc-agcli count <files...>")
            .handler(|req| async move {
                req.require_arg(0, "files")?;
                let mut counts = Vec::new();
                for file in req.positionals() {
                    let counted = std::fs::File::open(file).and_then(|f| words(BufReader::new(f)));
                    let words = counted.map_err(|err| {
                        let (code, exit) = if err.kind() == std::io::ErrorKind::NotFound {
                            ("FILE_NOT_FOUND", ExitCode::NOT_FOUND)
                        } else {
                            ("FILE_NOT_READABLE", ExitCode::ERROR)
                        };
                        CommandError::new(
                            ErrorCode::new(code),
                            format!("{file}: {err}"),
                            "Pass files that exist and can be read.",
                        )
                        .exit_code(exit)
                    })?;
                    let count = FileCount {
                        file: file.clone(),
                        words,
                    };
                    counts.push(serde_json::to_value(count).expect("a count serializes"));
                }
                Ok(CommandOutput::list(counts))
            }),
        )
}

#[tokio::main]
async fn main() {
    cli().run_env().await.finish()
}

//! `word-counter`, the complete example of the PAS standard (Appendix A), built code-first:
//! clap's `Parser` derive for the command line, `#[derive(AgentTool)]` for what clap has no
//! notion of (exit codes, examples, the output's type), and one handler that never prints.
//!
//! ```text
//! $ word-counter README.md
//! README.md: 1250 words
//! $ word-counter --agent README.md LICENSE.md
//! {"file":"README.md","words":1250}
//! {"file":"LICENSE.md","words":450}
//! $ word-counter --agent nonexistent.txt    # exit 100, nothing on stdout
//! {"error":"FILE_NOT_FOUND","message":"File not found: nonexistent.txt","code":100,...}   (stderr)
//! ```
//!
//! The library half exists so that tests can build the same registry the binary prints.

#![deny(missing_docs)]

mod count;
mod item;

use std::fs::File;
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};

use clap::Parser;
use pas::{AgentTool, App, Context, Error, Reply};
use serde_json::json;

pub use item::FileCount;

/// Count the words in files.
///
/// word-counter prints the number of words in each file it is given. With --agent it writes one
/// JSON object per file (JSON Lines) and reports errors as JSON on stderr.
#[derive(Debug, Parser, AgentTool)]
// `about` and `help` are given as well as the doc comments so that the registry keeps their final
// periods (clap drops a one-line doc comment's), exactly as `specs/word-counter.yaml` writes them.
#[command(name = "word-counter", version, about = "Count the words in files.")]
#[agent(
    level = 2,
    profile = "pas",
    exit_code(100, FILE_NOT_FOUND, "File not found", "word-counter --agent no-such-file.txt"),
    exit_code(101, FILE_NOT_READABLE, "File not readable"),
    example("word-counter --agent file.txt", "Count words in one file"),
    example("find . -name \"*.md\" | xargs word-counter --agent", "Count all markdown files"),
    example("word-counter --agent *.txt | jq -s 'map(.words) | add'", "Total word count"),
    anti_pattern("word-counter *.txt > out.txt", "Use --agent for machine-readable output"),
    command(
        name = "count",
        description = "Count the words in each file, one result per file in the order given.",
        kind = "list",
        output = FileCount,
        errors(FILE_NOT_FOUND, FILE_NOT_READABLE),
        example("word-counter --agent README.md LICENSE.md", "One JSON line per file"),
        example("word-counter README.md", "Human output"),
    )
)]
pub struct Cli {
    /// The files to count.
    #[arg(required = true, help = "The files to count.")]
    // Local file paths, taken exactly as the operating system takes them, in every mode.
    #[agent(format = "path")]
    pub files: Vec<PathBuf>,
}

/// The error constants of the tool's exit-code table.
const FILE_NOT_FOUND: &str = "FILE_NOT_FOUND";
const FILE_NOT_READABLE: &str = "FILE_NOT_READABLE";

/// The tool: its registry from the derive, its one handler.
pub fn app() -> App {
    App::from_tool::<Cli, _>(count_files)
}

/// One result per file, in the order given, each counted only when the previous one has been
/// written. The first file that cannot be counted ends the call with its error (after the lines
/// already written), as the appendix's script does.
fn count_files(cli: Cli, _ctx: &Context) -> Result<Reply, Error> {
    let results = cli.files.into_iter().map(|path| count_file(&path));
    Ok(Reply::list_with_text(results, FileCount::human_line))
}

/// Counts one file: its result, or the error the tool reports for it. Public so that the
/// spec-first word-counter (`examples/word-counter-spec`) counts with the same code.
pub fn count_file(path: &Path) -> Result<FileCount, Error> {
    let file = File::open(path).map_err(|err| failure(path, &err))?;
    // Streamed, so memory stays flat, and bounded, so `/dev/zero` or an endless FIFO ends with
    // FILE_NOT_READABLE past the input limit (256 MiB, or `PAS_INPUT_LIMIT` bytes).
    let shown = path.to_string_lossy();
    let reader = pas::input::Bounded::new(io::BufReader::new(file), shown, pas::input::limit());
    let words = count::words(reader).map_err(|err| failure(path, &err))?;
    Ok(FileCount::new(path, words))
}

/// A missing file (or a path through something that is not a directory) is FILE_NOT_FOUND;
/// anything else that stops the read (permissions, a directory, an I/O error) is
/// FILE_NOT_READABLE.
fn failure(path: &Path, err: &io::Error) -> Error {
    let shown = path.to_string_lossy();
    let details = json!(FileCount::new(path, 0).name_only());
    match err.kind() {
        ErrorKind::NotFound | ErrorKind::NotADirectory => {
            Error::new(FILE_NOT_FOUND, format!("File not found: {shown}")).with_details(details)
        }
        _ => {
            let error = Error::new(
                FILE_NOT_READABLE,
                format!("Cannot read file: {shown} ({err})"),
            )
            .with_details(details);
            match pas::input::too_large(err) {
                Some(_) => error.with_suggestion(format!(
                    "count a smaller file, or raise the limit with {}=BYTES",
                    pas::input::LIMIT_ENV
                )),
                None => error,
            }
        }
    }
}

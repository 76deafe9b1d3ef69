use clap::Parser;
use pas::{AgentTool, Error, Items};

/// Count the lines of files.
#[derive(Parser, AgentTool)]
#[command(name = "lines", version)]
#[agent(
    level = 2,
    exit_code(100, FILE_UNREADABLE, "A file cannot be read", "lines --agent no-such-file"),
    example("lines --agent Cargo.toml", "One JSON line per file"),
    command(name = "count", kind = "list", output = Count, errors(FILE_UNREADABLE)),
)]
struct Cli {
    /// The files to count.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
}

/// The line count of one file.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Count {
    /// The file as named on the command line.
    file: String,
    /// How many lines it has.
    lines: usize,
}

fn main() -> std::process::ExitCode {
    pas::run::<Cli, _>(|cli, _ctx| {
        let counts = cli.files.into_iter().map(|path| {
            let file = path.display().to_string();
            let text = std::fs::read_to_string(&path)
                .map_err(|err| Error::new("FILE_UNREADABLE", format!("{file}: {err}")))?;
            Ok(Count { file, lines: text.lines().count() })
        });
        Ok(Items::new(counts).with_text(|c| format!("{}: {}", c.file, c.lines)).into_list())
    })
}

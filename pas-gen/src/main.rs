//! pas-gen: check, document and scaffold pas specs.
//!
//! It keeps the PAS contract itself: `--agent` anywhere in argv, NDJSON on stdout, JSON errors on
//! stderr, semantic exit codes.

mod check;
mod render;

use clap::{Parser, Subcommand};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

/// Check, document and scaffold pas specs.
#[derive(Parser)]
#[command(name = "pas-gen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Check specs and report every problem at once; exit 1 when any has an error.
    Check {
        /// Spec files (YAML or JSON); `-` reads standard input.
        #[arg(required = true)]
        specs: Vec<String>,
    },
    /// Print the JSON Schema (draft 2020-12) of the spec format.
    Schema,
}

fn main() -> ExitCode {
    let (agent, args) = split_agent_flag(std::env::args_os());
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => return usage_error(agent, error),
    };
    match run(agent, cli.command) {
        Ok(code) => code,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            let json = serde_json::json!({"error": "IO_ERROR", "message": error.to_string()});
            let _ = writeln!(io::stderr(), "{json}");
            ExitCode::FAILURE
        }
    }
}

fn run(agent: bool, command: Cmd) -> io::Result<ExitCode> {
    match command {
        Cmd::Schema => {
            io::stdout()
                .lock()
                .write_all(pas_spec::schema::spec_schema_json().as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Check { specs } => {
            let reports: Vec<_> = specs.iter().map(|name| check::check_file(name)).collect();
            if agent {
                let mut out = io::BufWriter::new(io::stdout().lock());
                render::agent::write(&mut out, &reports)?;
                out.flush()?;
            } else {
                let styled = io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
                render::human::write(&mut io::stderr().lock(), &reports, styled)?;
            }
            let failed = reports.iter().any(check::FileReport::has_errors);
            Ok(if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
    }
}

/// Take `--agent` out of argv wherever it stands before `--` (or `PAS_AGENT=1`).
fn split_agent_flag(
    args: impl Iterator<Item = std::ffi::OsString>,
) -> (bool, Vec<std::ffi::OsString>) {
    let mut agent = std::env::var_os("PAS_AGENT").is_some_and(|v| v == "1");
    let mut rest = Vec::new();
    let mut after_dashes = false;
    for arg in args {
        if !after_dashes && arg == "--agent" {
            agent = true;
            continue;
        }
        after_dashes |= arg == "--";
        rest.push(arg);
    }
    (agent, rest)
}

fn usage_error(agent: bool, error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) || !agent
    {
        let _ = error.print();
        return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
    }
    let message = error
        .kind()
        .as_str()
        .unwrap_or("invalid arguments")
        .to_owned();
    let json = serde_json::json!({"error": "INVALID_ARGUMENT", "message": message, "code": 2, "suggestion": "run `pas-gen --agent --help`"});
    let _ = writeln!(io::stderr(), "{json}");
    ExitCode::from(2)
}

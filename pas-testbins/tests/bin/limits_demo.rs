//! The tools the declared-limits tests drive (`tests/runtime_command_limits.rs`, not meant for
//! users), built two ways. By default spec first (`limits-demo.yaml` through
//! `pas::include_spec!`, `pas` profile); with `LIMITS_DEMO_DERIVE=1` code first, the same two
//! commands declared with `#[agent(timeout = ..., max_output_bytes = ...)]` in the compose
//! profile. Neither handler knows its limit: the runtime enforces it.

use std::process::ExitCode;
use std::time::Duration;

use pas::{Context, Error, Items, Reply};

mod spec {
    pas::include_spec!("tests/bin/limits-demo.yaml");
}

mod derived {
    use clap::{Parser, Subcommand};
    use pas::AgentTool;

    /// Commands with declared time and output limits.
    #[derive(Debug, Parser, AgentTool)]
    #[command(name = "limits-derived", version = "0.1.0")]
    #[agent(
        level = 1,
        profile = "compose",
        exit_code(100, LOCK_HELD, "Another call holds the lock")
    )]
    pub struct Cli {
        #[command(subcommand)]
        pub command: Command,
    }

    #[derive(Debug, Subcommand, AgentTool)]
    pub enum Command {
        /// Sleep, then say so.
        #[agent(timeout = 0.5, output = super::Slept)]
        Slow {
            /// How long to sleep.
            #[arg(long)]
            seconds: f64,
        },
        /// Numbered items, each padded to about 40 bytes.
        #[agent(kind = "list", max_output_bytes = 300, output = super::Item)]
        Items {
            /// How many items.
            #[arg(short = 'n', long)]
            count: u64,
        },
        /// Count the bytes of the JSON object on stdin.
        #[agent(effect = "write", stdin = "required", max_input_bytes = 1024, output = super::Counted)]
        Ingest,
        /// Hold the deploy lock while sleeping.
        #[agent(effect = "write", lock = "deploy", errors(LOCK_HELD), output = super::Slept)]
        Deploy {
            /// How long to hold it.
            #[arg(long)]
            seconds: f64,
        },
    }
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
struct Slept {
    slept: f64,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
struct Counted {
    bytes: u64,
}

/// The bytes on the handler's stdin (the file of `--input-file`, when given).
fn count(ctx: &Context) -> Result<u64, Error> {
    let mut bytes = Vec::new();
    if let Some(mut stdin) = ctx.stdin()? {
        std::io::Read::read_to_end(&mut stdin, &mut bytes)?;
    }
    Ok(bytes.len() as u64)
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
struct Item {
    n: u64,
    pad: String,
}

fn sleep(seconds: f64) -> f64 {
    std::thread::sleep(Duration::from_secs_f64(seconds.max(0.0)));
    seconds
}

fn items(count: u64) -> impl Iterator<Item = Item> {
    (0..count).map(|n| Item {
        n,
        pad: "x".repeat(20),
    })
}

struct Limits;

impl spec::Handlers for Limits {
    fn slow(&self, args: spec::SlowArgs, _: &Context) -> Result<spec::SlowOutput, Error> {
        Ok(spec::SlowOutput {
            slept: sleep(args.seconds),
        })
    }

    fn items(&self, args: spec::ItemsArgs, _: &Context) -> Result<Items<spec::ItemsItem>, Error> {
        let count = u64::try_from(args.count).unwrap_or(0);
        Ok(Items::ok(items(count).map(|item| spec::ItemsItem {
            n: i64::try_from(item.n).unwrap_or(i64::MAX),
            pad: item.pad,
        })))
    }

    fn deploy(&self, args: spec::DeployArgs, _: &Context) -> Result<spec::SlowOutput, Error> {
        Ok(spec::SlowOutput {
            slept: sleep(args.seconds),
        })
    }

    fn ingest(&self, _: spec::IngestArgs, ctx: &Context) -> Result<spec::IngestOutput, Error> {
        Ok(spec::IngestOutput {
            bytes: i64::try_from(count(ctx)?).unwrap_or(i64::MAX),
        })
    }
}

fn main() -> ExitCode {
    if std::env::var_os("LIMITS_DEMO_DERIVE").is_some() {
        let app = pas::App::from_tool::<derived::Cli, _>(|cli: derived::Cli, ctx: &Context| {
            match cli.command {
                derived::Command::Slow { seconds } => Ok(Reply::object(&Slept {
                    slept: sleep(seconds),
                })),
                derived::Command::Items { count } => {
                    Ok(Reply::list(items(count).map(Ok::<_, Error>)))
                }
                derived::Command::Ingest => Ok(Reply::object(&Counted { bytes: count(ctx)? })),
                derived::Command::Deploy { seconds } => Ok(Reply::object(&Slept {
                    slept: sleep(seconds),
                })),
            }
        });
        return app.run();
    }
    spec::app(Limits).run()
}

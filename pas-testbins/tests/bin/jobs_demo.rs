//! The tool the async-job tests drive (`tests/runtime_jobs.rs`, not meant for users; CLI
//! Agent Spec failure mode 49), built three ways. By default spec first
//! (`tests/fixtures/jobs/pas.yaml` through `pas::include_spec!`, `pas` profile); with
//! `JOBS_DEMO_SPEC=PATH` from that spec at run time (the compose and robot fixtures); with
//! `JOBS_DEMO_DERIVE=1` code first, `#[agent(kind = "job", ...)]` in the compose profile. The
//! handlers know nothing of jobs: they sleep `--ms`, then answer or fail (`--fail`).

use std::process::ExitCode;
use std::time::Duration;

use pas::{Args, Context, Error, Reply};

mod spec {
    pas::include_spec!("../tests/fixtures/jobs/pas.yaml");
}

mod derived {
    use clap::{Parser, Subcommand};
    use pas::AgentTool;

    /// Build projects, as async jobs.
    #[derive(Debug, Parser, AgentTool)]
    #[command(name = "builder", version = "0.1.0")]
    #[agent(
        level = 1,
        profile = "compose",
        exit_code(100, BUILD_FAILED, "The build failed")
    )]
    pub struct Cli {
        #[command(subcommand)]
        pub command: Command,
    }

    #[derive(Debug, Subcommand, AgentTool)]
    pub enum Command {
        /// Build the project; it takes a while, so it runs as an async job.
        #[agent(
            effect = "write",
            kind = "job",
            poll_interval_ms = 200,
            job_timeout_ms = 60000,
            errors(BUILD_FAILED),
            output = super::Built
        )]
        Build {
            /// How long the build takes in milliseconds.
            #[arg(long, default_value_t = 0)]
            ms: u64,
            /// Make the build fail.
            #[arg(long)]
            fail: bool,
            /// A word the test finds the process by.
            #[arg(long)]
            marker: Option<String>,
        },
    }
}

/// What a build answers.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
struct Built {
    built: bool,
    ms: u64,
}

fn build(ms: u64, fail: bool, ctx: &Context) -> Result<Built, Error> {
    // Ten steps, reported as progress (a job's `job status` shows progress_pct).
    let progress = ctx.progress(Some(10));
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(ms / 10));
        progress.inc(1);
    }
    progress.finish();
    if fail {
        return Err(
            Error::new("BUILD_FAILED", "the build failed as told").with_suggestion("drop --fail")
        );
    }
    Ok(Built { built: true, ms })
}

struct Builder;

impl spec::Handlers for Builder {
    fn build_run(
        &self,
        args: spec::BuildRunArgs,
        ctx: &Context,
    ) -> Result<spec::BuildRunOutput, Error> {
        build_output(args.ms, args.fail, ctx)
    }

    fn build_quick(
        &self,
        args: spec::BuildQuickArgs,
        ctx: &Context,
    ) -> Result<spec::BuildRunOutput, Error> {
        build_output(args.ms, args.fail, ctx)
    }
}

/// Both commands' answer: a build of `ms` milliseconds.
fn build_output(ms: i64, fail: bool, ctx: &Context) -> Result<spec::BuildRunOutput, Error> {
    let built = build(u64::try_from(ms).unwrap_or(0), fail, ctx)?;
    Ok(spec::BuildRunOutput {
        built: built.built,
        ms,
    })
}

/// The handlers of a spec loaded at run time (same commands).
fn by_name(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let ms = args.get::<i64>("ms")?.unwrap_or(0);
    let fail = args.flag("fail");
    let built = build(u64::try_from(ms).unwrap_or(0), fail, ctx)?;
    Ok(Reply::object(&built))
}

fn main() -> ExitCode {
    if std::env::var_os("JOBS_DEMO_DERIVE").is_some() {
        let app = pas::App::from_tool::<derived::Cli, _>(|cli: derived::Cli, ctx: &Context| {
            match cli.command {
                derived::Command::Build { ms, fail, .. } => {
                    Ok(Reply::object(&build(ms, fail, ctx)?))
                }
            }
        });
        return app.run();
    }
    if let Some(path) = std::env::var_os("JOBS_DEMO_SPEC") {
        let text = std::fs::read_to_string(&path).expect("a readable spec");
        let source = pas::spec::Source::new(
            path.to_string_lossy().into_owned(),
            text,
            pas::spec::Format::Yaml,
        );
        let registry = pas::spec::load::parse(&source).expect("a valid spec");
        return pas::App::new(registry)
            .handler("build.run", by_name)
            .handler("build.quick", by_name)
            .run();
    }
    spec::app(Builder).run()
}

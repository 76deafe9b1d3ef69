//! The fixture tools the official MCP conformance suite's Tasks scenarios call, written as a
//! pas tool (`tests/fixtures/mcp-conformance/tasks.yaml`; run by `tests/mcp-conformance/run.sh`,
//! not meant for users). `greet` answers at once; `slow_compute`, `failing_job` and
//! `protocol_error_job` are job commands, so a client that takes MCP tasks gets them as tasks.
//! The handlers know nothing of tasks or jobs.

use std::process::ExitCode;
use std::time::Duration;

use pas::{Context, Error};

mod spec {
    pas::include_spec!("../tests/fixtures/mcp-conformance/tasks.yaml");
}

struct Fixtures;

impl spec::Handlers for Fixtures {
    fn greet(&self, args: spec::GreetArgs, _ctx: &Context) -> Result<String, Error> {
        Ok(format!("Hello, {}!", args.name))
    }

    fn slow_compute(
        &self,
        args: spec::SlowComputeArgs,
        _ctx: &Context,
    ) -> Result<spec::SlowComputeOutput, Error> {
        std::thread::sleep(Duration::from_secs(
            u64::try_from(args.seconds).unwrap_or(0),
        ));
        Ok(spec::SlowComputeOutput {
            label: args.label,
            seconds: args.seconds,
        })
    }

    fn failing_job(
        &self,
        _args: spec::FailingJobArgs,
        _ctx: &Context,
    ) -> Result<spec::FailingJobOutput, Error> {
        std::thread::sleep(Duration::from_secs(1));
        Err(Error::new(
            "JOB_FAILED_AS_TOLD",
            "the fixture job failed, as it always does",
        ))
    }

    fn protocol_error_job(
        &self,
        _args: spec::ProtocolErrorJobArgs,
        _ctx: &Context,
    ) -> Result<spec::FailingJobOutput, Error> {
        panic!("the fixture job panics, as it always does");
    }
}

fn main() -> ExitCode {
    spec::app(Fixtures).run()
}

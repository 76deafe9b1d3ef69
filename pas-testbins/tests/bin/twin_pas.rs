//! The pas twin (`tests/person_twins.rs`): the same CLI with `#[derive(AgentTool)]` run by the
//! runtime. Without `--agent`, a person must see what the plain twin shows.

#[path = "twin/cli.rs"]
mod cli;

use std::process::ExitCode;

use pas::{Context, Error, Reply};

fn main() -> ExitCode {
    pas::run::<cli::Cli, _>(|cli: cli::Cli, _: &Context| -> Result<Reply, Error> {
        let text = cli::text(&cli);
        Ok(Reply::object_with_text(
            &serde_json::json!({ "text": text }),
            text,
        ))
    })
}

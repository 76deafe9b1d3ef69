//! The derive-built tool the `derive_registry` test drives (not meant for users): its types
//! are in `derive_demo/tool.rs`; every command goes to one typed handler.

#[path = "derive_demo/tool.rs"]
mod tool;

use std::process::ExitCode;

use pas::{App, Context, Error, Reply};
use tool::{Cli, Command, ExtraCommand, Health, State, Task, TaskCommand};

fn handle(cli: Cli, _ctx: &Context) -> Result<Reply, Error> {
    match cli.command {
        Command::Task(TaskCommand::List { limit, state, .. }) => {
            let state = state.unwrap_or(State::Open);
            let tasks = (1..=u64::from(limit.min(3))).map(move |id| {
                Ok(Task {
                    id,
                    title: format!("task {id}"),
                    state,
                })
            });
            Ok(Reply::list(tasks))
        }
        Command::Task(TaskCommand::Create(args)) => {
            let task = Task {
                id: 4,
                title: args.title,
                state: State::Open,
            };
            Ok(Reply::object(&task))
        }
        Command::Task(TaskCommand::Delete { id, .. } | TaskCommand::Remove { id, .. }) => {
            Err(Error::new("NOT_FOUND", format!("no task {id}")))
        }
        Command::Health => Ok(Reply::object(&Health {
            ok: cli.store.as_os_str() != "down",
        })),
        Command::Extra(ExtraCommand::Export) => Ok(Reply::document("# Tasks\n\n- task 1\n")),
        Command::Extra(ExtraCommand::Internal) => Err(Error::internal("never parsed")),
    }
}

fn main() -> ExitCode {
    App::from_tool::<Cli, _>(handle).run()
}

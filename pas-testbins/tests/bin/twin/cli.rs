//! The one command line of both twins (`tests/person_twins.rs`): a small clap CLI with a global
//! flag, subcommands, a required positional, a variadic one and a command that changes state.
//! The `AgentTool` derive only adds a trait impl: the plain twin never calls the runtime.

use clap::{Parser, Subcommand};
use pas::AgentTool;

/// Greet people and add numbers.
#[derive(Debug, Parser, AgentTool)]
#[command(name = "twin", version = "0.3.0")]
#[agent(level = 2, example("twin --agent greet ada", "Greet one person"))]
pub struct Cli {
    /// Say more.
    #[arg(long, global = true)]
    pub verbose: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand, AgentTool)]
pub enum Command {
    /// Greet someone.
    Greet {
        /// Who to greet.
        name: String,
        /// Greet loudly.
        #[arg(long)]
        shout: bool,
    },
    /// Add numbers.
    Sum {
        /// The numbers to add.
        #[arg(required = true)]
        numbers: Vec<i64>,
    },
    /// Remember a name (nothing is written: the twins only answer).
    #[agent(effect = "write")]
    Save {
        /// The name to remember.
        name: String,
    },
}

/// What a person sees for a call: the same text from both twins.
pub fn text(cli: &Cli) -> String {
    let line = match &cli.command {
        Command::Greet { name, shout: false } => format!("hello {name}"),
        Command::Greet { name, shout: true } => format!("HELLO {}", name.to_uppercase()),
        Command::Sum { numbers } => format!("total {}", numbers.iter().sum::<i64>()),
        Command::Save { name } => format!("saved {name}"),
    };
    match cli.verbose {
        true => format!("{line} (verbose)"),
        false => line,
    }
}

//! The plain twin (`tests/person_twins.rs`): the CLI as it was before adopting pas, clap alone.

#[path = "twin/cli.rs"]
mod cli;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    println!("{}", cli::text(&cli));
}

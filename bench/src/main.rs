//! pas benchmarks. Each subcommand measures one thing against a baseline measured in the same
//! run, prints a Markdown table and refreshes its section of BENCHMARKS.md.
//!
//! Usage: `cargo run --release -p pas-bench -- check|runtime|compose|limits|output|tokens|discovery|new|skills|robot|mcp|profile|size|peers`

mod check;
mod compose;
mod discovery;
mod limits;
mod mcp;
mod measure;
mod output;
mod peers;
mod profile;
mod report;
mod robot;
mod runtime;
mod scaffold;
mod size;
mod skills;
mod tokens;
mod tools;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("__rss") => measure::rss_wrapper(&args[1..]),
        Some("check") => check::run(),
        Some("runtime") => runtime::run(),
        Some("compose") => compose::run(),
        Some("limits") => limits::run(),
        Some("output") => output::run(),
        Some("tokens") => tokens::run(),
        Some("discovery") => discovery::run(),
        Some("new") => scaffold::run(),
        Some("skills") => skills::run(),
        Some("robot") => robot::run(),
        Some("mcp") => mcp::run(),
        Some("profile") => profile::run(),
        Some("size") => size::run(),
        Some("peers") => peers::run(),
        _ => {
            eprintln!(
                "usage: pas-bench check|runtime|compose|limits|output|tokens|discovery|new|skills|robot|mcp|profile|size|peers"
            );
            std::process::exit(2);
        }
    }
}

//! pas benchmarks. Each subcommand measures one thing against a baseline measured in the same
//! run, prints a Markdown table and refreshes its section of BENCHMARKS.md.
//!
//! Usage: `cargo run --release -p pas-bench -- check`

mod check;
mod measure;
mod report;
mod tools;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("__rss") => measure::rss_wrapper(&args[1..]),
        Some("check") => check::run(),
        _ => {
            eprintln!("usage: pas-bench check");
            std::process::exit(2);
        }
    }
}

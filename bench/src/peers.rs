//! pas against the other Rust frameworks for agent CLIs (issue 33): the same tools written with
//! each, idiomatically, in packages of their own under `bench/peers/` (not members of the
//! workspace, so its builds never compile them), measured side by side in one run.
//!
//! The tools: a word counter (one command, files in, one JSON object per file, errors with exit
//! codes), a CRUD tool over a JSON file (`list`, `get ID` with a not-found error, `create`), the
//! word counter served over MCP stdio where the framework has MCP, and a list of COUNT generated
//! items for the throughput row (where the framework has list or streaming output).
//!
//! pas and the hand-written baselines are built in the workspace (`word-counter`,
//! `crud_runtime`, `list_runtime`; `wc_clap_baseline`, `crud_clap_baseline`, `list_baseline`);
//! the peers with `cargo build --release --locked` from their own lock files into one target
//! directory, `bench/peers/target`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tiktoken_rs::CoreBPE;

use crate::mcp::Server;
use crate::measure::{Sink, compare};
use crate::{report, tools};

const STARTUP_RUNS: usize = 200;
const LIST_RUNS: usize = 7;
const MCP_CALLS: usize = 1000;
const MILLION: u64 = 1_000_000;

/// How a framework's word counter, CRUD tool and list are called. `None`: the framework cannot
/// express it, or has no such face (the table says which, from `missing`).
struct Peer {
    /// The column's name.
    name: &'static str,
    /// The crate and version the tool is built on.
    version: String,
    /// The features it is built with.
    features: &'static str,
    /// Its release profile, as built here.
    profile: &'static str,
    wc: Option<PathBuf>,
    crud: Option<PathBuf>,
    list: Option<PathBuf>,
    /// What an agent runs to learn the word counter (its machine help or manifest).
    wc_learn: Vec<&'static str>,
    /// The same for the CRUD tool.
    crud_learn: Vec<&'static str>,
    /// `--help` or its equivalent, for the start-up row.
    wc_help: Vec<&'static str>,
    /// One count of FILE: the arguments before and after the file.
    wc_call: (Vec<&'static str>, Vec<&'static str>),
    /// `get 1` of the CRUD tool, as an agent calls it.
    crud_get: Vec<&'static str>,
    /// The list of COUNT items: the arguments before and after COUNT.
    list_call: (Vec<&'static str>, Vec<&'static str>),
    /// The word counter's MCP server arguments, where it has one.
    mcp: Option<Vec<&'static str>>,
    /// Why a cell is empty, by row.
    missing: BTreeMap<&'static str, &'static str>,
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// The peers' shared target directory.
fn peers_target() -> PathBuf {
    tools::workspace().join("bench/peers/target")
}

/// Build the peer package `dir` (under bench/peers/) in release mode from its lock file, with
/// `args` added, and copy each of `bins` to `<target>/release/pas-bench-builds/<bin>-<label>`.
fn build_peer(dir: &str, args: &[&str], bins: &[&str], label: &str) -> Vec<PathBuf> {
    let manifest = tools::workspace()
        .join("bench/peers")
        .join(dir)
        .join("Cargo.toml");
    let target = peers_target();
    let status = Command::new(cargo())
        .args([
            "build",
            "--quiet",
            "--release",
            "--locked",
            "--manifest-path",
        ])
        .arg(&manifest)
        .args(args)
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the {dir} peer {args:?} failed");
    let copies = target.join("release/pas-bench-builds");
    std::fs::create_dir_all(&copies).expect("create the copies' directory");
    bins.iter()
        .map(|bin| {
            let copy = copies.join(format!("{bin}-{label}"));
            std::fs::copy(target.join("release").join(bin), &copy).expect("copy a peer binary");
            copy
        })
        .collect()
}

/// The version of `krate` in the lock file of the peer package `dir`.
fn locked_version(dir: &str, krate: &str) -> String {
    let lock = tools::workspace()
        .join("bench/peers")
        .join(dir)
        .join("Cargo.lock");
    let text = std::fs::read_to_string(&lock).expect("each peer commits its Cargo.lock");
    let needle = format!("name = \"{krate}\"\nversion = \"");
    text.find(&needle)
        .and_then(|at| text[at + needle.len()..].split('"').next())
        .map_or_else(|| "?".to_owned(), |v| format!("{krate} {v}"))
}

fn argv(bin: &Path, before: &[&str], middle: &[&str], after: &[&str]) -> Vec<String> {
    std::iter::once(bin.display().to_string())
        .chain(before.iter().map(|s| (*s).to_owned()))
        .chain(middle.iter().map(|s| (*s).to_owned()))
        .chain(after.iter().map(|s| (*s).to_owned()))
        .collect()
}

/// stdout of one run (any exit code: an agent reads what is printed).
fn stdout_of(argv: &[String], env: &[(&str, &str)]) -> String {
    let output = Command::new(&argv[0])
        .args(&argv[1..])
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("{argv:?} runs: {e}"));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn peers() -> Vec<Peer> {
    let release = |pkg: &str, bin: &str| tools::release_binary(pkg, bin);
    let pas_cargo =
        "workspace release profile (`debug = 0`; opt-level 3, 16 codegen units, no LTO)";
    let pas_bench_cargo = "workspace release profile; pas-bench's own code in 1 codegen unit";
    let peer_profile = "its package's release profile: `debug = 0` (as the workspace's), otherwise cargo's defaults";

    // pas: word-counter on pas-kit's defaults and with `full` (the runtime suite's builds);
    // the CRUD tool and the list from pas-bench.
    let pas_wc = tools::release_binary_as(
        "word-counter",
        "word-counter",
        &["--no-default-features"],
        "default",
    );
    // Copies under a label each: the `full` builds below overwrite target/release/<bin>.
    let pas_crud = tools::release_binary_as("pas-bench", "crud_runtime", &[], "default");
    let pas_list = tools::release_binary_as("pas-bench", "list_runtime", &[], "default");
    let pas_wc_full = tools::release_binary_as(
        "word-counter",
        "word-counter",
        &["--no-default-features", "--features", "full"],
        "full",
    );
    let pas_crud_full = tools::release_binary_as(
        "pas-bench",
        "crud_runtime",
        &["--features", "pas-kit/full"],
        "full",
    );
    let pas_list_full = tools::release_binary_as(
        "pas-bench",
        "list_runtime",
        &["--features", "pas-kit/full"],
        "full",
    );
    let hand_wc = release("pas-bench-baseline", "wc_clap_baseline");
    let hand_crud = release("pas-bench-baseline", "crud_clap_baseline");
    let hand_list = release("pas-bench", "list_baseline");

    let incurs_bins = ["wc-incurs", "crud-incurs", "list-incurs"];
    let incurs = build_peer("incurs", &[], &incurs_bins, "default");
    let incurs_min = build_peer(
        "incurs",
        &["--no-default-features"],
        &incurs_bins,
        "minimal",
    );
    let agcli = build_peer(
        "agcli",
        &[],
        &["wc-agcli", "crud-agcli", "list-agcli"],
        "default",
    );
    let clap_mcp = build_peer("clap-mcp", &[], &["wc-clap-mcp"], "default");

    let pas = |name: &'static str,
               features: &'static str,
               wc: PathBuf,
               crud: PathBuf,
               list: PathBuf,
               mcp: Option<Vec<&'static str>>| Peer {
        missing: if mcp.is_none() {
            BTreeMap::from([("mcp", "not built (feature `mcp`)")])
        } else {
            BTreeMap::new()
        },
        name,
        version: "pas-kit 0.1.0 (this tree)".to_owned(),
        features,
        profile: pas_cargo,
        wc: Some(wc),
        crud: Some(crud),
        list: Some(list),
        wc_learn: vec!["--agent", "--help"],
        crud_learn: vec!["--agent", "--help"],
        wc_help: vec!["--agent", "--help"],
        wc_call: (vec!["--agent"], vec![]),
        crud_get: vec!["--agent", "get", "1"],
        list_call: (vec!["--agent", "list", "--count"], vec![]),
        mcp,
    };
    let incurs_peer = |name: &'static str, features: &'static str, bins: Vec<PathBuf>| Peer {
        name,
        version: locked_version("incurs", "incurs"),
        features,
        profile: peer_profile,
        wc: Some(bins[0].clone()),
        crud: Some(bins[1].clone()),
        list: Some(bins[2].clone()),
        // incurs' manifest "written for an agent to read", with every command's schema.
        wc_learn: vec!["--llms-full"],
        crud_learn: vec!["--llms-full"],
        wc_help: vec!["--help"],
        // TOON is incurs' default format: JSON Lines is asked for.
        wc_call: (vec!["count"], vec!["--format", "jsonl"]),
        crud_get: vec!["get", "1", "--format", "json"],
        list_call: (vec!["list"], vec!["--format", "jsonl"]),
        mcp: Some(vec!["--mcp"]),
        missing: BTreeMap::new(),
    };
    vec![
        pas(
            "pas (default)",
            "pas-kit defaults",
            pas_wc,
            pas_crud,
            pas_list,
            None,
        ),
        pas(
            "pas (full)",
            "pas-kit `full`",
            pas_wc_full,
            pas_crud_full,
            pas_list_full,
            Some(vec!["--builtin", "mcp"]),
        ),
        incurs_peer(
            "incurs (default)",
            "defaults (`cli`, `toon`, `tokens`)",
            incurs,
        ),
        incurs_peer(
            "incurs (minimal)",
            "`default-features = false` (rmcp, tokio and the MCP server are not optional)",
            incurs_min,
        ),
        Peer {
            name: "agcli",
            version: locked_version("agcli", "agcli"),
            features: "defaults (none)",
            profile: peer_profile,
            wc: Some(agcli[0].clone()),
            crud: Some(agcli[1].clone()),
            list: Some(agcli[2].clone()),
            // The command tree: what agcli answers with no arguments.
            wc_learn: vec![],
            crud_learn: vec![],
            wc_help: vec!["--help"],
            wc_call: (vec!["count"], vec![]),
            crud_get: vec!["get", "1"],
            list_call: (vec!["list"], vec![]),
            mcp: None,
            missing: BTreeMap::from([("mcp", "no MCP server")]),
        },
        Peer {
            name: "clap-mcp",
            version: locked_version("clap-mcp", "clap-mcp"),
            features: "defaults (`derive`)",
            profile: peer_profile,
            wc: Some(clap_mcp[0].clone()),
            crud: None,
            list: None,
            wc_learn: vec!["--help"],
            crud_learn: vec![],
            wc_help: vec!["--help"],
            wc_call: (vec!["count"], vec![]),
            crud_get: vec![],
            list_call: (vec![], vec![]),
            mcp: Some(vec!["--mcp"]),
            missing: BTreeMap::from([
                ("crud", "MCP only: not written"),
                ("list", "MCP only: no list output"),
            ]),
        },
        Peer {
            name: "clap + serde_json",
            version: "clap 4, serde_json 1 (the workspace's)".to_owned(),
            features: "clap `derive`",
            profile: pas_bench_cargo,
            wc: Some(hand_wc),
            crud: Some(hand_crud),
            list: Some(hand_list),
            wc_learn: vec!["--help"],
            crud_learn: vec!["--help"],
            wc_help: vec!["--help"],
            wc_call: (vec![], vec![]),
            crud_get: vec!["get", "1"],
            list_call: (vec![], vec![]),
            mcp: None,
            missing: BTreeMap::from([("mcp", "no MCP server")]),
        },
    ]
}

/// One row of the table: a figure per peer (None: not measurable, with the peer's reason).
struct Row {
    what: String,
    cells: Vec<Option<f64>>,
    /// How a figure is shown.
    unit: Unit,
    /// The key into `Peer::missing`.
    key: &'static str,
}

#[derive(Clone, Copy)]
enum Unit {
    Kib,
    Ms,
    Tokens,
    PerSecond,
}

impl Unit {
    fn show(self, v: f64) -> String {
        match self {
            Unit::Kib => format!("{:.0} KiB", v / 1024.0),
            Unit::Ms => format!("{v:.2} ms"),
            Unit::Tokens => format!("{v:.0}"),
            Unit::PerSecond => format!("{v:.0}/s"),
        }
    }

    /// Whether a larger figure is better.
    fn more_is_better(self) -> bool {
        matches!(self, Unit::PerSecond)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Start-up of each peer's `args(peer)` (None: skipped), all taking turns.
fn startup(peers: &[Peer], args: impl Fn(&Peer) -> Option<Vec<String>>) -> Vec<Option<f64>> {
    let argvs: Vec<Option<Vec<String>>> = peers.iter().map(args).collect();
    let present: Vec<&[String]> = argvs.iter().flatten().map(Vec::as_slice).collect();
    let mut measured = compare(&present, STARTUP_RUNS, Sink::Pipe).into_iter();
    argvs
        .iter()
        .map(|a| {
            a.as_ref()
                .map(|_| ms(measured.next().expect("one each").median))
        })
        .collect()
}

/// MCP `tools/call` round trips per second on one server, and what an agent reads to learn
/// the count tool: `tools/list`'s result, and on a server that lists discovery tools instead
/// of its own (incurs' `search_tools`, `get_tool_details`, `call_*_tool`) the details of
/// `count` too, which an agent must read before calling it through `call_write_tool`.
fn mcp_figures(bin: &Path, args: &[&str], file: &str) -> (f64, String) {
    let mut server = Server::start_with(bin, args);
    let list = server.request("tools/list", json!({}));
    let mut learned = serde_json::to_string(&list).expect("JSON");
    let named = |n: &str| {
        list["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|t| t["name"] == n)
    };
    let arguments = json!({ "files": [file] });
    let (tool, arguments) = if named("count") {
        ("count", arguments)
    } else if named("get_tool_details") && named("call_write_tool") {
        let details = server.request(
            "tools/call",
            json!({"name": "get_tool_details", "arguments": {"name": "count"}}),
        );
        learned.push_str(&serde_json::to_string(&details).expect("JSON"));
        (
            "call_write_tool",
            json!({"name": "count", "arguments": arguments}),
        )
    } else {
        panic!("no count tool in {list}")
    };
    server.call_tool(tool, &arguments);
    let started = Instant::now();
    for _ in 0..MCP_CALLS {
        server.call_tool(tool, &arguments);
    }
    let elapsed = started.elapsed();
    server.close();
    (MCP_CALLS as f64 / elapsed.as_secs_f64(), learned)
}

fn count(bpe: &CoreBPE, text: &str) -> f64 {
    bpe.encode_ordinary(text).len() as f64
}

pub fn run() {
    let load_before = load();
    let peers = peers();
    let (dir, file) = tools::words_file("peers", 100);
    // The CRUD tools' store: ten items in the JSON every one of them reads (an array of
    // `{id, title}`), found through CRUD_FILE.
    let store = dir.join("crud.json");
    let items: Vec<Value> = (1..=10)
        .map(|id| json!({"id": id, "title": format!("item {id}")}))
        .collect();
    std::fs::write(&store, serde_json::to_vec(&items).expect("JSON")).expect("write the store");
    let store = store.display().to_string();
    let env = [("CRUD_FILE", store.as_str())];
    let bpe = tiktoken_rs::o200k_base().expect("the o200k encoding ships inside tiktoken-rs");

    let mut rows = Vec::new();
    let size = |p: &Option<PathBuf>| p.as_ref().map(|b| tools::stripped_size(b) as f64);
    rows.push(Row {
        what: "stripped size: word counter".to_owned(),
        cells: peers.iter().map(|p| size(&p.wc)).collect(),
        unit: Unit::Kib,
        key: "wc",
    });
    rows.push(Row {
        what: "stripped size: CRUD tool".to_owned(),
        cells: peers.iter().map(|p| size(&p.crud)).collect(),
        unit: Unit::Kib,
        key: "crud",
    });

    // What an agent reads to learn each tool.
    let learn = |bin: &Option<PathBuf>, args: &[&str]| {
        bin.as_ref()
            .map(|b| count(&bpe, &stdout_of(&argv(b, args, &[], &[]), &env)))
    };
    rows.push(Row {
        what: "tokens: what an agent reads to learn the word counter".to_owned(),
        cells: peers.iter().map(|p| learn(&p.wc, &p.wc_learn)).collect(),
        unit: Unit::Tokens,
        key: "wc",
    });
    rows.push(Row {
        what: "tokens: what an agent reads to learn the CRUD tool".to_owned(),
        cells: peers
            .iter()
            .map(|p| learn(&p.crud, &p.crud_learn))
            .collect(),
        unit: Unit::Tokens,
        key: "crud",
    });

    let help = startup(&peers, |p| {
        p.wc.as_ref().map(|b| argv(b, &p.wc_help, &[], &[]))
    });
    rows.push(Row {
        what: "start-up: word counter `--help` (or its equivalent)".to_owned(),
        cells: help,
        unit: Unit::Ms,
        key: "wc",
    });
    let call = startup(&peers, |p| {
        p.wc.as_ref()
            .map(|b| argv(b, &p.wc_call.0, &[file.as_str()], &p.wc_call.1))
    });
    rows.push(Row {
        what: "start-up: one count of a 4 KiB file".to_owned(),
        cells: call,
        unit: Unit::Ms,
        key: "wc",
    });
    // `env CRUD_FILE=... TOOL get 1`: env's own start is the same for every column.
    let get = startup(&peers, |p| {
        p.crud.as_ref().map(|b| {
            let mut a = vec!["env".to_owned(), format!("CRUD_FILE={store}")];
            a.extend(argv(b, &p.crud_get, &[], &[]));
            a
        })
    });
    rows.push(Row {
        what: "start-up: CRUD `get 1` (through `env CRUD_FILE=...`)".to_owned(),
        cells: get,
        unit: Unit::Ms,
        key: "crud",
    });

    let million = MILLION.to_string();
    for sink in [Sink::Pipe, Sink::Null] {
        let argvs: Vec<Option<Vec<String>>> = peers
            .iter()
            .map(|p| {
                p.list
                    .as_ref()
                    .map(|b| argv(b, &p.list_call.0, &[million.as_str()], &p.list_call.1))
            })
            .collect();
        let present: Vec<&[String]> = argvs.iter().flatten().map(Vec::as_slice).collect();
        let mut measured = compare(&present, LIST_RUNS, sink).into_iter();
        rows.push(Row {
            what: format!(
                "1,000,000 list items to {}",
                if sink == Sink::Pipe {
                    "a pipe"
                } else {
                    "/dev/null"
                }
            ),
            cells: argvs
                .iter()
                .map(|a| {
                    a.as_ref()
                        .map(|_| ms(measured.next().expect("one each").median))
                })
                .collect(),
            unit: Unit::Ms,
            key: "list",
        });
    }

    let mcp: Vec<Option<(f64, String)>> = peers
        .iter()
        .map(|p| {
            let (bin, args) = (p.wc.as_ref()?, p.mcp.as_ref()?);
            Some(mcp_figures(bin, args, &file))
        })
        .collect();
    rows.push(Row {
        what: "tokens: MCP `tools/list` of the word counter (incurs: with `get_tool_details` of `count`)".to_owned(),
        cells: mcp
            .iter()
            .map(|m| m.as_ref().map(|(_, list)| count(&bpe, list)))
            .collect(),
        unit: Unit::Tokens,
        key: "mcp",
    });
    rows.push(Row {
        what: format!("MCP `tools/call` per second, {MCP_CALLS} calls on one stdio server"),
        cells: mcp.iter().map(|m| m.as_ref().map(|(s, _)| *s)).collect(),
        unit: Unit::PerSecond,
        key: "mcp",
    });
    let _ = std::fs::remove_dir_all(&dir);

    let body = render(&peers, &rows, &load_before, &load());
    print!("{body}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "peers", &body)
        .expect("write BENCHMARKS.md");
}

fn render(peers: &[Peer], rows: &[Row], load_before: &str, load_after: &str) -> String {
    let mut out = String::new();
    out.push_str("## Peers: pas against the other Rust frameworks for agent CLIs\n\n");
    out.push_str("Command: `cargo run --release -p pas-bench -- peers` (builds the peers once with `--locked` into `bench/peers/target`, which needs their dependencies fetched). The same tools written with each framework as its own documentation shows, in `bench/peers/<framework>/` (pas and the hand-written ones in the workspace): a word counter, a CRUD tool over a JSON file (`list`, `get ID`, `create --title T`), the word counter over MCP stdio, and a list of 1,000,000 generated items `{\"id\", \"name\"}`. Start-up: median wall time of alternating runs (a, b, c, ..., a, b, c), stdout a pipe the bench drains. Tokens: o200k of the stdout an agent reads first (the row's note says which), and of the compact JSON of `tools/list`'s result. **Bold**: the best figure of the row.\n\n");
    out.push_str("| figure |");
    for p in peers {
        let _ = write!(out, " {} |", p.name);
    }
    out.push_str("\n|---|");
    for _ in peers {
        out.push_str("---:|");
    }
    out.push('\n');
    for row in rows {
        let best = row.cells.iter().flatten().copied().reduce(|a, b| {
            if row.unit.more_is_better() == (b > a) {
                b
            } else {
                a
            }
        });
        let _ = write!(out, "| {} |", row.what);
        for (peer, cell) in peers.iter().zip(&row.cells) {
            match cell {
                Some(v) if Some(*v) == best => {
                    let _ = write!(out, " **{}** |", row.unit.show(*v));
                }
                Some(v) => {
                    let _ = write!(out, " {} |", row.unit.show(*v));
                }
                None => {
                    let why = peer.missing.get(row.key).copied().unwrap_or("n/a");
                    let _ = write!(out, " — ({why}) |");
                }
            }
        }
        out.push('\n');
    }
    out.push_str("\nWhat each column runs:\n\n| framework | version | features | release profile | learn (tokens row) | `--help` row | one call | list |\n|---|---|---|---|---|---|---|---|\n");
    for p in peers {
        let show = |args: &[&str]| {
            if args.is_empty() {
                "(no arguments)".to_owned()
            } else {
                args.join(" ")
            }
        };
        // `before VALUE after`, without the spaces of empty parts.
        let call = |(before, after): &(Vec<&str>, Vec<&str>), value: &str| {
            let parts: Vec<&str> = before
                .iter()
                .copied()
                .chain([value])
                .chain(after.iter().copied())
                .collect();
            format!("`{}`", parts.join(" "))
        };
        let list = match p.list {
            Some(_) => call(&p.list_call, "1000000"),
            None => "—".to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | `{}` | `{}` | {} | {list} |",
            p.name,
            p.version,
            p.features,
            p.profile,
            show(&p.wc_learn),
            show(&p.wc_help),
            call(&p.wc_call, "FILE"),
        );
    }
    let _ = writeln!(
        out,
        "\nMachine: {} cores; load average (1, 5, 15 min) {load_before} when the run began and {load_after} when it ended. Runs: start-up {STARTUP_RUNS} per binary and row, lists {LIST_RUNS}, MCP {MCP_CALLS} calls after one warm-up call.\n",
        std::thread::available_parallelism().map_or(0, usize::from),
    );
    out
}

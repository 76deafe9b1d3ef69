//! What the documentation faces cost an agent, in o200k tokens (tiktoken's `o200k_base`, which
//! tiktoken-rs embeds, so this runs offline): the agent help (`--agent --help` of the tool, one
//! read), the agent help of the tool and of every command together, the `.llm` document, and the
//! MCP `tools/list` result as a server sends it (compact JSON). PAS Design Goal 2 is that the
//! agent help costs fewer tokens than a wrapper server's tool list.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pas::spec::Registry;
use pas::spec::faces::{agent_help, llm, mcp};
use tiktoken_rs::CoreBPE;

use crate::{report, tools};

/// The token counts of one spec.
struct Row {
    spec: String,
    commands: usize,
    help: usize,
    help_all: usize,
    /// The agent help without the sections MCP has no field for (COMMON PATTERNS, ERROR CODES,
    /// ANTI-PATTERNS): what compares like for like with the MCP list.
    help_core: usize,
    llm: usize,
    llm_lines: usize,
    mcp: usize,
    /// Of `mcp`, what the tools' input examples (`_meta["pas-kit/inputExamples"]`) cost.
    mcp_examples: usize,
}

fn count(bpe: &CoreBPE, text: &str) -> usize {
    bpe.encode_ordinary(text).len()
}

/// The example specs in `specs/`, sorted.
pub(crate) fn example_specs(root: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("specs"))
        .expect("specs/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths
}

fn measure(bpe: &CoreBPE, path: &Path, registry: &Registry) -> Row {
    let help = agent_help::render_tool(registry);
    let mut help_all = help.clone();
    for command in registry.all_commands() {
        if !command.argv_path().is_empty() {
            help_all.push_str(&agent_help::render_command(registry, &command));
        }
    }
    let doc = llm::render(registry);
    let mut tools = mcp::tools_list(registry);
    let list = serde_json::to_string(&tools).expect("JSON");
    for tool in tools["tools"].as_array_mut().into_iter().flatten() {
        if let Some(meta) = tool["_meta"].as_object_mut() {
            meta.remove(mcp::META_INPUT_EXAMPLES);
        }
    }
    let without_examples = serde_json::to_string(&tools).expect("JSON");
    Row {
        spec: path.file_name().unwrap().to_string_lossy().into_owned(),
        commands: registry.all_commands().len(),
        help: count(bpe, &help),
        help_all: count(bpe, &help_all),
        help_core: count(bpe, &without_mcp_less_sections(&help)),
        llm: count(bpe, &doc),
        llm_lines: doc.lines().count(),
        mcp: count(bpe, &list),
        mcp_examples: count(bpe, &list) - count(bpe, &without_examples),
    }
}

/// The help text without its COMMON PATTERNS, ERROR CODES and ANTI-PATTERNS sections.
fn without_mcp_less_sections(help: &str) -> String {
    help.split("\n\n")
        .filter(|block| {
            !["COMMON PATTERNS:", "ERROR CODES:", "ANTI-PATTERNS:"]
                .iter()
                .any(|title| block.starts_with(title))
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn rows() -> Vec<Row> {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let root = tools::workspace();
    example_specs(&root)
        .iter()
        .map(|path| {
            let (_, registry) = pas::spec::load::load_path(path).expect("example spec loads");
            measure(bpe, path, &registry)
        })
        .collect()
}

fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "## Documentation faces in o200k tokens\n\nCommand: `cargo run --release -p pas-bench -- tokens`. o200k tokens (tiktoken-rs \
         `o200k_base`) of each face of every example spec. *Agent help*: `TOOL --agent --help`, \
         the one read that names every command, parameter (with its type) and exit code. *+ every \
         command*: that plus each command's own `--agent --help`. *.llm*: `TOOL docs` (= `pas-gen \
         llm`). *MCP*: `pas-gen --agent mcp`, the compact `tools/list` JSON a server sends. \
         *Help core*: the agent help without COMMON PATTERNS, ERROR CODES and ANTI-PATTERNS, \
         which an MCP list has no field for. A one-command tool's MCP list is one small tool, so \
         its whole agent help may cost more; its core must not (`pas-bench` tests both). *Of \
         which examples*: what the tools' input examples (`_meta[\"pas-kit/inputExamples\"]`, \
         each example as `tools/call` arguments) add to the list.\n\n",
    );
    out.push_str("| spec | commands | agent help | help core | + every command | .llm (lines) | MCP tools/list | of which examples | help / MCP |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} ({}) | {} | {} | {:.2} |",
            r.spec,
            r.commands,
            r.help,
            r.help_core,
            r.help_all,
            r.llm,
            r.llm_lines,
            r.mcp,
            r.mcp_examples,
            r.help as f64 / r.mcp as f64
        );
    }
    out
}

/// Count, print the table and write it into BENCHMARKS.md.
pub fn run() {
    let body = table(&rows());
    print!("{body}");
    let file = tools::workspace().join("BENCHMARKS.md");
    report::update_section(&file, "tokens", &body).expect("write BENCHMARKS.md");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Design Goal 2: one read of the agent help costs less than the MCP tool list.
    #[test]
    fn agent_help_costs_fewer_tokens_than_the_mcp_tool_list() {
        let rows = rows();
        assert!(rows.len() >= 4);
        for r in &rows {
            assert!(r.help > 0 && r.llm > 0 && r.mcp > 0, "{}", r.spec);
            // A one-command tool's MCP list is one small tool: its agent help costs more only
            // by what MCP cannot say (exit codes, patterns, anti-patterns); the rest must beat it.
            let compared = if r.commands == 1 { r.help_core } else { r.help };
            assert!(
                compared < r.mcp,
                "{}: agent help {compared} >= MCP {} tokens",
                r.spec,
                r.mcp
            );
        }
    }
}

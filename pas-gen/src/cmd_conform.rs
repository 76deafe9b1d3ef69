//! `conform [--spec SPEC] [--level N] [--contract C] -- COMMAND...`: the conformance checker.
//! The checks live in `pas-conform` (the runtime's `--validate-pas` runs the same ones); this
//! handler resolves the target, runs them and turns the report into a list reply.

use pas::{Args, Context, Error, Reply};
use pas_conform::{Contract, Target, conform};
use serde_json::Value;

use crate::cmd_docs::load_spec;

/// The exit code's name when the claimed level (or contract) is not met.
const LEVEL_NOT_MET: &str = "LEVEL_NOT_MET";
/// The exit code's name when the program after `--` cannot be started.
const TARGET_NOT_STARTED: &str = "TARGET_NOT_STARTED";

pub fn run(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let command: Vec<String> = args.many("command")?;
    let registry = match args.get::<String>("spec")? {
        Some(path) => Some(load_spec(&path)?),
        None => None,
    };
    let level: Option<i64> = args.get("level")?;
    if let Some(level) = level.filter(|l| !(1..=4).contains(l)) {
        return Err(Error::new(
            pas::codes::INVALID_VALUE,
            format!("--level {level} is not a PAS level"),
        )
        .with_suggestion("give --level 1, 2, 3 or 4 (or leave it out: the spec says)"));
    }
    let contract = args
        .get::<String>("contract")?
        .and_then(|c| Contract::parse(&c));
    let target = Target::resolve(command, registry, level.map(|l| l as u8), contract);
    // A program that cannot start would make every check judge nothing: an error, not a report.
    target.check_start().map_err(|why| {
        Error::new(TARGET_NOT_STARTED, why)
            .with_suggestion("give the path of an executable after `--` (or a program on PATH)")
    })?;
    let report = conform(&target);
    let verdict = (!report.ok()).then(|| {
        Err(Error::new(
            LEVEL_NOT_MET,
            format!(
                "{} meets level {} of the {} level {} it claims",
                report.tool,
                report.level_met(),
                report.contract.as_str(),
                report.claimed
            ),
        )
        .with_suggestion("fix the failed checks; each lists the calls that show the problem"))
    });
    let summary_text = report.summary_text();
    let mut items: Vec<Line> = report
        .checks
        .iter()
        .map(|c| Line(c.to_json(), c.to_text()))
        .collect();
    items.push(Line(report.summary_json(), summary_text));
    Ok(Reply::list_with_text(
        items.into_iter().map(Ok).chain(verdict),
        |line: &Line| line.1.clone(),
    ))
}

/// One line of the report: its JSON for agents, its text for people.
struct Line(Value, String);

impl serde::Serialize for Line {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

//! `outputSchema` and `inputSchema`: valid JSON Schemas (draft 2020-12, what schemars, MCP and
//! the catalog speak), and consistent with the command's output kind and effect.
//!
//! Validity is checked twice: against the draft's meta-schema (every problem, each at its node),
//! then by compiling the schema, which finds what a meta-schema cannot (a `pattern` that is not a
//! regular expression, a `$ref` that resolves nowhere). The `jsonschema` crate is built without
//! its default features, so a `$ref` to a URL is never fetched: it fails to resolve instead.

use std::collections::HashSet;

use serde_json::Value;

use crate::{Command, Effect, OutputKind};

use super::context::Context;
use super::report::{self, Pointer, Report};

/// The meta-schema URI of draft 2020-12 (with or without the empty fragment).
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Meta-schema messages can quote a whole value; a diagnostic is one sentence.
const MAX_DETAIL: usize = 160;

pub fn check(context: &Context, report: &mut Report) {
    for (index, command) in context.registry.commands.iter().enumerate() {
        let pointer = report::command(index);
        if let Some(schema) = &command.output_schema {
            let pointer = pointer.at("outputSchema");
            check_schema("outputSchema", schema, &pointer, report);
            check_output_fit(command, schema, &pointer, report);
        }
        if let Some(schema) = &command.input_schema {
            let pointer = pointer.at("inputSchema");
            check_schema("inputSchema", schema, &pointer, report);
            if command.effect == Effect::Read {
                report.warning(
                    "W014",
                    &pointer,
                    format!("The read command `{}` has an inputSchema.", command.name),
                    "Structured input is for commands that change state: set `effect: write`, or take the input as parameters.",
                );
            }
        }
    }
}

fn check_schema(field: &str, schema: &Value, pointer: &Pointer, report: &mut Report) {
    if let Some(declared) = schema.get("$schema").and_then(Value::as_str)
        && declared.trim_end_matches('#') != DRAFT_2020_12
    {
        report.error(
            "E064",
            &pointer.at("$schema"),
            format!("The {field} declares the dialect `{declared}`, but pas speaks JSON Schema draft 2020-12 only."),
            format!("Remove `$schema` (2020-12 is assumed), or set it to `{DRAFT_2020_12}` and port the schema."),
        );
        return;
    }
    // Compiling also checks the schema against the meta-schema, so a valid schema costs one
    // pass; only a failed one is read again for every meta-schema problem.
    let Err(compile_error) = jsonschema::draft202012::options().build(schema) else {
        return;
    };
    let meta = jsonschema::draft202012::meta::validator();
    let mut seen = HashSet::new();
    for error in meta.iter_errors(schema) {
        let at = error.instance_path().as_str().to_owned();
        if seen.insert(at.clone()) {
            report.error(
                "E062",
                &pointer.join_escaped(&at),
                format!("The {field} is not a valid JSON Schema: {}.", detail(&error.to_string())),
                "Fix the schema node named here; draft 2020-12 keywords are described at json-schema.org.",
            );
        }
    }
    if seen.is_empty() {
        report.error(
            "E063",
            &pointer.join_escaped(compile_error.instance_path().as_str()),
            format!("The {field} cannot be compiled: {}.", detail(&compile_error.to_string())),
            "Check regular expressions (`pattern`) and make every `$ref` point inside the schema (`#/$defs/...`).",
        );
    }
}

/// The schema describes one item of a list or stream, and a result that exists at all.
fn check_output_fit(command: &Command, schema: &Value, pointer: &Pointer, report: &mut Report) {
    let output = command.output;
    match output {
        OutputKind::List | OutputKind::Events => {
            if schema.get("type").and_then(Value::as_str) == Some("array") {
                report.warning(
                    "W012",
                    &pointer.at("type"),
                    format!("The {} command `{}` has an outputSchema of `type: array`, but it describes one item.", output.as_str(), command.name),
                    "Describe a single item (usually `type: object`); the output kind already says there are many.",
                );
            }
        }
        OutputKind::None | OutputKind::Document => report.warning(
            "W013",
            pointer,
            format!("The command `{}` has `output: {}`, so its outputSchema describes nothing.", command.name, output.as_str()),
            "Remove `outputSchema`, or set `output: object` (or `list`) if the command returns JSON.",
        ),
        OutputKind::Object | OutputKind::Job => {}
    }
}

/// The validator's message, cut to a readable length and without a trailing period.
fn detail(message: &str) -> String {
    let message = message.trim().trim_end_matches('.');
    if message.chars().count() <= MAX_DETAIL {
        return message.to_owned();
    }
    let cut: String = message.chars().take(MAX_DETAIL).collect();
    format!("{cut}…")
}

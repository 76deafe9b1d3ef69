//! What a changed spec asks of the handlers: the difference between the registry the generated
//! code was last made from and the new one, in the terms a handler's author acts on (a new flag
//! to read, a parameter whose type changed, a result with another shape, an error code to raise
//! or no longer raise). `generate` reports each one; nothing in it is applied to user code.

use pas_spec::{Command, ExitCode, ParamKind, Parameter, Registry};
use serde::Serialize;

/// One change a handler's author must follow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The command it concerns, or `None` for the whole tool (global flags, exit codes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// A stable word for the kind of change (`parameterAdded`, `outputChanged`, ...).
    pub change: &'static str,
    /// One sentence for people.
    pub text: String,
}

/// Every change from `old` to `new`, commands in the new spec's order.
pub fn changes(old: &Registry, new: &Registry) -> Vec<Change> {
    let mut out = Vec::new();
    let tool = |change, text| Change {
        command: None,
        change,
        text,
    };
    parameters(
        &old.global_flags,
        &new.global_flags,
        "global flag",
        &mut |c, t| out.push(tool(c, t)),
    );
    exit_codes(&old.exit_codes, &new.exit_codes, &mut |c, t| {
        out.push(tool(c, t))
    });
    for command in &new.commands {
        let name = command.name.clone();
        let mut push = |change, text| {
            out.push(Change {
                command: Some(name.clone()),
                change,
                text,
            })
        };
        match old.commands.iter().find(|c| c.name == command.name) {
            None => push(
                "commandAdded",
                format!("new command `{}`: write its handler", command.name),
            ),
            Some(before) => self::command(before, command, &mut push),
        }
    }
    for command in &old.commands {
        if !new.commands.iter().any(|c| c.name == command.name) {
            out.push(Change {
                command: Some(command.name.clone()),
                change: "commandRemoved",
                text: format!(
                    "the command `{}` left the spec: remove its handler",
                    command.name
                ),
            });
        }
    }
    out
}

fn command(old: &Command, new: &Command, push: &mut dyn FnMut(&'static str, String)) {
    parameters(&old.parameters, &new.parameters, "parameter", push);
    if old.output != new.output {
        push(
            "outputChanged",
            format!(
                "the output is now `{}` (was `{}`): return the new result type",
                new.output.as_str(),
                old.output.as_str()
            ),
        );
    } else if old.output_schema != new.output_schema {
        push(
            "outputChanged",
            "the outputSchema changed: build the result with the new fields".to_owned(),
        );
    }
    if old.input_schema != new.input_schema {
        push(
            "inputChanged",
            "the inputSchema changed: check what the handler reads from stdin".to_owned(),
        );
    }
    for code in new.errors.iter().filter(|c| !old.errors.contains(c)) {
        push(
            "errorAdded",
            format!("may now fail with `{code}`: raise it where the spec says"),
        );
    }
    for code in old.errors.iter().filter(|c| !new.errors.contains(c)) {
        push(
            "errorRemoved",
            format!("no longer fails with `{code}`: stop raising it"),
        );
    }
    if old.effect != new.effect {
        push(
            "effectChanged",
            format!(
                "the effect is now `{}` (was `{}`)",
                new.effect.as_str(),
                old.effect.as_str()
            ),
        );
    }
    if old.dry_run != new.dry_run {
        let text = match new.dry_run {
            true => "now offers --dry-run: change nothing when `ctx.dry_run()` is true",
            false => "no longer offers --dry-run",
        };
        push("dryRunChanged", text.to_owned());
    }
    if old.paging != new.paging {
        push(
            "pagingChanged",
            "its paging changed: check how the handler pages".to_owned(),
        );
    }
}

/// Parameters (or global flags) added, removed and changed in a way the handler sees.
fn parameters(
    old: &[Parameter],
    new: &[Parameter],
    what: &str,
    push: &mut dyn FnMut(&'static str, String),
) {
    for param in new {
        match old.iter().find(|p| p.name == param.name) {
            None => push(
                "parameterAdded",
                format!("new {what} {}: read it in the handler", describe(param)),
            ),
            Some(before) => {
                let (was, now) = (shape(before), shape(param));
                if was != now {
                    push(
                        "parameterChanged",
                        format!("the {what} {} is now {now} (was {was})", spelt(param)),
                    );
                }
            }
        }
    }
    for param in old {
        if !new.iter().any(|p| p.name == param.name) {
            push(
                "parameterRemoved",
                format!("the {what} {} is gone: stop reading it", spelt(param)),
            );
        }
    }
}

fn exit_codes(old: &[ExitCode], new: &[ExitCode], push: &mut dyn FnMut(&'static str, String)) {
    for code in new {
        match old.iter().find(|c| c.name == code.name) {
            None => push(
                "exitCodeAdded",
                format!(
                    "new error code `{}` (exit {}): ErrorCode has a variant for it",
                    code.name, code.code
                ),
            ),
            Some(before) if before.code != code.code => push(
                "exitCodeChanged",
                format!(
                    "the error code `{}` now exits {} (was {})",
                    code.name, code.code, before.code
                ),
            ),
            Some(_) => {}
        }
    }
    for code in old {
        if !new.iter().any(|c| c.name == code.name) {
            push(
                "exitCodeRemoved",
                format!(
                    "the error code `{}` is gone: its ErrorCode variant no longer exists",
                    code.name
                ),
            );
        }
    }
}

/// How the parameter is written on the command line: `--untagged`, `<id>`, `<paths>...`.
fn spelt(param: &Parameter) -> String {
    match param.kind {
        ParamKind::Flag => format!("--{}", param.name),
        ParamKind::Positional => format!("<{}>", param.name),
        ParamKind::Variadic => format!("<{}>...", param.name),
    }
}

/// `--untagged (boolean)`, `<id> (integer, required)`.
fn describe(param: &Parameter) -> String {
    format!("{} ({})", spelt(param), shape(param))
}

/// What the handler receives: the type, and whether it may be absent.
fn shape(param: &Parameter) -> String {
    let ty = match (param.kind, param.is_many()) {
        (ParamKind::Variadic, _) | (_, true) => {
            format!("a list of {}", param.element_type().as_str())
        }
        _ => param.ty.as_str().to_owned(),
    };
    let mut parts = vec![ty];
    if param.required {
        parts.push("required".to_owned());
    }
    if let Some(values) = &param.values {
        parts.push(format!("one of {}", values.join("|")));
    }
    if param.kind == ParamKind::Positional {
        parts.push("positional".to_owned());
    }
    parts.join(", ")
}

//! The tool's identity: spec version, name, version, summary, schema version, and that it has
//! something to run.

use crate::{Profile, SPEC_VERSION};

use super::casing::is_kebab;
use super::context::Context;
use super::report::{Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let root = Pointer::root();
    if registry.spec_version != SPEC_VERSION {
        report.error(
            "E010",
            &root.at("specVersion"),
            format!(
                "specVersion is {}, but this version of pas reads spec format {SPEC_VERSION} only.",
                registry.spec_version
            ),
            format!(
                "Set `specVersion: {SPEC_VERSION}`, or use the pas release that reads this format."
            ),
        );
    }
    if !is_kebab(&registry.name) {
        report.error(
            "E011",
            &root.at("name"),
            format!("The tool name `{}` is not kebab-case.", registry.name),
            "Use lowercase letters, digits and single hyphens, starting with a letter (e.g. `word-counter`); it is the binary's name.",
        );
    }
    if let Err(error) = semver::Version::parse(&registry.version) {
        report.error(
            "E012",
            &root.at("version"),
            format!(
                "The version `{}` is not a semantic version ({error}).",
                registry.version
            ),
            "Write MAJOR.MINOR.PATCH, e.g. `0.1.0` or `1.2.0-beta.1`.",
        );
    }
    if registry.summary.trim().is_empty() {
        report.error(
            "E013",
            &root.at("summary"),
            "The tool's summary is empty.",
            "Say in one sentence what the tool is for; agents read it first.",
        );
    }
    if let Some(schema_version) = &registry.schema_version {
        if registry.profile != Profile::Robot {
            report.warning(
                "W002",
                &root.at("schemaVersion"),
                format!(
                    "schemaVersion is only used by the robot profile, and this tool uses `{}`.",
                    registry.profile.as_str()
                ),
                "Remove `schemaVersion`, or set `profile: robot`.",
            );
        } else if semver::Version::parse(schema_version).is_err() {
            report.error(
                "E014",
                &root.at("schemaVersion"),
                format!("The robot schemaVersion `{schema_version}` is not a semantic version."),
                "Write MAJOR.MINOR.PATCH, e.g. `1.0.0`; agents compare it to detect breaking changes.",
            );
        }
    }
    // Resources alone make a tool: the verb commands are generated from them.
    if registry.commands.is_empty() && context.verbs.is_empty() {
        report.error(
            "E015",
            &root.at("commands"),
            "The tool has no commands.",
            "Add at least one command, or resources whose verbs the CLI generates.",
        );
    }
}

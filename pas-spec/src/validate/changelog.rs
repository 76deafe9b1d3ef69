//! The tool's changelog (failure mode 22): each release a semantic version no newer than the
//! tool, listed once, dated `YYYY-MM-DD` when dated, so `changelog` answers what really shipped.

use super::context::Context;
use super::report::{Pointer, Report};

fn is_date(date: &str) -> bool {
    let bytes = date.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
}

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let current = semver::Version::parse(&registry.version).ok();
    let mut seen: Vec<&str> = Vec::new();
    for (index, entry) in registry.changelog.iter().enumerate() {
        let at = Pointer::root().at("changelog").at(index);
        let version = &entry.version;
        match semver::Version::parse(version) {
            Err(error) => report.error(
                "E097",
                &at.at("version"),
                format!("The changelog version `{version}` is not a semantic version ({error})."),
                "Write MAJOR.MINOR.PATCH, e.g. `1.2.0`.",
            ),
            Ok(parsed) if current.as_ref().is_some_and(|c| parsed > *c) => report.error(
                "E097",
                &at.at("version"),
                format!(
                    "The changelog lists `{version}`, newer than the tool's version `{}`.",
                    registry.version
                ),
                "List only released versions, or raise the tool's `version`.",
            ),
            Ok(_) if seen.contains(&version.as_str()) => report.error(
                "E097",
                &at.at("version"),
                format!("The changelog lists `{version}` twice."),
                "Merge the two entries' changes into one.",
            ),
            Ok(_) => {}
        }
        seen.push(version);
        if let Some(date) = entry.date.as_deref().filter(|d| !is_date(d)) {
            report.error(
                "E097",
                &at.at("date"),
                format!("The changelog date `{date}` is not YYYY-MM-DD."),
                "Write the release date as e.g. `2026-11-25`.",
            );
        }
    }
}

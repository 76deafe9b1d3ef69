//! A spec written for a newer spec format is refused before anything else is said about it.
//!
//! A newer format may add keys and values this loader does not know; reporting them one by one
//! (`unknown key ...`) would send the author chasing the wrong problem. So when a document's
//! `specVersion` is above [`SPEC_VERSION`], the loader answers with that alone (E010, the code
//! the validator uses for any other wrong `specVersion`), located at the value, with a hint to
//! upgrade. The check costs nothing on the success path: the registry already holds the number,
//! and the document is only scanned again (for the position, or when it did not parse) on the
//! way to an error.

use serde_saphyr::granit_parser::{Event, Parser};

use super::{MAX_DEPTH, Source};
use crate::{Diagnostic, Location, Registry, SPEC_VERSION};

/// `parsed`, unless the document declares a newer `specVersion`: then the E010 error instead.
pub(super) fn refuse_newer(
    source: &Source,
    parsed: Result<crate::Registry, Diagnostic>,
) -> Result<Registry, Diagnostic> {
    if let Ok(registry) = &parsed
        && registry.spec_version <= SPEC_VERSION
    {
        return parsed;
    }
    match declared(&source.text) {
        Some(declared) if declared.version > u64::from(SPEC_VERSION) => {
            Err(newer(source, &declared))
        }
        _ => parsed,
    }
}

/// The `specVersion` a document declares at its top level, and where its value is.
struct Declared {
    version: u64,
    line: u32,
    column: u32,
}

/// Scans the first document's top-level keys for `specVersion` with an integer value. Stops at
/// it, or at the first event the parser refuses; aliases are never expanded.
fn declared(text: &str) -> Option<Declared> {
    let mut options = serde_saphyr::granit_parser::Options::default();
    options.set_emit_comments(false);
    options.flow_nesting_limit = MAX_DEPTH + 2;
    options.block_nesting_limit = MAX_DEPTH + 2;
    let mut depth = 0usize;
    // At the top level, mapping entries alternate key, value.
    let mut expect_key = true;
    let mut key_is_version = false;
    for item in Parser::new_from_str_with_options(text, options) {
        let (event, span) = item.ok()?;
        let completes_top_node = match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                depth += 1;
                false
            }
            Event::MappingEnd | Event::SequenceEnd => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return None;
                }
                depth == 1
            }
            Event::Scalar(value, ..) if depth == 1 => {
                if !expect_key && key_is_version {
                    let version = value.trim().parse().ok()?;
                    let line = u32::try_from(span.start.line()).unwrap_or(u32::MAX).max(1);
                    let column = u32::try_from(span.start.col()).unwrap_or(u32::MAX - 1) + 1;
                    return Some(Declared {
                        version,
                        line,
                        column,
                    });
                }
                if expect_key {
                    key_is_version = value == "specVersion";
                }
                true
            }
            Event::Alias(_) => depth == 1,
            Event::StreamEnd | Event::DocumentEnd => return None,
            _ => false,
        };
        if completes_top_node {
            if !expect_key {
                key_is_version = false;
            }
            expect_key = !expect_key;
        }
    }
    None
}

fn newer(source: &Source, declared: &Declared) -> Diagnostic {
    Diagnostic::error(
        "E010",
        "/specVersion",
        format!(
            "specVersion is {}, a newer spec format than this pas reads (specVersion {SPEC_VERSION}).",
            declared.version
        ),
    )
    .with_hint(format!(
        "upgrade pas-gen and pas-kit to a release that reads specVersion {} (see CHANGELOG.md), \
         or write the spec in format {SPEC_VERSION}",
        declared.version
    ))
    .at(Location {
        file: source.name.clone(),
        line: declared.line,
        column: declared.column,
    })
}

//! Semantic checks of a registry: every problem at once.
//!
//! The loader has already made sure the document has the registry's shape; this module checks
//! what a shape cannot say: names that clash, exit codes outside a profile's ranges, examples that
//! would not parse, a claimed level the resources do not back, schemas that are not schemas.
//!
//! Each family of rules lives in its own file and writes into one `Report`; none stops at the
//! first problem. `Context` holds the indexes several families share, built once, so that every
//! rule is linear in the size of the spec. The diagnostics are then put in document order
//! (`order`), because the rule families run one after another, not in one walk of the document.

pub mod casing;
mod changelog;
mod commands;
mod context;
mod declared;
mod examples;
mod exit_codes;
mod header;
mod jobs;
mod levels;
mod limits;
mod names;
mod order;
mod parameters;
mod placeholder;
mod report;
mod robot;
mod rust_idents;
mod schemas;
mod secrets;

use crate::{Diagnostic, Registry};

use context::Context;
use report::Report;

/// Every problem in the registry, errors and warnings, in document order.
pub fn validate(registry: &Registry) -> Vec<Diagnostic> {
    let context = Context::new(registry);
    let mut report = Report::default();
    header::check(&context, &mut report);
    levels::check(&context, &mut report);
    exit_codes::check(&context, &mut report);
    names::check(&context, &mut report);
    parameters::check(&context, &mut report);
    rust_idents::check(&context, &mut report);
    secrets::check(&context, &mut report);
    schemas::check(&context, &mut report);
    commands::check(&context, &mut report);
    examples::check(&context, &mut report);
    robot::check(&context, &mut report);
    declared::check(&context, &mut report);
    limits::check(&context, &mut report);
    jobs::check(&context, &mut report);
    changelog::check(&context, &mut report);
    let mut diagnostics = report.into_diagnostics();
    order::sort(registry, &mut diagnostics);
    diagnostics
}

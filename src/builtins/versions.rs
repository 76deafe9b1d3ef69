//! Output versioning (CLI Agent Spec failure mode 22), in every profile: `--schema-version V`
//! refuses a call whose caller expects an output schema the tool is not compatible with, before
//! any handler; `changelog` prints the releases the spec declares.

use pas_spec::Registry;
use pas_spec::versioning::{compatible, schema_version};
use serde_json::json;

use crate::error::Error;
use crate::reply::Reply;

/// The word, as typed (`pas_spec::surface::CHANGELOG_WORD`).
const WORD: &str = pas_spec::surface::CHANGELOG_WORD;

/// The `SCHEMA_VERSION_UNSUPPORTED` error when `--schema-version` names a version this tool's
/// output is not compatible with (or none).
pub(crate) fn refusal(registry: &Registry, pre: &crate::parse::argv::Prescan) -> Option<Error> {
    let wanted = pre.schema_version.as_deref()?;
    let have = schema_version(registry);
    if compatible(have, wanted) {
        return None;
    }
    let message = if wanted.is_empty() {
        format!(
            "--schema-version needs a version; {} answers {have}",
            registry.name
        )
    } else {
        format!(
            "{} answers output schema version {have}, not compatible with {wanted}",
            registry.name
        )
    };
    Some(
        Error::new(pas_spec::builtin_codes::SCHEMA_VERSION_UNSUPPORTED, message)
            .with_suggestion(format!(
                "--schema-version {have} (or drop the flag); `{}` lists the changes",
                pas_spec::surface::builtin_call(registry, WORD)
            ))
            .with_details(json!({ "requested": wanted, "supported": [have] })),
    )
}

/// Whether argv asks for `changelog` (the prescan answers it: `Prescan::builtin_asked`).
pub(crate) fn wanted(pre: &crate::parse::argv::Prescan) -> bool {
    pre.builtin_asked.as_deref() == Some(WORD)
}

/// The declared changelog, with the version and output schema version of this binary.
pub(crate) fn changelog(registry: &Registry) -> Reply {
    Reply::object(&json!({
        "version": registry.version,
        "schema_version": schema_version(registry),
        "changelog": registry.changelog,
    }))
}

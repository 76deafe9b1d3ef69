//! Over-privileged credentials (CLI Agent Spec failure mode 74): when the caller says which
//! scopes its credentials grant (`<TOOL>_SCOPES`, e.g. `TODO_SCOPES="tasks:read tasks:write"`,
//! separated by spaces or commas), a command that declares the scopes it needs (or needs
//! credentials at all) warns before its handler runs about every granted scope beyond them
//! (`OVER_PRIVILEGED`, the extra scopes under `affects`), and about required scopes the
//! credentials lack (`SCOPE_MISSING`). Each profile carries the warning in its own channel: a
//! `{"warning"}` line on stderr (`pas`), `meta.warnings` (compose), the envelope's `warnings`
//! (robot). The call still runs: least privilege is advice, the service enforces access.

use pas_spec::{Command, Registry};

use crate::end::call_state::Shared;
use crate::warning::Warning;

/// The warnings this call's granted scopes earn, written to the profile's warning channel.
pub(crate) fn warn(shared: &Shared, registry: &Registry, command: &Command) {
    if !command.auth && command.scopes.is_empty() {
        return;
    }
    let variable = pas_spec::faces::scopes_env_var(&registry.name);
    let Some(granted) = std::env::var(&variable).ok() else {
        return;
    };
    for warning in warnings(&granted, command, &variable) {
        match &shared.robot {
            Some(state) => state.lock().warnings.push(warning),
            None => {
                let mut output = shared.lock();
                let output = &mut *output;
                let _ = output.profile.warning(&mut output.sinks, &warning);
            }
        }
    }
}

fn warnings(granted: &str, command: &Command, variable: &str) -> Vec<Warning> {
    let granted: Vec<&str> = granted
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let required = &command.scopes;
    let extra: Vec<&str> = granted
        .iter()
        .copied()
        .filter(|g| !required.iter().any(|r| r == g))
        .collect();
    let missing: Vec<&str> = required
        .iter()
        .map(String::as_str)
        .filter(|r| !granted.contains(r))
        .collect();
    let mut out = Vec::new();
    if !extra.is_empty() {
        let needs = match required.is_empty() {
            true => "no scope".to_owned(),
            false => required.join(", "),
        };
        out.push(
            Warning::new(
                "OVER_PRIVILEGED",
                format!(
                    "the credentials grant {} beyond what {} needs ({needs}); use a credential \
                     with only the required scopes",
                    extra.join(", "),
                    command.name
                ),
            )
            .affects(extra),
        );
    }
    if !missing.is_empty() && !granted.is_empty() {
        out.push(
            Warning::new(
                "SCOPE_MISSING",
                format!(
                    "{variable} does not grant {}, which {} needs: the service may refuse it",
                    missing.join(", "),
                    command.name
                ),
            )
            .affects(missing),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(scopes: &[&str]) -> Command {
        serde_json::from_value(serde_json::json!({
            "name": "task.create",
            "description": "d",
            "auth": true,
            "scopes": scopes,
        }))
        .unwrap()
    }

    #[test]
    fn extra_and_missing_scopes_are_each_one_warning() {
        let exact = warnings("tasks:write", &command(&["tasks:write"]), "T_SCOPES");
        assert!(exact.is_empty());
        let over = warnings(
            "tasks:write, admin tasks:read",
            &command(&["tasks:write"]),
            "T_SCOPES",
        );
        assert_eq!(over.len(), 1);
        assert!(over[0].message().contains("admin, tasks:read"), "{over:?}");
        let both = warnings("admin", &command(&["tasks:write"]), "T_SCOPES");
        assert_eq!(both.len(), 2);
    }
}

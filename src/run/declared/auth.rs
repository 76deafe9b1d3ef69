//! Credentials for commands marked `auth: true`: with none present (no variable of `auth.env`
//! set, and no flag reading one of them given), the call fails with `AUTH_REQUIRED` at once,
//! never waiting on a prompt or a browser. A handler that finds its credentials expired returns
//! `CREDENTIALS_EXPIRED`, and the runtime adds how to renew them.

use clap::ArgMatches;
use clap::parser::ValueSource;
use pas_spec::declare::{AUTH_REQUIRED, Auth, CREDENTIALS_EXPIRED};
use pas_spec::{Command, Registry};
use serde_json::{Value, json};

use crate::error::Error;
use crate::parse::clap_face::arg_id;

pub(crate) fn check(
    registry: &Registry,
    command: &Command,
    leaf: &ArgMatches,
) -> Result<(), Error> {
    let Some(auth) = registry.auth.as_ref().filter(|_| command.auth) else {
        return Ok(());
    };
    let by_flag = command
        .parameters
        .iter()
        .chain(&registry.global_flags)
        .filter(|p| p.env.as_ref().is_some_and(|e| auth.env.contains(e)))
        .any(|p| super::constraints::source(leaf, &arg_id(p)) == Some(ValueSource::CommandLine));
    if by_flag || credentials_present(auth) {
        return Ok(());
    }
    let mut details = json!({
        "auth_methods": auth.methods,
        "env": auth.env,
        "required_scopes": command.scopes,
    });
    if let Some(login) = &auth.login {
        details["login_command"] = login.clone().into();
    }
    Err(Error::new(
        AUTH_REQUIRED,
        format!("{} needs credentials and none were found", command.name),
    )
    .with_suggestion(suggestion(auth))
    .with_details(details))
}

/// Whether any credential variable is set (and not empty).
pub(crate) fn credentials_present(auth: &Auth) -> bool {
    auth.env
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

fn suggestion(auth: &Auth) -> String {
    let set = format!("set {}", auth.env.join(" or "));
    match &auth.login {
        Some(login) => format!("{set}, or run `{login}`"),
        None => set,
    }
}

/// A handler's `CREDENTIALS_EXPIRED` gains the re-authentication command and variables the
/// spec declares (what it already says is kept).
pub(crate) fn decorate(registry: &Registry, error: Error) -> Error {
    let Some(auth) = registry
        .auth
        .as_ref()
        .filter(|_| error.code() == CREDENTIALS_EXPIRED)
    else {
        return error;
    };
    let mut details = match error.details() {
        Some(Value::Object(map)) => map.clone(),
        _ => serde_json::Map::new(),
    };
    if let Some(login) = &auth.login {
        details
            .entry("reauth_command")
            .or_insert_with(|| login.clone().into());
    }
    details
        .entry("reauth_env")
        .or_insert_with(|| auth.env.clone().into());
    let suggestion = error
        .suggestion()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("renew the credentials: {}", suggestion(auth)));
    error
        .with_suggestion(suggestion)
        .with_details(Value::Object(details))
}

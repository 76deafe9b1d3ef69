//! `--fields a,b,...` in the `pas` and `compose` profiles (CLI Agent Spec failure mode 4): keep
//! only these fields of each item of a command's list, so an agent pays tokens only for what it
//! reads. The robot profile has its own (robot 8.2, `crate::parse::robot_flags`); this is the same
//! rule for the other two: the flag is in the surface table every face reads, an unknown field
//! is an argument error naming the known ones (from the command's output schema), checked
//! before the handler runs, and a command with no list refuses the flag.
//!
//! The filter runs on the JSON items the profile receives (agent mode, `--format`, every
//! compose envelope), in the items' own key order; people's text output is left as it is.

use std::borrow::Cow;

use pas_spec::{Command, OutputKind, Profile, Registry};
use serde_json::{Value, json};

use crate::codes;
use crate::error::Error;

/// The id of the runtime's `--fields` arg (pas and compose).
pub(crate) const FIELDS_ID: &str = "pas_fields";

/// Adds `--fields` to a `pas` or `compose` tool whose surface lists it, unless a command of the
/// tool declares a `--fields` of its own (the tool's flag wins).
pub(crate) fn augment(cmd: clap::Command, registry: &Registry) -> clap::Command {
    let surface = pas_spec::surface::of(registry.profile);
    if registry.profile == Profile::Robot || !surface.has_flag("fields") || declares_fields(&cmd) {
        return cmd;
    }
    let Some(row) = surface.flag("fields") else {
        return cmd;
    };
    cmd.arg(crate::parse::flag_args::arg(FIELDS_ID, row, row.meaning).global(true))
}

/// Whether the command or any of its subcommands has a `--fields` already.
fn declares_fields(cmd: &clap::Command) -> bool {
    cmd.get_arguments().any(|a| a.get_long() == Some("fields"))
        || cmd.get_subcommands().any(declares_fields)
}

/// The fields `--fields` selected for `command`, checked against the fields its items have.
pub(crate) fn selected(
    registry: &Registry,
    command: &Command,
    leaf: &clap::ArgMatches,
) -> Result<Option<Vec<String>>, Error> {
    if registry.profile == Profile::Robot {
        return Ok(None);
    }
    let Some(text) = leaf.try_get_one::<String>(FIELDS_ID).ok().flatten() else {
        return Ok(None);
    };
    let fields: Vec<String> = text
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect();
    if command.list_field.is_none() && command.output != OutputKind::List {
        return Err(Error::new(
            codes::INVALID_ARGUMENT,
            format!(
                "--fields {text}: `{}` has no list to select fields from",
                command.name
            ),
        )
        .with_suggestion("leave out --fields"));
    }
    if fields.is_empty() {
        return Err(
            Error::new(codes::INVALID_ARGUMENT, "--fields names no field")
                .with_suggestion("--fields a,b (the fields of the items to keep)"),
        );
    }
    // Without an output schema the items' fields are unknown: any name is taken.
    let Some(known) = known_fields(command) else {
        return Ok(Some(fields));
    };
    let unknown: Vec<&String> = fields.iter().filter(|f| !known.contains(f)).collect();
    if unknown.is_empty() {
        return Ok(Some(fields));
    }
    let names: Vec<String> = unknown.iter().map(|f| format!("`{f}`")).collect();
    Err(Error::new(
        codes::INVALID_ARGUMENT,
        format!(
            "--fields names {} that the items of `{}` do not have",
            names.join(", "),
            command.name
        ),
    )
    .with_suggestion(format!("use some of: {}", known.join(", ")))
    .with_details(json!({ "unknown": unknown, "known": known })))
}

/// One item (compact JSON) with only `fields` kept; an item that is not an object, or not
/// JSON, is left as it is.
pub(crate) fn item<'a>(json: &'a [u8], fields: &[String]) -> Cow<'a, [u8]> {
    match serde_json::from_slice::<Value>(json) {
        Ok(Value::Object(mut map)) => {
            map.retain(|k, _| fields.contains(k));
            serde_json::to_vec(&map).map_or(Cow::Borrowed(json), Cow::Owned)
        }
        _ => Cow::Borrowed(json),
    }
}

/// An object result whose principal list is at `list_field`, with its items filtered.
pub(crate) fn object<'a>(
    json: &'a [u8],
    list_field: Option<&str>,
    fields: &[String],
) -> Cow<'a, [u8]> {
    let Some(list_field) = list_field else {
        return Cow::Borrowed(json);
    };
    let Ok(mut value) = serde_json::from_slice::<Value>(json) else {
        return Cow::Borrowed(json);
    };
    let Some(Value::Array(items)) = value.get_mut(list_field) else {
        return Cow::Borrowed(json);
    };
    for item in items {
        if let Value::Object(map) = item {
            map.retain(|k, _| fields.contains(k));
        }
    }
    serde_json::to_vec(&value).map_or(Cow::Borrowed(json), Cow::Owned)
}

/// The fields the items of the command's principal list have, from its output schema.
pub(crate) fn known_fields(command: &Command) -> Option<Vec<String>> {
    let schema = command.output_schema.as_ref()?;
    let item = match (&command.list_field, command.output) {
        (Some(field), _) => schema.pointer(&format!("/properties/{field}/items"))?,
        (None, OutputKind::List) => schema,
        (None, _) => return None,
    };
    let properties = item.get("properties")?.as_object()?;
    Some(properties.keys().cloned().collect())
}

/// The value a `--fields`/`--compact` filter keeps of one item.
pub(crate) fn filter_item(item: &mut Value, fields: Option<&[String]>, omit: &[String]) {
    let Value::Object(map) = item else { return };
    if let Some(fields) = fields {
        map.retain(|k, _| fields.contains(k));
    }
    for key in omit {
        map.remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_keeps_only_the_fields_in_its_own_order() {
        let fields = vec!["title".to_owned(), "id".to_owned()];
        let kept = item(br#"{"id":1,"done":false,"title":"a"}"#, &fields);
        assert_eq!(&*kept, br#"{"id":1,"title":"a"}"#);
        // Not an object: as it is.
        assert_eq!(&*item(b"42", &fields), b"42");
    }

    #[test]
    fn an_objects_list_field_is_filtered() {
        let fields = vec!["id".to_owned()];
        let kept = object(br#"{"n":1,"rows":[{"id":1,"x":2}]}"#, Some("rows"), &fields);
        assert_eq!(&*kept, br#"{"n":1,"rows":[{"id":1}]}"#);
    }
}

//! Questions the derive asks about a field's type at its expansion site, answered by method
//! resolution ("autoref specialisation"): `(&Probe::<T>::new()).json_schema()` finds the method
//! on `Probe<T>` when `T: JsonSchema` (one reference away), else the fallback on `&Probe<T>`
//! (two references away). A field type without `JsonSchema` is therefore no compile error: the
//! registry builder reads its type from clap's value parser instead.

use std::marker::PhantomData;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

use super::agent_tool::AgentTool;
use super::meta::{FieldSchema, LazySchema};

/// A zero-sized stand-in for the type `T`.
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> Probe<T> {
    /// The probe.
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T: ?Sized> Default for Probe<T> {
    fn default() -> Self {
        Probe::new()
    }
}

/// Chosen when `T: JsonSchema`.
pub trait JsonSchemaOf {
    /// `T`'s JSON Schema, made when asked for.
    fn json_schema(&self) -> Option<LazySchema>;
}

impl<T: JsonSchema + ?Sized> JsonSchemaOf for Probe<T> {
    fn json_schema(&self) -> Option<LazySchema> {
        Some(LazySchema(schema_of::<T>))
    }
}

/// The fallback.
pub trait NoJsonSchema {
    /// Nothing.
    fn json_schema(&self) -> Option<LazySchema>;
}

impl<T: ?Sized> NoJsonSchema for &Probe<T> {
    fn json_schema(&self) -> Option<LazySchema> {
        None
    }
}

/// Chosen when `T: AgentTool` (a flattened args struct, a variant's payload).
pub trait ToolFieldsOf {
    /// The field schemas `T` knows.
    fn tool_fields(&self) -> Vec<FieldSchema>;
}

impl<T: AgentTool + ?Sized> ToolFieldsOf for Probe<T> {
    fn tool_fields(&self) -> Vec<FieldSchema> {
        T::agent_node().fields()
    }
}

/// The fallback.
pub trait NoToolFields {
    /// Nothing.
    fn tool_fields(&self) -> Vec<FieldSchema>;
}

impl<T: ?Sized> NoToolFields for &Probe<T> {
    fn tool_fields(&self) -> Vec<FieldSchema> {
        Vec::new()
    }
}

/// `T`'s JSON Schema (draft 2020-12) as a registry holds it: self-contained (`$defs` inside),
/// without a `$schema` key, since every schema of a spec is 2020-12 anyway.
pub fn schema_of<T: JsonSchema + ?Sized>() -> Value {
    let settings = SchemaSettings::draft2020_12().with(|settings| settings.meta_schema = None);
    settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// The robot settings written as the spec's JSON (`robot = "..."`), which the derive has
/// checked; a failure here is a bug in the derive.
pub fn robot_from_json(text: &str) -> pas_spec::robot::RobotSettings {
    serde_json::from_str(text).expect("#[derive(AgentTool)] checked these robot settings")
}

/// The tool's `declared = "{...}"`, which the derive has checked.
pub fn tool_declared_from_json(text: &str) -> pas_spec::derive_declared::ToolDeclared {
    serde_json::from_str(text).expect("#[derive(AgentTool)] checked these declarations")
}

/// A command's `declared = "{...}"`, which the derive has checked.
pub fn command_declared_from_json(text: &str) -> pas_spec::derive_declared::CommandDeclared {
    serde_json::from_str(text).expect("#[derive(AgentTool)] checked these declarations")
}

/// The changelog written as JSON text (`changelog = "[...]"`), which the derive has checked.
pub fn changelog_from_json(text: &str) -> Vec<pas_spec::ChangelogEntry> {
    serde_json::from_str(text).expect("#[derive(AgentTool)] checked this changelog")
}

/// A JSON Schema written as JSON text (`output_schema = "..."`), which the derive has checked
/// parses; a failure here is a bug in the derive, not in the tool.
pub fn schema_from_json(text: &str) -> Value {
    serde_json::from_str(text).expect("#[derive(AgentTool)] checked this schema is JSON")
}

//! The derive's model: what `#[derive(AgentTool)]` (crate `pas-macros`) emits, and the
//! registry built from it with clap's own `Command`. Public as [`pas::tool`](crate::tool), the
//! facade in `lib.rs`; it imports nothing of the runtime above the ground, so the call's
//! folders can all read it.

pub(crate) mod agent_tool;
pub(crate) mod build;
pub(crate) mod const_check;
pub(crate) mod json_type;
pub(crate) mod meta;
pub(crate) mod params;
pub(crate) mod probe;
pub(crate) mod walk;

pub use agent_tool::AgentTool;
pub use build::registry_of;
pub(crate) use build::{PendingSchemas, SchemaFill};
pub use meta::{
    CommandMeta, FieldSchema, LazySchema, Node, Package, Role, StructNode, ToolMeta, VariantNode,
};

/// What the derive's expansion names; not a stable API.
#[doc(hidden)]
pub mod private {
    pub use super::probe::{
        JsonSchemaOf, NoJsonSchema, NoToolFields, Probe, ToolFieldsOf, changelog_from_json,
        command_declared_from_json, robot_from_json, schema_from_json, schema_of,
        tool_declared_from_json,
    };
}

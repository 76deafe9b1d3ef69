//! The declarations `#[derive(AgentTool)]` carries as the spec's JSON in one `declared = "..."`
//! key each: the tool's `auth` and `requirements`, and a command's `auth`, `scopes`, `needs`,
//! `sideEffects`, `untrusted` and its parameters' constraints and relations (by parameter name,
//! merged onto the parameters clap describes). The emitter writes them from a registry
//! ([`ToolDeclared::of`], [`CommandDeclared::of`]); a derive-built tool puts them back
//! ([`ToolDeclared::apply`], [`CommandDeclared::apply`]), so its registry says what the spec
//! says and the runtime enforces it alike.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::declare::{Auth, Requirement, SideEffect};
use crate::{Command, Parameter, Registry};

/// The tool-level `declared = "{...}"`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolDeclared {
    /// The spec's `auth`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<Auth>,
    /// The spec's `requirements`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<Requirement>,
    /// Each global flag's constraints and relations, by the flag's name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub global_flags: BTreeMap<String, ParameterDeclared>,
}

impl ToolDeclared {
    /// What `registry` declares at the tool level, or `None` when nothing.
    pub fn of(registry: &Registry) -> Option<ToolDeclared> {
        let declared = ToolDeclared {
            auth: registry.auth.clone(),
            requirements: registry.requirements.clone(),
            global_flags: declared_parameters(&registry.global_flags),
        };
        (declared != ToolDeclared::default()).then_some(declared)
    }

    /// Puts the declarations into `registry`, each global flag's by its name. A name the tool
    /// has no global flag of is an error naming it (nothing is applied then).
    pub fn apply(self, registry: &mut Registry) -> Result<(), String> {
        if let Some(problem) = unknown_name(
            &self.global_flags,
            &registry.global_flags,
            "the tool's `declared`",
        ) {
            return Err(problem);
        }
        registry.auth = self.auth;
        registry.requirements = self.requirements;
        apply_parameters(self.global_flags, &mut registry.global_flags);
        Ok(())
    }
}

/// The command-level `declared = "{...}"`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CommandDeclared {
    /// The spec's `auth: true`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auth: bool,
    /// The spec's `scopes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// The spec's `needs`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    /// The spec's `sideEffects`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub side_effects: Vec<SideEffect>,
    /// The spec's `untrusted`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untrusted: Vec<String>,
    /// Each parameter's constraints and relations, by the parameter's name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, ParameterDeclared>,
}

/// One parameter's constraints and relations, as the spec writes them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParameterDeclared {
    /// The spec's `minimum`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<serde_json::Number>,
    /// The spec's `maximum`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<serde_json::Number>,
    /// The spec's `minLength`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// The spec's `maxLength`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    /// The spec's `pattern`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// The spec's `requires`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<String>,
    /// The spec's `conflicts` (added to the conflicts clap declares).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<String>,
}

impl ParameterDeclared {
    /// What `param` declares, or `None` when nothing.
    pub fn of(param: &Parameter) -> Option<ParameterDeclared> {
        let declared = ParameterDeclared {
            minimum: param.minimum.clone(),
            maximum: param.maximum.clone(),
            min_length: param.min_length,
            max_length: param.max_length,
            pattern: param.pattern.clone(),
            requires: param.requires.clone(),
            conflicts: param.conflicts.clone(),
        };
        (declared != ParameterDeclared::default()).then_some(declared)
    }

    fn apply(self, param: &mut Parameter) {
        param.minimum = self.minimum.or(param.minimum.take());
        param.maximum = self.maximum.or(param.maximum.take());
        param.min_length = self.min_length.or(param.min_length);
        param.max_length = self.max_length.or(param.max_length);
        param.pattern = self.pattern.or(param.pattern.take());
        param.requires = self.requires;
        for other in self.conflicts {
            if !param.conflicts.contains(&other) {
                param.conflicts.push(other);
            }
        }
    }
}

impl CommandDeclared {
    /// What `command` declares, or `None` when nothing.
    pub fn of(command: &Command) -> Option<CommandDeclared> {
        let declared = CommandDeclared {
            auth: command.auth,
            scopes: command.scopes.clone(),
            needs: command.needs.clone(),
            side_effects: command.side_effects.clone(),
            untrusted: command.untrusted.clone(),
            parameters: declared_parameters(&command.parameters),
        };
        (declared != CommandDeclared::default()).then_some(declared)
    }

    /// Puts the declarations into `command`, each parameter's by its name. A name the command
    /// has no parameter of is an error naming it (nothing is applied then).
    pub fn apply(self, command: &mut Command) -> Result<(), String> {
        let owner = format!("`declared` of command `{}`", command.name);
        if let Some(problem) = unknown_name(&self.parameters, &command.parameters, &owner) {
            return Err(problem);
        }
        command.auth = self.auth;
        command.scopes = self.scopes;
        command.needs = self.needs;
        command.side_effects = self.side_effects;
        command.untrusted = self.untrusted;
        apply_parameters(self.parameters, &mut command.parameters);
        Ok(())
    }

    /// Whether a side effect declared here leaves something `cleanup` can undo (`filesystem`
    /// or `background`).
    pub fn offers_cleanup(&self) -> bool {
        use crate::declare::SideEffectKind;
        self.side_effects.iter().any(|e| {
            matches!(
                e.kind,
                SideEffectKind::Filesystem | SideEffectKind::Background
            )
        })
    }
}

fn declared_parameters(params: &[Parameter]) -> BTreeMap<String, ParameterDeclared> {
    params
        .iter()
        .filter_map(|p| Some((p.name.clone(), ParameterDeclared::of(p)?)))
        .collect()
}

/// The error of a declared name `params` has no parameter of.
fn unknown_name(
    declared: &BTreeMap<String, ParameterDeclared>,
    params: &[Parameter],
    owner: &str,
) -> Option<String> {
    let name = declared
        .keys()
        .find(|name| !params.iter().any(|p| &p.name == *name))?;
    let known: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    Some(format!(
        "{owner} names parameter `{name}`, which is not there (the parameters: {})",
        if known.is_empty() {
            "none".to_owned()
        } else {
            known.join(", ")
        }
    ))
}

fn apply_parameters(declared: BTreeMap<String, ParameterDeclared>, params: &mut [Parameter]) {
    for (name, declared) in declared {
        if let Some(param) = params.iter_mut().find(|p| p.name == name) {
            declared.apply(param);
        }
    }
}

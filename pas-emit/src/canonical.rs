//! The registry as the derive says it, for the round trip: a derive-built binary reads its
//! registry from clap's command tree, which cannot tell apart a few spellings of one spec.
//!
//! - `path` equal to the dotted name's words is implied, so it is dropped;
//! - an array parameter's `items: string` is the default, so it is dropped;
//! - a switch (boolean flag) has no default value;
//! - commands come in argv-tree order (a group's commands together, in order of first
//!   appearance), which is the order clap's subcommands list them in.
//!
//! `canonical(spec) == canonical(printed)` is the round trip's identity; for specs already in
//! this form (every example spec) `canonical` changes nothing.

use pas_spec::argv_tree::ArgvTree;
use pas_spec::{Command, ParamKind, ParamType, Parameter, Registry};

/// `registry` in the form a derive-built binary prints it back.
pub fn canonical(registry: &Registry) -> Registry {
    let mut registry = registry.clone();
    for param in &mut registry.global_flags {
        parameter(param);
    }
    for command in &mut registry.commands {
        let implied: Vec<String> = command.name.split('.').map(str::to_owned).collect();
        if command.path.as_ref() == Some(&implied) {
            command.path = None;
        }
        for param in &mut command.parameters {
            parameter(param);
        }
    }
    registry.commands = tree_order(std::mem::take(&mut registry.commands));
    registry
}

fn parameter(param: &mut Parameter) {
    if param.ty == ParamType::Array && param.items == Some(ParamType::String) {
        param.items = None;
    }
    if param.kind == ParamKind::Flag && param.ty == ParamType::Boolean {
        param.default = None;
    }
}

/// Depth-first over the argv tree, children in order of first appearance.
fn tree_order(commands: Vec<Command>) -> Vec<Command> {
    let mut tree = ArgvTree::default();
    for (index, command) in commands.iter().enumerate() {
        tree.insert(&command.argv_path(), index);
    }
    let order: Vec<usize> = tree.depth_first().into_iter().copied().collect();
    let mut slots: Vec<Option<Command>> = commands.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|index| slots[index].take())
        .collect()
}

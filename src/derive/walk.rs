//! Pairs a derived type's nodes with clap's command tree: which clap (sub)command each command's
//! metadata belongs to, and under which argv words.
//!
//! clap's derive adds one subcommand per variant, in declaration order, except that a
//! `#[command(flatten)]` variant adds the inner enum's subcommands in its place and skipped or
//! external variants add none (`clap_derive`'s `gen_augment`). Walking the variants in the same
//! order pairs each with its subcommand exactly, whatever names clap gave them.

use super::meta::{CommandMeta, FieldSchema, Node, Role, StructNode, VariantNode};

/// One command: where it is, its clap command, and what the derive knows about it.
pub(crate) struct Found<'a> {
    /// The argv words that select it.
    pub path: Vec<String>,
    /// Its clap command (the root for a single-command tool).
    pub cmd: &'a clap::Command,
    /// Its `#[agent(...)]` keys.
    pub meta: CommandMeta,
    /// Its fields' schemas.
    pub fields: Vec<FieldSchema>,
}

/// The commands of a tool, and the root's own args when they are global flags (a root with
/// subcommands).
pub(crate) struct Walk<'a> {
    pub globals: Option<Vec<FieldSchema>>,
    pub commands: Vec<Found<'a>>,
}

/// Walks `root` with the root type's node. Panics when the two disagree: that is a derive used
/// in a way it does not support (a subcommand added by hand, a variant payload that has
/// subcommands), to be fixed in the code, never an input error.
pub(crate) fn walk<'a>(root: &'a clap::Command, node: Node, type_name: &str) -> Walk<'a> {
    let mut walker = Walker {
        type_name,
        walk: Walk {
            globals: None,
            commands: Vec::new(),
        },
    };
    walker.node(root, Vec::new(), node);
    walker.walk
}

struct Walker<'a, 't> {
    type_name: &'t str,
    walk: Walk<'a>,
}

impl<'a> Walker<'a, '_> {
    fn node(&mut self, cmd: &'a clap::Command, path: Vec<String>, node: Node) {
        match node {
            Node::Struct(node) => self.structure(cmd, path, node),
            Node::Enum(variants) => {
                let subcommands: Vec<&'a clap::Command> = cmd.get_subcommands().collect();
                let mut next = 0;
                self.variants(&subcommands, &mut next, &path, variants);
                if next != subcommands.len() {
                    let extra: Vec<&str> =
                        subcommands[next..].iter().map(|s| s.get_name()).collect();
                    self.fail(format!(
                        "`{}` has subcommands no variant accounts for: {}",
                        words(cmd, &path),
                        extra.join(", ")
                    ));
                }
            }
        }
    }

    fn structure(&mut self, cmd: &'a clap::Command, path: Vec<String>, node: StructNode) {
        match node.subcommands {
            None => {
                if cmd.has_subcommands() {
                    self.fail(format!(
                        "`{}` has subcommands, but its type has no `#[command(subcommand)]` field deriving AgentTool",
                        words(cmd, &path)
                    ));
                }
                let meta = node.command.unwrap_or_default();
                self.walk.commands.push(Found {
                    path,
                    cmd,
                    meta,
                    fields: node.fields,
                });
            }
            Some(subcommands) => {
                // The root's args are the tool's global flags. Args of an inner group have no
                // place in a registry and are left out.
                if path.is_empty() {
                    self.walk.globals = Some(node.fields);
                }
                self.node(cmd, path, *subcommands);
            }
        }
    }

    fn variants(
        &mut self,
        subcommands: &[&'a clap::Command],
        next: &mut usize,
        path: &[String],
        variants: Vec<VariantNode>,
    ) {
        for variant in variants {
            let take = !matches!(variant.role, Role::Flatten(_) | Role::Skip);
            let sub = if take {
                let Some(sub) = subcommands.get(*next).copied() else {
                    self.fail(format!(
                        "variant `{}` has no clap subcommand",
                        variant.ident
                    ));
                };
                *next += 1;
                Some(sub)
            } else {
                None
            };
            let mut sub_path = path.to_vec();
            if let Some(sub) = sub {
                sub_path.push(sub.get_name().to_owned());
            }
            match (variant.role, sub) {
                (Role::Command, Some(sub)) => {
                    if sub.has_subcommands() {
                        self.fail(format!(
                            "variant `{}` has subcommands: mark it `#[command(subcommand)]` over an enum deriving AgentTool",
                            variant.ident
                        ));
                    }
                    let found = Found {
                        path: sub_path,
                        cmd: sub,
                        meta: variant.command,
                        fields: variant.fields,
                    };
                    self.walk.commands.push(found);
                }
                (Role::Nested(node), Some(sub)) => self.node(sub, sub_path, *node),
                (Role::Flatten(node), _) => match *node {
                    Node::Enum(inner) => self.variants(subcommands, next, path, inner),
                    Node::Struct(_) => self.fail(format!(
                        "`#[command(flatten)]` variant `{}` is not an enum",
                        variant.ident
                    )),
                },
                _ => {}
            }
        }
    }

    fn fail(&self, problem: String) -> ! {
        panic!("pas::registry_of::<{}>: {problem}", self.type_name)
    }
}

fn words(cmd: &clap::Command, path: &[String]) -> String {
    if path.is_empty() {
        cmd.get_name().to_owned()
    } else {
        path.join(" ")
    }
}

//! The shape of the generated code, decided before any token is written: the command tree by
//! argv words (groups become enums, commands become variants or the root struct), and the Rust
//! name of every type and method. Specs the derive cannot express are refused here.

use pas_spec::argv_tree::ArgvTree;
use pas_spec::{Command, Registry};
use proc_macro2::Ident;

use crate::error::EmitError;
use crate::items::{self, ItemType};
use crate::names::{self, Scope};

/// Names the generated module always defines.
pub(crate) const CLI: &str = "Cli";
pub(crate) const COMMANDS: &str = "Commands";
pub(crate) const GLOBALS: &str = "Globals";
pub(crate) const HANDLERS: &str = "Handlers";
pub(crate) const ERROR_CODE: &str = "ErrorCode";

/// Everything the token writers need.
pub(crate) struct Plan<'a> {
    pub registry: &'a Registry,
    pub root: Root,
    /// One per registry command, in registry order.
    pub leaves: Vec<Leaf<'a>>,
    /// Command groups (enums), the root group first when there is one.
    pub groups: Vec<Group>,
    /// The struct of the tool's global flags, when it has any.
    pub globals: Option<Ident>,
}

/// What the root type is.
pub(crate) enum Root {
    /// A single-command tool: the root struct is the command (leaf index).
    Single(usize),
    /// A tool of commands: the root struct holds the root group (group index 0).
    Group,
}

/// One command.
pub(crate) struct Leaf<'a> {
    pub command: &'a Command,
    /// Index in `registry.commands` (for JSON pointers).
    pub index: usize,
    /// Its arguments struct (the root `Cli` for a single-command tool).
    pub args: Ident,
    /// Its handler method.
    pub method: Ident,
    /// Its result type.
    pub item: ItemType,
    /// The enum variants that lead to it from the root group: (enum, variant).
    pub route: Vec<(Ident, Ident)>,
}

/// One group of commands: an enum deriving `Subcommand`.
pub(crate) struct Group {
    pub ident: Ident,
    pub variants: Vec<Variant>,
}

/// One variant: an argv word and what it selects.
pub(crate) struct Variant {
    pub ident: Ident,
    pub word: String,
    pub target: Target,
}

pub(crate) enum Target {
    Leaf(usize),
    Group(usize),
}

/// The argv tree while it is built: command indexes by their words.
type Node = ArgvTree<usize>;

/// Plans the code for `registry`, or says why the derive cannot express it.
pub(crate) fn plan(registry: &Registry) -> Result<Plan<'_>, EmitError> {
    if registry.commands.is_empty() {
        return Err(EmitError::unsupported(
            "/commands",
            "the spec has no commands of its own; the Rust types need at least one beside the resources' verbs",
            "add a command (e.g. a `search`), or serve the spec at run time with `pas::App::new(registry)`",
        ));
    }
    let mut tree = Node::default();
    for (index, command) in registry.commands.iter().enumerate() {
        if let Some(&other) = tree.insert(&command.argv_path(), index) {
            return Err(EmitError::unsupported(
                format!("/commands/{index}"),
                format!(
                    "commands `{}` and `{}` have the same argv words",
                    registry.commands[other].name, command.name
                ),
                "give each command its own path",
            ));
        }
    }
    let single = tree.item().is_some();
    if single && !registry.resources.is_empty() {
        // The verbs are subcommands, which a root that is itself the command cannot have.
        return Err(EmitError::unsupported(
            "/commands",
            "a tool with resources offers its verbs as subcommands, so its own commands need words of their own",
            "give the command a `path` (or a dotted name) of its own, e.g. `search`",
        ));
    }
    if single && !tree.children.is_empty() {
        return Err(EmitError::unsupported(
            "/commands",
            "the tool is both a command (a command with `path: []`) and a group of commands",
            "give the root command a word of its own, or make it the only command",
        ));
    }
    if single && !registry.global_flags.is_empty() {
        return Err(EmitError::unsupported(
            "/globalFlags",
            "a single-command tool's flags are its command's parameters",
            "move the global flags into the command's parameters",
        ));
    }

    let mut types = Scope::with(&[CLI, COMMANDS, GLOBALS, HANDLERS, ERROR_CODE]);
    let mut methods = Scope::with(&["app"]);
    let mut shared = items::Shared::new();
    let mut leaves = Vec::with_capacity(registry.commands.len());
    for (index, command) in registry.commands.iter().enumerate() {
        let words: Vec<&str> = command.name.split('.').collect();
        let base = names::pascal(&words);
        let args = if single {
            CLI.to_owned()
        } else {
            types.fresh(format!("{base}Args"))
        };
        let item = items::item_type(command, &base, &mut types, &mut shared);
        leaves.push(Leaf {
            command,
            index,
            args: names::ident(&args),
            method: names::ident(&methods.fresh(names::snake(&command.name))),
            item,
            route: Vec::new(),
        });
    }
    let mut groups = Vec::new();
    let root = if single {
        Root::Single(0)
    } else {
        let mut builder = Builder {
            types: &mut types,
            groups: &mut groups,
            leaves: &mut leaves,
        };
        builder.group(&tree, &[], Vec::new(), registry)?;
        Root::Group
    };
    let globals = (!registry.global_flags.is_empty()).then(|| names::ident(GLOBALS));
    Ok(Plan {
        registry,
        root,
        leaves,
        groups,
        globals,
    })
}

struct Builder<'p, 'a> {
    types: &'p mut Scope,
    groups: &'p mut Vec<Group>,
    leaves: &'p mut Vec<Leaf<'a>>,
}

impl Builder<'_, '_> {
    /// Adds the enum of `node` (at argv `path`) and its descendants; returns its index.
    fn group(
        &mut self,
        node: &Node,
        path: &[String],
        route: Vec<(Ident, Ident)>,
        registry: &Registry,
    ) -> Result<usize, EmitError> {
        let name = if path.is_empty() {
            COMMANDS.to_owned()
        } else {
            let words: Vec<&str> = path.iter().map(String::as_str).collect();
            self.types
                .fresh(format!("{}Commands", names::pascal(&words)))
        };
        let ident = names::ident(&name);
        let index = self.groups.len();
        self.groups.push(Group {
            ident: ident.clone(),
            variants: Vec::new(),
        });
        let mut variant_names = Scope::default();
        for (word, child) in &node.children {
            let variant = names::ident(&variant_names.fresh(names::pascal(&[word])));
            let mut child_route = route.clone();
            child_route.push((ident.clone(), variant.clone()));
            let mut child_path = path.to_vec();
            child_path.push(word.clone());
            let target = match (child.item().copied(), child.children.is_empty()) {
                (Some(leaf), true) => {
                    self.leaves[leaf].route = child_route;
                    Target::Leaf(leaf)
                }
                (None, false) => {
                    Target::Group(self.group(child, &child_path, child_route, registry)?)
                }
                (Some(leaf), false) => {
                    return Err(EmitError::unsupported(
                        format!("/commands/{leaf}"),
                        format!(
                            "`{}` is both a command and a group of commands (`{} ...`)",
                            registry.commands[leaf].name,
                            child_path.join(" ")
                        ),
                        "give the command a word of its own under the group",
                    ));
                }
                (None, true) => unreachable!("a tree node holds a command or children"),
            };
            self.groups[index].variants.push(Variant {
                ident: variant,
                word: word.clone(),
                target,
            });
        }
        Ok(index)
    }
}

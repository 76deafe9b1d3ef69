//! `pas::import::spec_draft` (pas-kit feature `import`, issue 32 item 3) on real clap trees: the
//! parser pas-gen itself runs (built by the runtime from pas-gen.yaml) and a derive CLI. Each
//! draft passes `pas-gen check` as it is, its gaps marked `TODO(author)`.

use clap::{CommandFactory, Parser, Subcommand};
use pas_spec::{Format, Source, check_source};

fn check_clean(name: &str, draft: &str) -> pas_spec::Registry {
    let (registry, diagnostics) = check_source(&Source::new(name, draft, Format::Yaml));
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}\n{draft}");
    registry.expect("a clean draft gives its registry")
}

#[test]
fn pas_gen_s_own_clap_tree_drafts_a_spec_that_checks() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/pas-gen.yaml")).unwrap();
    let own = pas_spec::load::parse(&Source::new("pas-gen.yaml", text, Format::Yaml)).unwrap();
    let app = pas::App::new(own.clone());
    let draft = pas::import::spec_draft(app.command());
    let drafted = check_clean("pas-gen-draft.yaml", &draft);
    // Every command of the spec comes back, with its parameters (names and kinds).
    let names = |r: &pas_spec::Registry| {
        r.commands
            .iter()
            .map(|c| c.name.clone())
            .collect::<Vec<_>>()
    };
    let mut want = names(&own);
    let mut got = names(&drafted);
    want.sort();
    got.sort();
    assert_eq!(got, want, "{draft}");
    for command in &own.commands {
        let back = drafted
            .commands
            .iter()
            .find(|c| c.name == command.name)
            .unwrap();
        // The runtime adds a command's arguments to clap in its own order: compared sorted.
        let params = |c: &pas_spec::Command| {
            let mut list: Vec<_> = c
                .parameters
                .iter()
                .map(|p| {
                    (
                        p.name.clone(),
                        format!("{:?}", p.kind),
                        p.element_type().as_str(),
                    )
                })
                .collect();
            list.sort();
            list
        };
        assert_eq!(params(back), params(command), "{}", command.name);
    }
    assert!(draft.contains("TODO(author)"));
}

/// Sync files to a remote.
#[derive(Parser)]
#[command(name = "syncer", version = "0.3.1")]
struct Syncer {
    /// Seconds before a transfer gives up.
    #[arg(long, global = true, default_value_t = 30)]
    wait: u64,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Push local files.
    Push {
        /// Files to push.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// The remote's name.
        #[arg(long, env = "SYNCER_REMOTE", default_value = "origin")]
        remote: String,
        /// Also delete remote files missing here.
        #[arg(long)]
        prune: bool,
    },
    /// Show what would change.
    Status,
}

#[test]
fn a_derive_cli_drafts_a_spec_that_checks() {
    let draft = pas::import::spec_draft(&Syncer::command());
    let registry = check_clean("syncer.yaml", &draft);
    assert_eq!(registry.version, "0.3.1");
    assert_eq!(registry.global_flags[0].name, "wait");
    let push = registry.commands.iter().find(|c| c.name == "push").unwrap();
    assert_eq!(push.parameters[0].kind, pas_spec::ParamKind::Variadic);
    assert_eq!(push.parameters[1].env.as_deref(), Some("SYNCER_REMOTE"));
    assert_eq!(push.parameters[2].ty, pas_spec::ParamType::Boolean);
}

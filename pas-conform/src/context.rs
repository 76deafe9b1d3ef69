//! What the checks share: the tool, its planned examples, runs worth reusing, and every run made
//! so far (the error-shape and exit-code checks look at all of them).

use std::collections::HashMap;

use pas_spec::{OutputKind, Registry};

use crate::plan::{self, Planned, Unrunnable};
use crate::runner::{Call, Program, Run};
use crate::scratch::Scratch;
use crate::target::{Contract, Target};

/// The state of one conformance run.
pub struct Ctx {
    /// How to run the tool.
    pub program: Program,
    /// Its spec, when known.
    pub registry: Option<Registry>,
    /// The contract checked.
    pub contract: Contract,
    /// Where examples run.
    pub scratch: Option<Scratch>,
    /// Examples the checks run.
    pub examples: Vec<Planned>,
    /// Examples they skip, with the reason.
    pub unrunnable: Vec<Unrunnable>,
    /// Every run so far, in order.
    pub history: Vec<Run>,
    /// The calls made on a pseudo-terminal (both terminal checks judge them).
    pub pty: Option<Vec<Run>>,
    cache: HashMap<String, Run>,
}

impl Ctx {
    /// The context of a target; nothing is run yet.
    pub fn new(target: &Target) -> Ctx {
        let (examples, unrunnable) = match &target.registry {
            Some(registry) => plan::examples(registry),
            None => (Vec::new(), Vec::new()),
        };
        let scratch = Scratch::new().ok();
        let mut program = target.program.clone();
        // A conformance run must not touch the caller's data: every XDG home is in the scratch.
        if let Some(scratch) = &scratch {
            for (var, dir) in [
                ("XDG_DATA_HOME", "data"),
                ("XDG_CONFIG_HOME", "config"),
                ("XDG_CACHE_HOME", "cache"),
                ("XDG_STATE_HOME", "state"),
            ] {
                let path = scratch.dir(dir).to_string_lossy().into_owned();
                program.env.push((var.to_owned(), path));
            }
        }
        Ctx {
            program,
            registry: target.registry.clone(),
            contract: target.contract,
            scratch,
            examples,
            unrunnable,
            history: Vec::new(),
            pty: None,
            cache: HashMap::new(),
        }
    }

    /// Runs a call and records it.
    pub fn run(&mut self, call: &Call) -> Run {
        let mut call = call.clone();
        if call.cwd.is_none() {
            call.cwd = self.scratch.as_ref().map(|s| s.path().to_path_buf());
        }
        let run = self.program.run(&call);
        self.history.push(run.clone());
        run
    }

    /// Runs these arguments once per conformance run (stdin `/dev/null`, in the scratch
    /// directory) and reuses the result: several checks look at the same call.
    pub fn cached(&mut self, args: &[String]) -> Run {
        let key = args.join("\u{0}");
        if let Some(run) = self.cache.get(&key) {
            return run.clone();
        }
        let run = self.run(&Call::new(args));
        self.cache.insert(key, run.clone());
        run
    }

    /// `args` in machine mode: `--agent` first for the pas contract; as is for the others,
    /// whose machine output needs no flag.
    pub fn machine(&self, args: &[String]) -> Vec<String> {
        let mut words = Vec::with_capacity(args.len() + 1);
        if self.contract == Contract::Pas {
            words.push("--agent".to_owned());
        }
        words.extend(args.iter().cloned());
        words
    }

    /// The words that reach built-in `word`, as the tool's faces write them
    /// (`pas_spec::surface::builtin_argv`): `--builtin WORD` in a tool whose root command takes
    /// positionals (a bare word would be the positional's value), the bare word elsewhere and
    /// when the spec is unknown.
    pub fn builtin(&self, word: &str) -> Vec<String> {
        match &self.registry {
            Some(registry) => pas_spec::surface::builtin_argv(registry, word),
            None => vec![word.to_owned()],
        }
    }

    /// Runs an example in machine mode (its files provided in the scratch directory).
    pub fn run_example(&mut self, example: &Planned) -> Run {
        if let Some(scratch) = &self.scratch {
            Scratch::provide_files(scratch.path(), &example.args);
        }
        let args = self.machine(&example.args);
        self.cached(&args)
    }

    /// The examples with the result of running each.
    pub fn example_runs(&mut self) -> Vec<(Planned, Run)> {
        let examples = self.examples.clone();
        examples
            .into_iter()
            .map(|e| {
                let run = self.run_example(&e);
                (e, run)
            })
            .collect()
    }

    /// The example the stream checks use: the first that succeeds, a list or events command
    /// first (their output is the one that streams).
    pub fn primary(&mut self) -> Option<(Planned, Run)> {
        let runs = self.example_runs();
        let streams = |p: &Planned| {
            p.command
                .as_ref()
                .is_some_and(|c| matches!(c.output, OutputKind::List | OutputKind::Events))
        };
        let ok: Vec<(Planned, Run)> = runs.into_iter().filter(|(_, r)| r.exited(0)).collect();
        // One that printed something first: an empty output shows nothing about streams.
        let printed = |r: &Run| !r.stdout.is_empty();
        ok.iter()
            .find(|(p, r)| streams(p) && printed(r))
            .or(ok.iter().find(|(_, r)| printed(r)))
            .or(ok.iter().find(|(p, _)| streams(p)))
            .or(ok.first())
            .cloned()
    }

    /// Why no example could be used: none that ran exited 0, or why the first was not run, or
    /// no spec.
    pub fn why_no_example(&self) -> String {
        if self.registry.is_none() {
            return "no spec: give --spec SPEC (or a tool that answers --pas-spec) to derive invocations".into();
        }
        if !self.examples.is_empty() {
            return format!(
                "none of the {} runnable examples exited 0 (stub handlers, or data the checker \
                 cannot provide)",
                self.examples.len()
            );
        }
        match self.unrunnable.first() {
            Some(u) => format!(
                "no example ran successfully; e.g. `{}`: {}",
                u.text, u.reason
            ),
            None => "the spec has no example that runs successfully".into(),
        }
    }

    /// `--agent --help` (pas) or `--help` (other contracts), run once.
    pub fn agent_help(&mut self) -> Run {
        let args = self.machine(&["--help".to_owned()]);
        self.cached(&args)
    }
}

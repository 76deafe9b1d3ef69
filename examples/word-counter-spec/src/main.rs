//! `word-counter-spec`: the PAS Appendix A tool again, built spec first. `specs/word-counter.yaml`
//! is read at compile time by `pas::include_spec!`, which generates the clap types, the
//! `Handlers` trait and `app`; this file only fills in the one handler, counting with the
//! code-first word-counter's own code. Its tests check both builds behave byte for byte alike.

use std::process::ExitCode;

use pas::{Context, Error, Items};

/// The generated code: `Cli`, `CountItem`, `Handlers` and `app`.
mod spec {
    pas::include_spec!("../../specs/word-counter.yaml");
}

struct WordCounter;

impl spec::Handlers for WordCounter {
    fn count(&self, args: spec::Cli, _ctx: &Context) -> Result<Items<spec::CountItem>, Error> {
        let results = args.files.into_iter().map(|file| {
            let counted = word_counter::count_file(&file)?;
            Ok(spec::CountItem {
                file: counted.file,
                file_bytes: counted
                    .file_bytes
                    .map(|bytes| bytes.into_iter().map(i64::from).collect()),
                words: i64::try_from(counted.words).unwrap_or(i64::MAX),
            })
        });
        // The same line people see from the code-first build.
        Ok(Items::new(results).with_text(|item| format!("{}: {} words", item.file, item.words)))
    }
}

fn main() -> ExitCode {
    spec::app(WordCounter).run()
}

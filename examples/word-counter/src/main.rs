//! `word-counter`: counts the words in files (PAS Appendix A), built code-first.

use std::process::ExitCode;

fn main() -> ExitCode {
    word_counter::app().run()
}

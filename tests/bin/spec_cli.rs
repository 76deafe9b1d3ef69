//! A CLI built at run time from any spec (`PAS_SPEC_CLI_SPEC=path`), with no handlers: what the
//! runtime alone makes of a registry. The documentation-face tests compare its `--agent --help`,
//! `docs` and `tools` with what `pas-gen help|llm|catalog` print from the same spec.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::var_os("PAS_SPEC_CLI_SPEC").map(PathBuf::from) else {
        eprintln!("set PAS_SPEC_CLI_SPEC to a spec file");
        return ExitCode::from(2);
    };
    match pas::spec::load::load_path(&path) {
        Ok((_, registry)) => pas::App::new(registry).run(),
        Err(diagnostic) => {
            eprintln!("{}: {}", path.display(), diagnostic.message);
            ExitCode::from(2)
        }
    }
}

//! `TOOL mcp` started from the CLI transport: the configuration file's values become the
//! parser's defaults, as for a command line, and the server runs until its client leaves.
use std::ffi::OsString;
use std::process::ExitCode;

use crate::guards::redact::Redactor;
use crate::parse::config_file::ConfigFile;

use crate::run::app::App;

impl App {
    /// `TOOL mcp`: the configuration file's values become the parser's defaults, as for a
    /// command line, and the server runs until its client leaves.
    #[cfg(feature = "mcp")]
    pub(crate) fn serve_mcp(
        mut self,
        config: Option<&ConfigFile>,
        redactor: Redactor,
        argv: &[OsString],
    ) -> ExitCode {
        // The words after `mcp` are the server's own flags (`crate::parse::mcp_options`);
        // `--print-config` and `--help` never reach here (`crate::parse::argv::wants_mcp`).
        let words = argv.get(2..).unwrap_or(&[]);
        let read =
            crate::parse::mcp_options::read(&self.registry, words).and_then(|asked| match asked {
                crate::parse::mcp_options::Asked::Run(matches) => {
                    crate::parse::mcp_options::call_timeout(&matches)
                }
                crate::parse::mcp_options::Asked::Help(_) => Ok(None),
            });
        let call_timeout = match read {
            Ok(limit) => limit,
            Err(error) => {
                eprintln!(
                    "{}",
                    serde_json::json!({"error": error.code(), "message": error.message(), "suggestion": error.suggestion()})
                );
                return ExitCode::from(2);
            }
        };
        let command = self.take_command().color(clap::ColorChoice::Never);
        let command = match config {
            Some(file) => match file.apply(command) {
                Ok(command) => command,
                Err(mut error) => {
                    redactor.error(&mut error);
                    eprintln!(
                        "{}",
                        serde_json::json!({"error": error.code(), "message": error.message(), "suggestion": error.suggestion()})
                    );
                    return ExitCode::from(2);
                }
            },
            None => command,
        };
        let registry = self.registry.clone();
        crate::transport::mcp::serve(self, registry, command, redactor, call_timeout)
    }
}

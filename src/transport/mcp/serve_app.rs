//! `TOOL mcp` started from the CLI transport: the configuration file's values become the
//! parser's defaults, as for a command line, and the server runs until its client leaves (on
//! stdio) or a signal ends it (on HTTP).
use std::ffi::OsString;
use std::process::ExitCode;

use crate::error::Error;
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
        let (call_timeout, transport, serving) = match self.server_options(words) {
            Ok(options) => options,
            Err(mut error) => {
                redactor.error(&mut error);
                return self.refuse(&error);
            }
        };
        let command = self.take_command().color(clap::ColorChoice::Never);
        let command = match config {
            Some(file) => match file.apply(command) {
                Ok(command) => command,
                Err(mut error) => {
                    redactor.error(&mut error);
                    return self.refuse(&error);
                }
            },
            None => command,
        };
        let registry = self.registry.clone();
        crate::transport::mcp::serve(
            self,
            registry,
            command,
            redactor,
            call_timeout,
            transport,
            &serving,
        )
    }

    /// The server's flags: its call time limit, where it listens, and the tools it serves and
    /// how it lists them (`--group`, `--tools`, `--discovery`).
    #[cfg(feature = "mcp")]
    fn server_options(
        &self,
        words: &[OsString],
    ) -> Result<
        (
            Option<std::time::Duration>,
            crate::transport::mcp::server::Transport,
            crate::parse::mcp_options::Serving,
        ),
        Error,
    > {
        use crate::parse::mcp_options::{Asked, call_timeout, http, read, serving};
        use crate::transport::mcp::server::Transport;
        let Asked::Run(matches) = read(&self.registry, words)? else {
            return Ok((None, Transport::Stdio, Default::default()));
        };
        let limit = call_timeout(&matches)?;
        let serving = serving(&self.registry, &matches)?;
        let transport = match http(&matches) {
            None => Transport::Stdio,
            #[cfg(feature = "mcp-http")]
            Some((addr, origins)) => Transport::Http(crate::transport::mcp::http::Listen::read(
                &self.registry,
                &addr,
                origins,
                |name| std::env::var(name).ok(),
            )?),
            #[cfg(not(feature = "mcp-http"))]
            Some(_) => {
                return Err(crate::parse::mcp_options::http_not_built(&self.registry));
            }
        };
        Ok((limit, transport, serving))
    }

    /// A server that cannot start: the structured error on stderr, and the exit code the
    /// tool's table gives its constant.
    #[cfg(feature = "mcp")]
    fn refuse(&self, error: &Error) -> ExitCode {
        eprintln!(
            "{}",
            serde_json::json!({"error": error.code(), "message": error.message(), "suggestion": error.suggestion(), "details": error.details()})
        );
        let surface = pas_spec::surface::of(self.registry.profile);
        ExitCode::from(surface.exit_of(&self.registry, error.code()))
    }
}

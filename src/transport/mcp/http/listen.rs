//! Where `TOOL mcp --http ADDR` listens, and who it lets in: read once at start-up, with every
//! problem said at once.
//!
//! - `ADDR` is a port (`8080`: loopback, `127.0.0.1:8080`), `localhost:PORT`, or `IP:PORT`
//!   (`[::1]:8080` for IPv6). A host name other than `localhost` is refused: the server binds
//!   what it is told, not what a resolver answers today. Port 0 takes a free port (the
//!   `listening` line on stderr says which).
//! - Loopback is the default. Any other address serves only with a bearer token, read from the
//!   tool's `TOOL_MCP_TOKEN` variable (never from argv, where `ps` shows it); a token set on
//!   loopback is required there too.
//! - Origins: a request carrying an `Origin` header is served only from a loopback origin or
//!   one `--allow-origin` names (DNS rebinding); a request without one (a non-browser client)
//!   passes. Host names: on loopback only loopback `Host`s pass; elsewhere the token guards.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use pas_spec::Registry;
use pas_spec::surface::{MCP_ALLOW_ORIGIN, MCP_HTTP, MCP_WORD};

use crate::codes;
use crate::error::Error;

/// The origins every server accepts: a page served from this machine.
const LOOPBACK_ORIGINS: &[&str] = &["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

/// What the HTTP server was told.
#[derive(Debug, Clone)]
pub(crate) struct Listen {
    pub(crate) addr: SocketAddr,
    /// The bearer token every request must carry, if any.
    pub(crate) token: Option<String>,
    /// Origins accepted, the loopback ones first.
    pub(crate) origins: Vec<String>,
}

impl Listen {
    /// Reads `--http ADDR` and `--allow-origin`s, the token from `env` (the process's
    /// environment, a table in tests).
    pub(crate) fn read(
        registry: &Registry,
        addr: &str,
        extra_origins: Vec<String>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Listen, Error> {
        let variable = pas_spec::faces::mcp_token_env_var(&registry.name);
        let token = env(&variable).filter(|t| !t.is_empty());
        let mut problems = Vec::new();
        let parsed = parse_addr(addr);
        if let Err(problem) = &parsed {
            problems.push(problem.clone());
        }
        for origin in &extra_origins {
            if !origin_is_well_formed(origin) {
                problems.push(format!(
                    "--{} `{origin}` is not an origin: give scheme://host with :port or :* \
                     (e.g. https://app.example.com:443)",
                    MCP_ALLOW_ORIGIN.long
                ));
            }
        }
        if let Ok(socket) = &parsed
            && !socket.ip().is_loopback()
            && token.is_none()
        {
            problems.push(format!(
                "--{} {addr} listens beyond this machine, and ${variable} holds no bearer token \
                 to require of its clients",
                MCP_HTTP.long
            ));
        }
        match parsed {
            Ok(addr) if problems.is_empty() => {
                let mut origins: Vec<String> =
                    LOOPBACK_ORIGINS.iter().map(|o| (*o).to_owned()).collect();
                origins.extend(extra_origins);
                Ok(Listen {
                    addr,
                    token,
                    origins,
                })
            }
            _ => Err(
                Error::new(codes::INVALID_ARGUMENT, problems.join("; ")).with_suggestion(format!(
                    "e.g. `{} {MCP_WORD} --{} 8080` serves loopback; for another address set \
                     ${variable} (a long random string) in the server's environment and give \
                     clients `Authorization: Bearer <token>`",
                    registry.name, MCP_HTTP.long
                )),
            ),
        }
    }
}

/// `PORT`, `localhost:PORT` or `IP:PORT`.
fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(loopback, port));
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        return port
            .parse::<u16>()
            .map(|port| SocketAddr::new(loopback, port))
            .map_err(|_| format!("--{} `{text}`: `{port}` is not a port", MCP_HTTP.long));
    }
    text.parse::<SocketAddr>().map_err(|_| {
        format!(
            "--{} `{text}` is not a port, localhost:PORT or IP:PORT (a host name other than \
             localhost is not resolved)",
            MCP_HTTP.long
        )
    })
}

/// `scheme://host[:port|:*]`, or `null` (a browser's opaque origin).
fn origin_is_well_formed(origin: &str) -> bool {
    if origin == "null" {
        return true;
    }
    let Some((scheme, rest)) = origin.split_once("://") else {
        return false;
    };
    let scheme_ok = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    scheme_ok && !rest.is_empty() && !rest.contains(['/', '?', '#', ' ', ','])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry {
        let spec = r#"{"specVersion": 1, "name": "my-tool", "version": "1.0.0",
            "summary": "A tool.", "commands": [{"name": "get", "description": "Gets.",
            "output": "object"}]}"#;
        let source = pas_spec::load::read_reader("t.json", spec.as_bytes()).unwrap();
        pas_spec::load::parse(&source).unwrap()
    }

    fn read(addr: &str, origins: &[&str], token: Option<&str>) -> Result<Listen, Error> {
        let token = token.map(str::to_owned);
        Listen::read(
            &registry(),
            addr,
            origins.iter().map(|o| (*o).to_owned()).collect(),
            move |name| {
                (name == "MY_TOOL_MCP_TOKEN")
                    .then(|| token.clone())
                    .flatten()
            },
        )
    }

    #[test]
    fn a_port_alone_and_localhost_are_loopback() {
        assert_eq!(
            read("8080", &[], None).unwrap().addr.to_string(),
            "127.0.0.1:8080"
        );
        assert_eq!(
            read("localhost:0", &[], None).unwrap().addr.to_string(),
            "127.0.0.1:0"
        );
        assert_eq!(
            read("[::1]:9", &[], None).unwrap().addr.to_string(),
            "[::1]:9"
        );
        assert!(read("8080", &[], None).unwrap().token.is_none());
    }

    #[test]
    fn another_address_needs_the_token_from_the_environment() {
        let error = read("0.0.0.0:8080", &[], None).unwrap_err();
        assert_eq!(error.code(), codes::INVALID_ARGUMENT);
        assert!(
            error.message().contains("$MY_TOOL_MCP_TOKEN"),
            "{}",
            error.message()
        );
        let error = read("0.0.0.0:8080", &[], Some("")).unwrap_err();
        assert!(error.message().contains("no bearer token"));
        let listen = read("0.0.0.0:8080", &[], Some("s3cret-token")).unwrap();
        assert_eq!(listen.token.as_deref(), Some("s3cret-token"));
        // A token set for loopback is required there too.
        assert!(read("8080", &[], Some("t")).unwrap().token.is_some());
    }

    #[test]
    fn every_problem_is_said_at_once() {
        let error = read("example.com:80", &["app.example.com"], None).unwrap_err();
        assert!(
            error.message().contains("not resolved"),
            "{}",
            error.message()
        );
        assert!(
            error
                .message()
                .contains("`app.example.com` is not an origin")
        );
        let error = read("10.0.0.1:80", &["https://x.example:443/"], None).unwrap_err();
        assert!(error.message().contains("no bearer token"));
        assert!(error.message().contains("is not an origin"));
        assert!(read("localhost:http", &[], None).is_err());
    }

    #[test]
    fn loopback_origins_come_first_then_the_ones_given() {
        let listen = read("8080", &["https://app.example.com:443", "null"], None).unwrap();
        assert_eq!(listen.origins.len(), LOOPBACK_ORIGINS.len() + 2);
        assert_eq!(listen.origins.last().map(String::as_str), Some("null"));
    }
}

//! The environment's proxy settings for a handler's HTTP client, and network errors that say
//! which proxy was tried (CLI Agent Spec failure mode 31).
//!
//! pas has no network layer: a handler brings its own HTTP client. What the runtime gives it
//! is the one reading of the environment every client should make and many get wrong:
//! `HTTPS_PROXY` for `https://`, `HTTP_PROXY` for `http://`, `ALL_PROXY` for either, each also
//! in lower case (lower case first, as curl reads them), and `NO_PROXY` (`*`, host names that
//! match a whole domain with or without a leading dot, `host:port`, IP addresses). And when
//! the call fails, [`NetworkContext::error`] makes the structured error with
//! `details.network_context` (`url`, `proxy_used`, `no_proxy_matched`), a proxy's password
//! never shown.
//!
//! ```no_run
//! # fn handler() -> Result<pas::Reply, pas::Error> {
//! let url = "https://api.example.com/items";
//! let net = pas::net::NetworkContext::for_url(url);
//! // Give `net.proxy_used()` to the HTTP client (or none when it is `None`), then:
//! # let failed: Result<(), std::io::Error> = Ok(());
//! failed.map_err(|cause| net.error("NETWORK_ERROR", cause))?;
//! # Ok(pas::Reply::none())
//! # }
//! ```

use std::borrow::Cow;
use std::fmt::Display;

use serde_json::json;

use crate::error::Error;

/// The proxy variables of the environment, read once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProxyEnv {
    https: Option<String>,
    http: Option<String>,
    all: Option<String>,
    no_proxy: Vec<String>,
}

impl ProxyEnv {
    /// The process's environment.
    pub fn from_env() -> ProxyEnv {
        ProxyEnv::from_lookup(|name| std::env::var(name).ok())
    }

    /// Any source of variables (tests, a configuration file).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> ProxyEnv {
        let read = |lower: &str, upper: &str| {
            get(lower)
                .or_else(|| get(upper))
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        ProxyEnv {
            https: read("https_proxy", "HTTPS_PROXY"),
            http: read("http_proxy", "HTTP_PROXY"),
            all: read("all_proxy", "ALL_PROXY"),
            no_proxy: read("no_proxy", "NO_PROXY")
                .map(|list| {
                    list.split(',')
                        .map(|entry| entry.trim().to_ascii_lowercase())
                        .filter(|entry| !entry.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// The proxy to use for `url`, or `None` for a direct connection (no proxy set for its
    /// scheme, or `NO_PROXY` names its host).
    pub fn proxy_for(&self, url: &str) -> Option<&str> {
        let target = Target::parse(url)?;
        if self.bypasses(&target) {
            return None;
        }
        let by_scheme = match target.scheme.as_str() {
            "https" | "wss" => self.https.as_deref(),
            "http" | "ws" => self.http.as_deref(),
            _ => None,
        };
        by_scheme.or(self.all.as_deref())
    }

    /// Whether `NO_PROXY` names the host of `url`.
    pub fn no_proxy_matches(&self, url: &str) -> bool {
        Target::parse(url).is_some_and(|target| self.bypasses(&target))
    }

    fn bypasses(&self, target: &Target) -> bool {
        self.no_proxy.iter().any(|entry| {
            if entry == "*" {
                return true;
            }
            let (host, port) = split_port(entry);
            if let Some(port) = port
                && Some(port) != target.port
            {
                return false;
            }
            let host = host.trim_start_matches("*.").trim_start_matches('.');
            target.host == host || target.host.ends_with(&format!(".{host}"))
        })
    }
}

/// What a network call of a handler went through: for its errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkContext {
    url: String,
    proxy: Option<String>,
    no_proxy_matched: bool,
}

impl NetworkContext {
    /// The context of a call to `url` under the process's environment.
    pub fn for_url(url: &str) -> NetworkContext {
        NetworkContext::with_env(url, &ProxyEnv::from_env())
    }

    /// The context of a call to `url` under `env`.
    pub fn with_env(url: &str, env: &ProxyEnv) -> NetworkContext {
        NetworkContext {
            url: url.to_owned(),
            proxy: env.proxy_for(url).map(str::to_owned),
            no_proxy_matched: env.no_proxy_matches(url),
        }
    }

    /// The proxy URL to give the HTTP client (credentials included), `None` for direct.
    pub fn proxy_used(&self) -> Option<&str> {
        self.proxy.as_deref()
    }

    /// `details.network_context`: the URL and proxy without their credentials.
    pub fn details(&self) -> serde_json::Value {
        json!({
            "url": without_credentials(&self.url),
            "proxy_used": self.proxy.as_deref().map(without_credentials),
            "no_proxy_matched": self.no_proxy_matched,
        })
    }

    /// The structured error of a failed network call: `code` (one the tool declares), the
    /// cause, a suggestion about the proxy, `details.network_context`; retryable.
    pub fn error(&self, code: impl Into<Cow<'static, str>>, cause: impl Display) -> Error {
        let via = match &self.proxy {
            Some(proxy) => format!(" through the proxy {}", without_credentials(proxy)),
            None => String::new(),
        };
        let suggestion = match &self.proxy {
            Some(_) => "check HTTPS_PROXY/HTTP_PROXY, or add the host to NO_PROXY to go direct",
            None => "check the network; set HTTPS_PROXY if this network needs a proxy",
        };
        let error = Error::new(
            code,
            format!(
                "cannot reach {}{via}: {cause}",
                without_credentials(&self.url)
            ),
        )
        .with_suggestion(suggestion);
        let error = self.attach(error);
        match error.retry_after_ms() {
            Some(_) => error,
            None => error.with_retryable(true),
        }
    }

    /// `error` with `details.network_context` added (its other details kept).
    pub fn attach(&self, error: Error) -> Error {
        let mut details = error.details().cloned().unwrap_or_else(|| json!({}));
        if !details.is_object() {
            details = json!({ "value": details });
        }
        details["network_context"] = self.details();
        error.with_details(details)
    }
}

/// A URL's scheme, host and port, enough to choose a proxy.
struct Target {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl Target {
    fn parse(url: &str) -> Option<Target> {
        let (scheme, rest) = url.split_once("://")?;
        let authority = rest.split(['/', '?', '#']).next()?;
        let authority = authority.rsplit('@').next()?;
        let (host, port) = split_port(authority);
        let scheme = scheme.to_ascii_lowercase();
        let port = port.or(match scheme.as_str() {
            "https" | "wss" => Some(443),
            "http" | "ws" => Some(80),
            _ => None,
        });
        let host = host.trim_start_matches('[').trim_end_matches(']');
        Some(Target {
            scheme,
            host: host.to_ascii_lowercase(),
            port,
        })
    }
}

/// `host:port` (an IPv6 literal in brackets keeps its colons).
fn split_port(authority: &str) -> (&str, Option<u16>) {
    if let Some(end) = authority.rfind(']') {
        let (host, rest) = authority.split_at(end + 1);
        return (host, rest.strip_prefix(':').and_then(|p| p.parse().ok()));
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => (host, port.parse().ok()),
        _ => (authority, None),
    }
}

/// A URL with its `user:password@` removed.
fn without_credentials(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return match url.rsplit_once('@') {
            Some((_, host)) => host.to_owned(),
            None => url.to_owned(),
        };
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    match authority.rsplit_once('@') {
        Some((_, host)) => format!("{scheme}://{host}{path}"),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> ProxyEnv {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        ProxyEnv::from_lookup(move |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn the_scheme_chooses_the_proxy_and_all_proxy_is_the_fallback() {
        let e = env(&[
            ("HTTPS_PROXY", "http://secure:3128"),
            ("http_proxy", "http://plain:3128"),
            ("ALL_PROXY", "socks5://any:1080"),
        ]);
        assert_eq!(
            e.proxy_for("https://a.example/x"),
            Some("http://secure:3128")
        );
        assert_eq!(e.proxy_for("http://a.example/x"), Some("http://plain:3128"));
        let only_all = env(&[("ALL_PROXY", "socks5://any:1080")]);
        assert_eq!(
            only_all.proxy_for("https://a.example"),
            Some("socks5://any:1080")
        );
        assert_eq!(env(&[]).proxy_for("https://a.example"), None);
    }

    #[test]
    fn lower_case_wins_over_upper_case() {
        let e = env(&[
            ("https_proxy", "http://lower:1"),
            ("HTTPS_PROXY", "http://upper:1"),
        ]);
        assert_eq!(e.proxy_for("https://a.example"), Some("http://lower:1"));
    }

    #[test]
    fn no_proxy_names_hosts_domains_ports_and_everything() {
        let e = env(&[
            ("HTTPS_PROXY", "http://p:3128"),
            (
                "NO_PROXY",
                "localhost, .internal.example,corp.example,10.0.0.1,api.example:8443",
            ),
        ]);
        assert_eq!(e.proxy_for("https://localhost:9000/x"), None);
        assert_eq!(e.proxy_for("https://db.internal.example"), None);
        assert_eq!(e.proxy_for("https://corp.example"), None);
        assert_eq!(e.proxy_for("https://git.corp.example"), None);
        assert_eq!(e.proxy_for("https://10.0.0.1/"), None);
        assert_eq!(e.proxy_for("https://api.example:8443/"), None);
        assert_eq!(
            e.proxy_for("https://api.example/"),
            Some("http://p:3128"),
            "another port"
        );
        assert_eq!(
            e.proxy_for("https://notcorp.example"),
            Some("http://p:3128")
        );
        assert!(e.no_proxy_matches("https://corp.example"));
        let all = env(&[("HTTPS_PROXY", "http://p:3128"), ("no_proxy", "*")]);
        assert_eq!(all.proxy_for("https://any.example"), None);
    }

    #[test]
    fn a_network_error_names_the_proxy_without_its_password() {
        let e = env(&[("HTTPS_PROXY", "http://user:s3cret@proxy.corp:3128")]);
        let net = NetworkContext::with_env("https://api.example/v1?q=1", &e);
        assert_eq!(net.proxy_used(), Some("http://user:s3cret@proxy.corp:3128"));
        let error = net.error("NETWORK_ERROR", "connection refused");
        assert_eq!(error.code(), "NETWORK_ERROR");
        assert!(error.retryable());
        let context = &error.details().unwrap()["network_context"];
        assert_eq!(context["proxy_used"], "http://proxy.corp:3128");
        assert_eq!(context["url"], "https://api.example/v1?q=1");
        assert_eq!(context["no_proxy_matched"], false);
        assert!(!error.message().contains("s3cret"), "{}", error.message());
        assert!(error.message().contains("proxy.corp:3128"));
    }

    #[test]
    fn a_direct_call_says_no_proxy_was_used() {
        let net = NetworkContext::with_env("https://api.example", &env(&[]));
        let error = net.attach(Error::general("down").with_details(json!({"attempt": 2})));
        let details = error.details().unwrap();
        assert_eq!(details["attempt"], 2);
        assert_eq!(
            details["network_context"]["proxy_used"],
            serde_json::Value::Null
        );
    }
}

//! The names a server on loopback answers to. A web page can point a name it controls
//! at 127.0.0.1 (DNS rebinding) and then read what a loopback server answers as if it
//! were its own site; the browser still sends that name in `Host`, so a server on
//! loopback answers only requests that name a loopback host or a name its user allowed.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::ApiError;

/// The hosts a loopback server answers to besides the loopback names, lowercase.
#[derive(Debug, Clone, Default)]
pub(crate) struct AllowedHosts(Arc<Vec<String>>);

impl AllowedHosts {
    pub(crate) fn new(names: &[String]) -> Self {
        AllowedHosts(Arc::new(
            names
                .iter()
                .map(|n| n.trim_end_matches('.').to_ascii_lowercase())
                .collect(),
        ))
    }

    /// Whether `host` (a `Host` header's value, with or without its port) may be
    /// answered.
    pub(crate) fn allows(&self, host: &str) -> bool {
        let name = host_name(host).trim_end_matches('.').to_ascii_lowercase();
        is_loopback_name(&name) || self.0.contains(&name)
    }
}

/// The name of a `Host` value without its port: `[::1]:7878` is `::1`.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("");
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// `localhost`, a name under `.localhost` (which resolvers and browsers keep on
/// loopback), or a loopback address.
fn is_loopback_name(name: &str) -> bool {
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Refuses a request whose `Host` names a host this server does not answer to. A
/// request with no `Host` is let through: browsers always send one, so it is no page's.
pub(crate) async fn check_host(
    axum::extract::State(allowed): axum::extract::State<AllowedHosts>,
    req: Request,
    next: Next,
) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .map(|v| v.to_str().unwrap_or("\u{fffd}").to_string())
        .or_else(|| req.uri().authority().map(|a| a.as_str().to_string()));
    match host {
        Some(h) if !allowed.allows(&h) => ApiError::HostNotAllowed(format!(
            "this server on loopback does not answer to the host {h:?}; start it with --allowed-host NAME to allow a name"
        ))
        .into_response(),
        _ => next.run(req).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_and_allowed_names_pass() {
        let a = AllowedHosts::new(&["Archive.Example.".into()]);
        for h in [
            "localhost",
            "LOCALHOST:7878",
            "localhost.",
            "app.localhost:80",
            "127.0.0.1",
            "127.1.2.3:7878",
            "[::1]:7878",
            "[::1]",
            "archive.example:7878",
            "archive.example.",
        ] {
            assert!(a.allows(h), "{h}");
        }
        for h in [
            "evil.example",
            "evil.example:7878",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "10.0.0.1",
            "[::2]:7878",
            "",
            "archive.example.evil",
        ] {
            assert!(!a.allows(h), "{h}");
        }
    }
}

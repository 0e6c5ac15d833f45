//! `cairn serve`: the JSON API and the web page over an archive, its limits checked
//! before the server starts.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use cairn_store::Archive;

use crate::out::outln;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default; anything else exposes the archive).
    #[arg(long, default_value = "127.0.0.1:7878")]
    addr: String,
    /// Enable `POST /api/ingest` for admins (`cairn users add NAME --role admin`, then a
    /// login or `cairn tokens create`); a bearer token in $CAIRN_INGEST_TOKEN (at least
    /// 16 characters), when set, stands for an admin too.
    #[arg(long)]
    allow_ingest: bool,
    /// Reading needs a login too (anyone who reaches the server reads otherwise).
    #[arg(long)]
    require_login: bool,
    /// Seconds a request may take before it is stopped with a `timeout` error.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Connections open at once; more wait to be accepted until one closes.
    #[arg(long, default_value_t = cairn_server::MAX_CONNECTIONS)]
    max_connections: usize,
    /// Seconds a client has to send a request's head, on a new connection or
    /// between requests on a kept-alive one (which is then closed).
    #[arg(long, default_value_t = cairn_server::DEFAULT_HEADER_TIMEOUT.as_secs_f64())]
    header_timeout: f64,
    /// Seconds a connection may stay with no byte moving either way (a client that
    /// stopped reading its answer); at least --timeout.
    #[arg(long, default_value_t = cairn_server::DEFAULT_IDLE_TIMEOUT.as_secs_f64())]
    idle_timeout: f64,
    /// Exports running at once; more wait for a turn within --timeout.
    #[arg(long, default_value_t = cairn_server::MAX_EXPORTS)]
    max_exports: usize,
    /// Uploads to `POST /api/ingest` received or stored at once; more are refused as
    /// `busy` (each is spooled to a file in the archive's directory, not held in memory).
    #[arg(long, default_value_t = cairn_server::MAX_UPLOADS)]
    max_uploads: usize,
    /// A host name the server answers to besides localhost and the loopback addresses,
    /// when it listens on loopback (repeatable): other names in `Host` are refused, so
    /// that no web page can reach the archive through a name it points at 127.0.0.1.
    #[arg(long = "allowed-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,
}

/// Runs `cairn serve` on the archive in `data`.
pub fn run(data: &Path, args: ServeArgs) -> Result<ExitCode> {
    let opts = args.options()?;
    serve(data, &args.addr, &opts)
}

impl ServeArgs {
    /// The server's options, each limit checked.
    fn options(&self) -> Result<cairn_server::ServeOptions> {
        let ingest_token = match std::env::var("CAIRN_INGEST_TOKEN") {
            Ok(t) if self.allow_ingest && t.len() < 16 => {
                bail!("the bearer token in $CAIRN_INGEST_TOKEN is shorter than 16 characters")
            }
            Ok(t) if self.allow_ingest => Some(t),
            _ => None,
        };
        for (flag, secs) in [
            ("--timeout", self.timeout),
            ("--header-timeout", self.header_timeout),
            ("--idle-timeout", self.idle_timeout),
        ] {
            if !(secs > 0.0 && secs <= 3600.0) {
                bail!("{flag} takes seconds between 0 and 3600");
            }
        }
        if self.idle_timeout < self.timeout {
            bail!("--idle-timeout must be at least --timeout (a search runs with nothing sent)");
        }
        if self.max_connections == 0 || self.max_exports == 0 || self.max_uploads == 0 {
            bail!("--max-connections, --max-exports and --max-uploads take at least 1");
        }
        Ok(cairn_server::ServeOptions {
            allow_ingest: self.allow_ingest,
            require_login: self.require_login,
            ingest_token,
            timeout: Duration::from_secs_f64(self.timeout),
            max_connections: self.max_connections,
            header_timeout: Duration::from_secs_f64(self.header_timeout),
            idle_timeout: Duration::from_secs_f64(self.idle_timeout),
            max_exports: self.max_exports,
            max_uploads: self.max_uploads,
            allowed_hosts: self.allowed_hosts.clone(),
            ..cairn_server::ServeOptions::default()
        })
    }
}

/// Serves the archive in `data` on `addr` until the process is stopped.
pub fn serve(data: &Path, addr: &str, opts: &cairn_server::ServeOptions) -> Result<ExitCode> {
    let archive = Arc::new(Archive::open_reader(data)?);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        outln!("cairn is serving {} at http://{local}/", data.display());
        std::io::stdout().flush()?;
        cairn_server::serve(listener, archive, opts).await?;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

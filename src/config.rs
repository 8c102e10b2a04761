//! Configuration: command-line flags, each also read from an environment variable, parsed once in
//! `main` and passed down.

use std::num::NonZeroU32;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use crate::api::Settings;
use crate::api::rate_limit::RateLimitSettings;
use crate::server::ServeOptions;

/// Best moves for tic-tac-toe and other m,n,k games, over HTTP.
#[derive(Clone, Debug, Parser)]
#[command(name = "minimax-move", version, about)]
pub struct Config {
    /// What to do; without one, serve.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Address to bind (0.0.0.0 in a container).
    #[arg(long, env = "HOST", default_value = "127.0.0.1", global = true)]
    pub host: String,
    /// Port to bind.
    #[arg(long, env = "PORT", default_value_t = 8080, global = true)]
    pub port: u16,
    /// Log format: human-readable text or JSON lines.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Origins allowed by CORS, comma-separated (`https://game.example`); `*` allows any origin
    /// (without credentials). Unset: loopback origins only (`localhost`, `127.0.0.1` and `[::1]`,
    /// any scheme and port), so that other web pages cannot drive a server on a desktop.
    #[arg(long, env = "CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// Largest request body in bytes.
    #[arg(long, env = "BODY_LIMIT_BYTES", default_value_t = 65_536)]
    pub body_limit_bytes: usize,
    /// Longest a request may take end to end, in milliseconds.
    #[arg(long, env = "REQUEST_TIMEOUT_MS", default_value_t = 15_000)]
    pub request_timeout_ms: u64,
    /// Longest a new connection may stay silent before it is closed, in milliseconds.
    #[arg(long, env = "FIRST_BYTE_TIMEOUT_MS", default_value_t = 5_000)]
    pub first_byte_timeout_ms: u64,
    /// Longest a client may take to send a request's headers, from their first byte, in
    /// milliseconds (408 past it).
    #[arg(long, env = "HEADER_READ_TIMEOUT_MS", default_value_t = 10_000)]
    pub header_read_timeout_ms: u64,
    /// Longest a connection may stay idle between requests (HTTP/1 keep-alive, HTTP/2 without
    /// open streams) before it is closed, in milliseconds. Keep it above the idle timeout of a
    /// load balancer in front, so that the balancer closes first.
    #[arg(long, env = "KEEP_ALIVE_TIMEOUT_MS", default_value_t = 75_000)]
    pub keep_alive_timeout_ms: u64,
    /// Most connections open at once; at the cap the connection idle longest is closed to make
    /// room, and accepting pauses while every connection is answering a request. Default: 1024,
    /// or the open-file limit less 64 when that is lower.
    #[arg(long, env = "MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Searches (boards other than 3 × 3) running at once; default: the number of cores.
    #[arg(long, env = "MAX_SEARCHES")]
    pub max_searches: Option<usize>,
    /// How long a search waits for a free slot before the request gets 503, in milliseconds.
    #[arg(long, env = "QUEUE_WAIT_MS", default_value_t = 100)]
    pub queue_wait_ms: u64,
    /// Search time budget when a request names none, in milliseconds.
    #[arg(long, env = "DEFAULT_TIME_LIMIT_MS", default_value_t = 3_000)]
    pub default_time_limit_ms: u64,
    /// Largest search time budget a request may ask for, in milliseconds.
    #[arg(long, env = "MAX_TIME_LIMIT_MS", default_value_t = 10_000)]
    pub max_time_limit_ms: u64,
    /// Deepest search a request may ask for, in plies.
    #[arg(long, env = "MAX_DEPTH", default_value_t = 225)]
    pub max_depth: u32,
    /// Search work granted per millisecond of time limit, times the board's cells. The default
    /// spends about two thirds of a time limit on the median 15 × 15 midgame on the reference
    /// 2-core machine (heavier positions reach the limit first); lower it on a slower
    /// machine (`prove --calibrate` measures it) so that searches stop on their work budget, and
    /// so reproduce, rather than on the clock.
    #[arg(long, env = "SEARCH_WORK_RATE", default_value_t = crate::engine::WORK_PER_MS_TIMES_CELLS)]
    pub search_work_rate: u64,
    /// Per-client rate limit in requests per second; 0 turns it off (the default).
    #[arg(long, env = "RATE_LIMIT_PER_SECOND", default_value_t = 0)]
    pub rate_limit_per_second: u32,
    /// Requests a client may send in a burst above the rate limit.
    #[arg(long, env = "RATE_LIMIT_BURST", default_value_t = 50)]
    pub rate_limit_burst: u32,
    /// Key the rate limit by the first `X-Forwarded-For` address (only behind a trusted proxy).
    #[arg(long, env = "TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// How long open requests get to finish after SIGTERM, in milliseconds.
    #[arg(long, env = "SHUTDOWN_GRACE_MS", default_value_t = 20_000)]
    pub shutdown_grace_ms: u64,
    /// How long the server keeps accepting and serving after SIGTERM, with readiness already
    /// false, before it closes the listener, in milliseconds: the time load balancers need to
    /// notice (several readiness probe periods; a preStop sleep does the same from outside).
    /// Connections the kernel has already completed are served either way.
    #[arg(long, env = "SHUTDOWN_DELAY_MS", default_value_t = 0)]
    pub shutdown_delay_ms: u64,
    /// `Host` headers `/mcp` accepts, comma-separated (`name` for any port, or `name:port`); `*`
    /// accepts any. The default, loopback names only, keeps web pages from reaching `/mcp`
    /// through DNS rebinding; a deployment behind a load balancer lists its public names (the
    /// container image sets `*`).
    #[arg(
        long,
        env = "MCP_ALLOWED_HOSTS",
        value_delimiter = ',',
        default_value = "localhost,127.0.0.1,[::1]"
    )]
    pub mcp_allowed_hosts: Vec<String>,
}

/// Subcommands besides serving.
#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    /// Serve HTTP (the default).
    Serve,
    /// Exit 0 if the server on HOST:PORT answers `GET /healthz` with 200 (for a container
    /// HEALTHCHECK without curl); 0.0.0.0 is probed on 127.0.0.1.
    Healthcheck,
    /// Print the OpenAPI document (YAML) and exit.
    Openapi,
    /// Play gomoku (freestyle, standard, renju or caro; boards up to 20 × 20) over the Gomocup
    /// (piskvork) protocol on stdin and stdout, for gomoku GUIs and match managers.
    Pbrain,
    /// Serve MCP (the Model Context Protocol) over stdin and stdout, for desktop clients.
    Mcp,
}

/// Log output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line, for log collectors.
    Json,
}

impl Config {
    /// The settings the routes need.
    #[must_use]
    pub fn settings(&self) -> Settings {
        let defaults = Settings::default();
        Settings {
            body_limit: self.body_limit_bytes,
            request_timeout: Duration::from_millis(self.request_timeout_ms),
            max_searches: self.max_searches.unwrap_or(defaults.max_searches).max(1),
            queue_wait: Duration::from_millis(self.queue_wait_ms),
            default_time_limit_ms: self.default_time_limit_ms.max(1),
            max_time_limit_ms: self.max_time_limit_ms.max(1),
            max_depth: self.max_depth.max(1),
            search_work_rate: self.search_work_rate.max(1),
            cors_origins: self
                .cors_origins
                .iter()
                .map(|o| o.trim().to_owned())
                .filter(|o| !o.is_empty())
                .collect(),
            rate_limit: NonZeroU32::new(self.rate_limit_per_second).map(|per_second| {
                RateLimitSettings {
                    per_second,
                    burst: NonZeroU32::new(self.rate_limit_burst).unwrap_or(per_second),
                    trust_forwarded_for: self.trust_forwarded_for,
                }
            }),
            mcp_allowed_hosts: self
                .mcp_allowed_hosts
                .iter()
                .map(|h| h.trim().to_owned())
                .filter(|h| !h.is_empty())
                .collect(),
        }
    }

    /// The connection-level options.
    #[must_use]
    pub fn serve_options(&self) -> ServeOptions {
        ServeOptions {
            first_byte_timeout: Duration::from_millis(self.first_byte_timeout_ms.max(1)),
            header_read_timeout: Duration::from_millis(self.header_read_timeout_ms.max(1)),
            keep_alive_timeout: Duration::from_millis(self.keep_alive_timeout_ms.max(1)),
            max_connections: self
                .max_connections
                .unwrap_or_else(crate::server::default_max_connections)
                .max(1),
            shutdown_grace: Duration::from_millis(self.shutdown_grace_ms),
            shutdown_delay: Duration::from_millis(self.shutdown_delay_ms),
        }
    }

    /// The address to bind, as `host:port` (IPv6 hosts bracketed).
    #[must_use]
    pub fn bind_address(&self) -> String {
        if self.host.contains(':') && !self.host.starts_with('[') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Config {
        Config::try_parse_from(std::iter::once("minimax-move").chain(args.iter().copied()))
            .expect("the arguments parse")
    }

    #[test]
    fn mcp_hosts_default_to_loopback_and_cors_to_loopback_origins() {
        let settings = parse(&[]).settings();
        assert_eq!(
            settings.mcp_allowed_hosts,
            ["localhost", "127.0.0.1", "[::1]"],
            "/mcp accepts loopback hosts only unless configured"
        );
        assert!(
            settings.cors_origins.is_empty(),
            "no origin listed: loopback origins only"
        );
        assert_eq!(
            settings,
            Settings::default(),
            "the library's defaults are the binary's"
        );
    }

    #[test]
    fn a_star_opens_mcp_hosts_and_cors_origins() {
        let settings = parse(&["--mcp-allowed-hosts", "*", "--cors-origins", "*"]).settings();
        assert_eq!(settings.mcp_allowed_hosts, ["*"]);
        assert_eq!(settings.cors_origins, ["*"]);
    }

    #[test]
    fn connection_limits_come_from_flags() {
        let options = parse(&[
            "--first-byte-timeout-ms",
            "250",
            "--keep-alive-timeout-ms",
            "3000",
            "--max-connections",
            "7",
        ])
        .serve_options();
        assert_eq!(options.first_byte_timeout, Duration::from_millis(250));
        assert_eq!(options.keep_alive_timeout, Duration::from_secs(3));
        assert_eq!(options.max_connections, 7);
        assert!(parse(&[]).serve_options().max_connections >= 1);
    }
}

//! A dependency-free probe of `GET /healthz`, for container HEALTHCHECKs on images without curl.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Asks `host:port` for `/healthz` and returns whether it answered 200. A wildcard host (0.0.0.0 or
/// ::) is probed on loopback.
///
/// # Errors
/// A description of what failed: resolving, connecting, or the status line.
pub fn probe(host: &str, port: u16) -> Result<(), String> {
    let host = match host {
        "0.0.0.0" | "" => "127.0.0.1",
        "::" | "[::]" => "::1",
        other => other.trim_start_matches('[').trim_end_matches(']'),
    };
    let address: SocketAddr = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .next()
        .ok_or_else(|| format!("no address for {host}"))?;
    let timeout = Duration::from_secs(3);
    let mut stream = TcpStream::connect_timeout(&address, timeout)
        .map_err(|e| format!("cannot connect to {address}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .map_err(|e| format!("cannot send the request: {e}"))?;
    let mut head = [0_u8; 32];
    let n = stream
        .read(&mut head)
        .map_err(|e| format!("no answer: {e}"))?;
    let line = String::from_utf8_lossy(&head[..n]);
    if line.starts_with("HTTP/1.1 200") {
        Ok(())
    } else {
        Err(format!("unhealthy: {}", line.lines().next().unwrap_or("")))
    }
}

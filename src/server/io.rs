//! The byte stream hyper reads and writes: a TCP stream that reports its traffic to its
//! connection (through [`Traffic`]), and that answers in problem+json where hyper would answer with an empty body.
//!
//! hyper answers a request it cannot parse by itself, before any routing, with an empty `400 Bad
//! Request` (a malformed request line or header), `414 URI Too Long` or `431 Request Header Fields
//! Too Large`. Those automatic answers are recognised here as they are written (their exact status
//! line and an empty body; the router never sends one of these statuses without a body) and
//! replaced by the same status with a problem document. A request whose head does not arrive in
//! time gets a `408` the same way, written by the connection task (see `connection.rs`).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use crate::api::problem::ProblemCode;

/// What a [`WatchedStream`] reports as bytes move, to the task that watches its connection.
pub(super) trait Traffic: Send + Sync {
    /// Bytes arrived from the client.
    fn received(&self, bytes: &[u8]);
    /// A write had to wait for the client to read.
    fn write_blocked(&self);
    /// A write went out.
    fn write_done(&self);
}

/// A TCP stream shared between hyper (through this type) and the connection task, which needs the
/// socket after hyper is gone to write a `408`, and to look for unread bytes before it closes an
/// idle connection.
pub(super) struct WatchedStream {
    stream: Arc<TcpStream>,
    connection: Arc<dyn Traffic>,
    /// A problem answer written in place of hyper's empty one, and how much of it is out.
    replacement: Option<(Vec<u8>, usize)>,
}

impl WatchedStream {
    pub(super) fn new(stream: Arc<TcpStream>, connection: Arc<dyn Traffic>) -> Self {
        Self {
            stream,
            connection,
            replacement: None,
        }
    }

    /// Writes what is left of a replacement answer; ready once nothing is left.
    fn poll_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.replacement {
            if *written == bytes.len() {
                self.replacement = None;
                break;
            }
            let n = ready!(poll_write_to(
                &self.stream,
                self.connection.as_ref(),
                cx,
                &bytes[*written..]
            ))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }
}

fn poll_write_to(
    stream: &TcpStream,
    connection: &dyn Traffic,
    cx: &mut Context<'_>,
    bytes: &[u8],
) -> Poll<io::Result<usize>> {
    loop {
        if stream.poll_write_ready(cx)?.is_pending() {
            connection.write_blocked();
            return Poll::Pending;
        }
        match stream.try_write(bytes) {
            Ok(n) => {
                connection.write_done();
                return Poll::Ready(Ok(n));
            }
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
            Err(error) => return Poll::Ready(Err(error)),
        }
    }
}

impl AsyncRead for WatchedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            ready!(this.stream.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match this.stream.try_read(unfilled) {
                Ok(n) => {
                    if n > 0 {
                        this.connection.received(&unfilled[..n]);
                    }
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                Err(error) => return Poll::Ready(Err(error)),
            }
        }
    }
}

impl AsyncWrite for WatchedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_replacement(cx))?;
        if let Some(answer) = replace_automatic_answer(buf) {
            this.replacement = Some((answer, 0));
            // Whatever does not go out now goes out on the flush or shutdown that follows.
            if let Poll::Ready(Err(error)) = this.poll_replacement(cx) {
                return Poll::Ready(Err(error));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        poll_write_to(&this.stream, this.connection.as_ref(), cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().poll_replacement(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_replacement(cx))?;
        match socket2::SockRef::from(&*this.stream).shutdown(std::net::Shutdown::Write) {
            Err(error) if error.kind() != io::ErrorKind::NotConnected => Poll::Ready(Err(error)),
            _ => Poll::Ready(Ok(())),
        }
    }
}

/// The statuses hyper answers by itself, with the status lines it writes for them.
const AUTOMATIC_ANSWERS: [(&[u8], ProtocolError); 3] = [
    (b"HTTP/1.1 400 Bad Request\r\n", ProtocolError::BadRequest),
    (b"HTTP/1.1 414 URI Too Long\r\n", ProtocolError::UriTooLong),
    (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\n",
        ProtocolError::HeadersTooLarge,
    ),
];

/// The problem answer to write instead of `buf`, when `buf` is one of hyper's automatic answers:
/// a whole response head with one of their status lines, `content-length: 0`, and nothing else
/// besides a `date` and `connection: close`.
fn replace_automatic_answer(buf: &[u8]) -> Option<Vec<u8>> {
    let (status_line, error) = AUTOMATIC_ANSWERS
        .iter()
        .find(|(status_line, _)| buf.starts_with(status_line))?;
    let headers = buf[status_line.len()..].strip_suffix(b"\r\n\r\n")?;
    let mut date = None;
    for line in headers.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let lower = line.to_ascii_lowercase();
        if lower == b"content-length: 0" || lower == b"connection: close" {
        } else if lower.starts_with(b"date: ") {
            date = std::str::from_utf8(&line[6..]).ok();
        } else {
            return None;
        }
    }
    Some(error.response(date))
}

/// The HTTP-level problems the connection answers without a request reaching the router.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ProtocolError {
    /// 400: the request line or a header is malformed.
    BadRequest,
    /// 408: the request's head did not arrive within the header read timeout.
    RequestTimeout,
    /// 414: the target is longer than hyper accepts.
    UriTooLong,
    /// 431: the head is larger than the server's buffer.
    HeadersTooLarge,
}

impl ProtocolError {
    /// The problem code (with its status and title) and the detail of the answer.
    const fn parts(self) -> (ProblemCode, &'static str) {
        match self {
            Self::BadRequest => (
                ProblemCode::BadRequest,
                "the request line or a header is not valid HTTP/1.1",
            ),
            Self::RequestTimeout => (
                ProblemCode::RequestTimeout,
                "the request's headers did not arrive in time",
            ),
            Self::UriTooLong => (ProblemCode::UriTooLong, "the request target is too long"),
            Self::HeadersTooLarge => (
                ProblemCode::HeadersTooLarge,
                "the request line and headers are larger than the server accepts",
            ),
        }
    }

    /// The whole response: status line, headers (the connection closes after it) and a problem
    /// document, in the shape of every other error of the API.
    pub(super) fn response(self, date: Option<&str>) -> Vec<u8> {
        let (code, detail) = self.parts();
        let status = code.status();
        let reason = status.canonical_reason().unwrap_or_default();
        let status = status.as_u16();
        let body = serde_json::json!({
            "type": format!("/problems/{}", code.as_str()),
            "title": code.title(),
            "status": status,
            "detail": detail,
            "code": code,
        })
        .to_string();
        let date = date.map_or_else(
            || httpdate::fmt_http_date(std::time::SystemTime::now()),
            str::to_owned,
        );
        format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: {}\r\ncontent-length: {}\r\n\
             connection: close\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n\
             date: {date}\r\n\r\n{body}",
            crate::api::problem::PROBLEM_JSON,
            body.len(),
        )
        .into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_each_of_hypers_empty_answers_with_a_problem_document() {
        let cases = [
            ("400 Bad Request", "bad_request"),
            ("414 URI Too Long", "uri_too_long"),
            ("431 Request Header Fields Too Large", "headers_too_large"),
        ];
        for (status, code) in cases {
            let hyper = format!(
                "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\ndate: Thu, 01 Jan 2026 00:00:00 GMT\r\n\r\n"
            );
            let answer = replace_automatic_answer(hyper.as_bytes())
                .unwrap_or_else(|| panic!("{status} is replaced"));
            let text = String::from_utf8(answer).unwrap();
            let (head, body) = text.split_once("\r\n\r\n").unwrap();
            assert!(
                head.starts_with(&format!("HTTP/1.1 {status}\r\n")),
                "{head}"
            );
            assert!(
                head.contains("content-type: application/problem+json"),
                "{head}"
            );
            assert!(
                head.contains("date: Thu, 01 Jan 2026 00:00:00 GMT"),
                "{head}"
            );
            assert!(
                head.contains(&format!("content-length: {}", body.len())),
                "{head}"
            );
            let problem: serde_json::Value = serde_json::from_str(body).unwrap();
            assert_eq!(problem["code"], code, "{status}");
            assert_eq!(problem["type"], format!("/problems/{code}"), "{status}");
        }
    }

    #[test]
    fn leaves_every_other_answer_alone() {
        for other in [
            "HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: 12\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nx-request-id: 1\r\n\r\n",
            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
        ] {
            assert_eq!(
                replace_automatic_answer(other.as_bytes()),
                None,
                "{other:?}"
            );
        }
    }
}

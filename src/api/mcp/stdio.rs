//! MCP over stdin and stdout (`minimax-move mcp`): one JSON-RPC message a line, each line read
//! with a bounded buffer. A line longer than the limit is skipped as it arrives, never held, and
//! answered with a JSON-RPC error (-32600, with the request's id when it comes early in the line,
//! as clients write it); a line that is not JSON gets a -32700 parse error. The server goes on
//! either way.

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::{RoleServer, ServiceExt};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::jsonrpc::{INVALID_REQUEST, check_message, repeated_key_answer, rpc_error};
use super::server::McpServer;
use crate::api::state::AppState;

/// How much of an over-long line is kept to find its id.
const KEPT_PREFIX: usize = 1024;

/// Serves MCP over stdin and stdout until the client closes them. A line may be as long as the
/// HTTP body limit (`BODY_LIMIT_BYTES`).
///
/// # Errors
/// When the MCP handshake or the transport fails.
pub async fn serve_stdio(state: AppState) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let limit = state.settings().body_limit;
    let transport = LineTransport::new(tokio::io::stdin(), tokio::io::stdout(), limit);
    let running = McpServer::new(state).serve(transport).await?;
    running.waiting().await?;
    Ok(())
}

/// What one bounded read of a line found.
enum Line {
    /// A whole line of at most the limit is in the buffer.
    Whole,
    /// The line was longer than the limit: its first bytes.
    TooLong(Vec<u8>),
}

/// Newline-delimited JSON-RPC over a reader and a writer, with lines bounded in length.
///
/// Everything written goes through one writer task, so that an error answered while reading can
/// never interleave with an answer being written.
pub struct LineTransport<R> {
    reader: BufReader<R>,
    line: Vec<u8>,
    /// While skipping an over-long line: its first bytes.
    skipping: Option<Vec<u8>>,
    limit: usize,
    lines: Option<mpsc::UnboundedSender<Vec<u8>>>,
    writer: Option<JoinHandle<()>>,
}

impl<R: AsyncRead + Unpin + Send> LineTransport<R> {
    /// A transport reading `reader` and writing `writer`, lines up to `limit` bytes long. Call it
    /// inside a Tokio runtime: it starts the writer task.
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(reader: R, writer: W, limit: usize) -> Self {
        let (lines, receiver) = mpsc::unbounded_channel();
        Self {
            reader: BufReader::new(reader),
            line: Vec::new(),
            skipping: None,
            limit,
            lines: Some(lines),
            writer: Some(tokio::spawn(write_lines(writer, receiver))),
        }
    }

    /// Reads up to the end of the next line without holding more than `limit` bytes of it; `None`
    /// at the end of the input. Cancel-safe: a partial line stays in `self` for the next call.
    async fn read_line(&mut self) -> Option<Line> {
        loop {
            let available = match self.reader.fill_buf().await {
                Ok(available) => available,
                Err(error) => {
                    tracing::debug!(%error, "stdin closed with an error");
                    return None;
                }
            };
            if available.is_empty() {
                return None;
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            let allowed = self.limit + usize::from(newline.is_some());
            if let Some(prefix) = &mut self.skipping {
                let room = KEPT_PREFIX.saturating_sub(prefix.len()).min(take);
                prefix.extend_from_slice(&available[..room]);
            } else if self.line.len() + take <= allowed {
                self.line.extend_from_slice(&available[..take]);
            } else {
                let mut prefix = std::mem::take(&mut self.line);
                prefix.extend_from_slice(&available[..take.min(KEPT_PREFIX)]);
                prefix.truncate(KEPT_PREFIX);
                self.skipping = Some(prefix);
            }
            self.reader.consume(take);
            if newline.is_some() {
                return Some(match self.skipping.take() {
                    Some(prefix) => Line::TooLong(prefix),
                    None => Line::Whole,
                });
            }
        }
    }

    fn reply_error(&self, id: Value, code: i64, message: String) {
        self.reply_line(&rpc_error(id, code, message));
    }

    fn reply_line(&self, message: &Value) {
        let mut line = message.to_string().into_bytes();
        line.push(b'\n');
        if let Some(lines) = &self.lines {
            // The writer task ends only when the output is closed; nothing more can be said then.
            let _ = lines.send(line);
        }
    }

    /// The message on a whole line, or `None` after answering an error (or for a blank line or a
    /// notification this server does not know, which get no answer).
    fn parse(&self, line: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        if let Ok(message) = serde_json::from_slice(line) {
            if !is_notification(line) {
                let id = match check_message(line) {
                    Ok(id) => id,
                    // A tool call whose params cannot be read: -32602, not the library's -32601.
                    Err((id, code, message)) => {
                        self.reply_error(id, code, message);
                        return None;
                    }
                };
                if let Some(answer) = repeated_key_answer(line, &id) {
                    self.reply_line(&answer);
                    return None;
                }
            }
            return Some(message);
        }
        match check_message(line) {
            Err((id, code, message)) if !is_notification(line) => {
                self.reply_error(id, code, message);
            }
            _ => tracing::debug!("ignoring a notification this server does not know"),
        }
        None
    }
}

/// Whether a line is a JSON-RPC notification (a method and no id), which gets no answer even
/// when it cannot be read.
fn is_notification(line: &[u8]) -> bool {
    serde_json::from_slice::<Value>(line)
        .is_ok_and(|value| value.get("method").is_some() && value.get("id").is_none())
}

/// The `id` of a request from the first bytes of its line: found when the id comes before
/// whatever made the line too long, as clients write `jsonrpc`, `id` and `method` first.
fn leading_id(prefix: &[u8]) -> Value {
    let text = String::from_utf8_lossy(prefix);
    let mut depth = 0_usize;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth = depth.saturating_sub(1),
            '"' => {
                let end = string_end(&text, at);
                if depth == 1
                    && &text[at..end] == "\"id\""
                    && let Some(value) = text[end..].trim_start().strip_prefix(':')
                {
                    return id_value(value.trim_start());
                }
                while chars.peek().is_some_and(|&(i, _)| i < end) {
                    chars.next();
                }
            }
            _ => {}
        }
    }
    Value::Null
}

/// Where the JSON string starting at `start` (its opening quote) ends, just past its closing quote.
fn string_end(text: &str, start: usize) -> usize {
    let mut escaped = false;
    for (i, c) in text[start + 1..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return start + 1 + i + 1,
            _ => {}
        }
    }
    text.len()
}

/// The number or string at the start of `value`, when it is whole (not cut by the end of the
/// prefix); else null.
fn id_value(value: &str) -> Value {
    let end = if value.starts_with('"') {
        string_end(value, 0)
    } else {
        value
            .find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap_or(usize::MAX)
    };
    match value.get(..end).map(serde_json::from_str::<Value>) {
        Some(Ok(id @ (Value::Number(_) | Value::String(_)))) => id,
        _ => Value::Null,
    }
}

async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut lines: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(line) = lines.recv().await {
        if writer.write_all(&line).await.is_err() || writer.flush().await.is_err() {
            break;
        }
    }
}

impl<R: AsyncRead + Unpin + Send + 'static> Transport<RoleServer> for LineTransport<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let sent = serde_json::to_vec(&item)
            .map_err(std::io::Error::other)
            .and_then(|mut line| {
                line.push(b'\n');
                self.lines
                    .as_ref()
                    .and_then(|lines| lines.send(line).ok())
                    .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotConnected))
            });
        std::future::ready(sent)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read_line().await? {
                Line::Whole => {
                    let line = std::mem::take(&mut self.line);
                    if let Some(message) = self.parse(&line) {
                        return Some(message);
                    }
                }
                Line::TooLong(prefix) => {
                    let message = format!(
                        "Invalid Request: the message is longer than the limit of {} bytes",
                        self.limit
                    );
                    self.reply_error(leading_id(&prefix), INVALID_REQUEST, message);
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.lines.take());
        if let Some(writer) = self.writer.take() {
            writer.await.map_err(std::io::Error::other)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_id_at_the_start_of_a_line() {
        let cases = [
            (
                r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"#,
                json(7),
            ),
            (r#"{"id": "a\"b", "params": {"id": 3"#, json("a\"b")),
            (r#"{"params":{"id":3,"x":"}"},"id":-2,"#, json(-2)),
            (r#"{"method":"x","params":{"board":"XXXX"#, Value::Null),
            (r#"{"jsonrpc":"2.0","id":12"#, Value::Null),
        ];
        for (prefix, id) in cases {
            assert_eq!(leading_id(prefix.as_bytes()), id, "{prefix}");
        }
    }

    fn json(value: impl Into<Value>) -> Value {
        value.into()
    }
}

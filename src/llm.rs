//! `--llm-url`, `--llm-model`: smaller candidates asked of a chat model
//! behind an OpenAI-compatible API (llama.cpp's server, Ollama, vLLM), as
//! the user already runs one locally.
//!
//! One `POST {url}/chat/completions` per outside pass, over plain HTTP/1.1
//! with std's `TcpStream` (the offline registry has no HTTP client crate,
//! and a local server needs neither TLS nor keep-alive). The reply's
//! messages are candidates: the contents of its fenced code blocks, or its
//! whole text without one, each split at `---- reduce candidate ----` lines.
//! Nothing is trusted: the caller keeps a candidate only if it is smaller
//! and the oracle accepts it.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde_json::json;

use crate::oracle::split_proposals;
use crate::settings::LlmEndpoint;

/// The least time a model gets to answer (models are slower than tests).
pub(crate) const MIN_TIMEOUT: Duration = Duration::from_secs(120);

/// The most a reply may hold.
const REPLY_LIMIT: u64 = 64 << 20;

const INSTRUCTIONS: &str = "You shrink test cases. The user gives a file that still \
triggers a bug. Reply with a smaller version of the whole file that most likely still \
triggers the same bug: delete whatever is not needed, simplify what is left. Reply with \
the file only, in one fenced code block.";

/// The candidates the model at `endpoint` proposes for `text`.
pub(crate) fn propose(
    endpoint: &LlmEndpoint,
    text: &[u8],
    timeout: Duration,
) -> Result<Vec<Vec<u8>>> {
    let Ok(text) = std::str::from_utf8(text) else {
        bail!("the best result is not UTF-8 text; not asked");
    };
    let body = json!({
        "model": endpoint.model,
        "messages": [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": text},
        ],
        "temperature": 0,
        "stream": false,
    });
    let reply = post(
        &endpoint.url,
        "/chat/completions",
        &body.to_string(),
        timeout,
    )?;
    let reply: serde_json::Value =
        serde_json::from_slice(&reply).context("the reply is not JSON")?;
    let choices = reply["choices"]
        .as_array()
        .context("the reply has no `choices`")?;
    Ok(choices
        .iter()
        .filter_map(|c| c["message"]["content"].as_str())
        .flat_map(candidates_in)
        .collect())
}

/// The candidates in a model's message: its fenced code blocks' contents
/// (or the whole message without one), split at separator lines.
fn candidates_in(message: &str) -> Vec<Vec<u8>> {
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for line in message.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            match block.take() {
                Some(done) => blocks.push(done),
                None => block = Some(String::new()),
            }
        } else if let Some(b) = &mut block {
            b.push_str(line);
        }
    }
    if blocks.is_empty() {
        blocks.push(message.to_string());
    }
    blocks
        .iter()
        .flat_map(|b| split_proposals(b.as_bytes()))
        .collect()
}

/// POSTs `body` (JSON) to `base` + `path` (`base` is `http://host[:port][/prefix]`);
/// the reply's body when its status is 200.
fn post(base: &str, path: &str, body: &str, timeout: Duration) -> Result<Vec<u8>> {
    let rest = base
        .strip_prefix("http://")
        .context("only http:// URLs are supported")?;
    let (authority, prefix) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let host_port = if authority.contains(':') {
        authority.to_string()
    } else {
        format!("{authority}:80")
    };
    let address = host_port
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve {authority}"))?
        .next()
        .with_context(|| format!("no address for {authority}"))?;
    let mut stream = TcpStream::connect_timeout(&address, timeout)
        .with_context(|| format!("cannot connect to {authority}"))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let request = format!(
        "POST {prefix}{path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .context("cannot send the request")?;
    let mut reply = Vec::new();
    stream
        .take(REPLY_LIMIT)
        .read_to_end(&mut reply)
        .context("cannot read the reply")?;
    body_of(&reply)
}

/// The body of an HTTP/1.1 reply, if its status is 200 (chunked or not).
fn body_of(reply: &[u8]) -> Result<Vec<u8>> {
    let end = reply
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("the reply is not HTTP")?;
    let head = String::from_utf8_lossy(&reply[..end]).to_ascii_lowercase();
    let body = &reply[end + 4..];
    let status = head.split_whitespace().nth(1).unwrap_or("");
    if status != "200" {
        bail!(
            "the server answered {}",
            head.lines().next().unwrap_or("nothing")
        );
    }
    if head.contains("transfer-encoding: chunked") {
        return dechunk(body);
    }
    Ok(body.to_vec())
}

/// A chunked body put back together.
fn dechunk(mut body: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = body
            .windows(2)
            .position(|w| w == b"\r\n")
            .context("a truncated chunked reply")?;
        let size_text = String::from_utf8_lossy(&body[..line_end]);
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16).context("a bad chunk size")?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = body.get(..size).context("a truncated chunk")?;
        out.extend_from_slice(chunk);
        body = body.get(size + 2..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_gives_its_code_blocks_or_its_whole_text() {
        let fenced = "Here:\n```c\nint main(){}\n```\nand\n```\nx\n```\n";
        assert_eq!(
            candidates_in(fenced),
            vec![b"int main(){}\n".to_vec(), b"x\n".to_vec()]
        );
        assert_eq!(candidates_in("int x;\n"), vec![b"int x;\n".to_vec()]);
    }

    #[test]
    fn chunked_and_plain_bodies_are_read_and_errors_refused() {
        let plain = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        assert_eq!(body_of(plain).unwrap(), b"ok");
        let chunked =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        assert_eq!(body_of(chunked).unwrap(), b"abcde");
        assert!(body_of(b"HTTP/1.1 500 Oops\r\n\r\n").is_err());
    }
}

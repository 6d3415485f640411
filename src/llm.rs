//! `--llm-url`, `--llm-model`: smaller candidates asked of a chat model
//! behind an OpenAI-compatible API (llama.cpp's server, Ollama, vLLM, a
//! hosted one), the only code that opens a connection.
//!
//! One `POST {url}/chat/completions` per outside pass, with the `ureq`
//! crate: plain HTTP or HTTPS (rustls; Mozilla's roots, or the
//! certificates of `--llm-ca-cert`/`SSL_CERT_FILE` instead), an API key
//! from the environment variable `--llm-key-env` names sent as a bearer
//! token, the oracle's timeout or two minutes, and at most 64 MiB of
//! reply. The reply's messages are candidates: the contents of its
//! fenced code blocks, or its whole text without one, each split at
//! `---- reduce candidate ----` lines. Nothing is trusted: the caller
//! keeps a candidate only if it is smaller and the oracle accepts it.

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
    let reply = post(endpoint, &body.to_string(), timeout)?;
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

/// POSTs `body` (JSON) to the endpoint's `/chat/completions`; the reply's
/// body when its status is 200.
fn post(endpoint: &LlmEndpoint, body: &str, timeout: Duration) -> Result<Vec<u8>> {
    let mut config = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false);
    if let Some(pem) = &endpoint.ca_pem {
        config = config.tls_config(
            ureq::tls::TlsConfig::builder()
                .root_certs(root_certs(pem)?)
                .build(),
        );
    }
    let agent: ureq::Agent = config.build().into();
    let url = format!("{}/chat/completions", endpoint.url);
    let mut request = agent
        .post(&url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json");
    if let Some(key) = &endpoint.key {
        request = request.header("Authorization", format!("Bearer {key}"));
    }
    let mut reply = request.send(body).map_err(|e| match e {
        ureq::Error::Io(io) => anyhow::Error::new(io).context("cannot reach the server"),
        other => anyhow::Error::new(other),
    })?;
    let status = reply.status();
    if status != 200 {
        bail!("the server answered {status}");
    }
    reply
        .body_mut()
        .with_config()
        .limit(REPLY_LIMIT)
        .read_to_vec()
        .context("cannot read the reply")
}

/// The certificates of a PEM file, to trust instead of the built-in roots.
fn root_certs(pem: &[u8]) -> Result<ureq::tls::RootCerts> {
    let mut certs = Vec::new();
    for item in ureq::tls::parse_pem(pem) {
        if let ureq::tls::PemItem::Certificate(cert) = item.context("a bad PEM certificate file")? {
            certs.push(cert);
        }
    }
    if certs.is_empty() {
        bail!("the certificate file holds no PEM certificate");
    }
    Ok(ureq::tls::RootCerts::new_with_certs(&certs))
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
    fn a_certificate_file_without_certificates_is_refused() {
        assert!(root_certs(b"not a certificate").is_err());
    }
}

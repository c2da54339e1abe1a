//! The two HTTP APIs an LLM is reached by: OpenAI's chat completions (`POST {endpoint}/chat/completions`)
//! and Anthropic's Messages (`POST {endpoint}/messages`). [`request_body`] makes a request's URL
//! and body, [`response_text`] reads a whole response, [`StreamDecoder`] a streamed one
//! (server-sent events, read as they arrive).

use serde_json::{json, Value as Json};

/// Which HTTP API the endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// `POST {endpoint}/chat/completions`, `Authorization: Bearer KEY`.
    OpenAi,
    /// `POST {endpoint}/messages`, `x-api-key: KEY`, `anthropic-version: 2023-06-01`.
    Anthropic,
}

impl Api {
    pub fn name(self) -> &'static str {
        match self {
            Api::OpenAi => "openai",
            Api::Anthropic => "anthropic",
        }
    }

    pub fn from_name(name: &str) -> Option<Api> {
        match name {
            "openai" => Some(Api::OpenAi),
            "anthropic" => Some(Api::Anthropic),
            _ => None,
        }
    }

    /// The headers of a request besides `content-type`: the key's, and Anthropic's version.
    pub fn headers(self, key: Option<&str>) -> Vec<(&'static str, String)> {
        let mut h = vec![];
        match (self, key.filter(|k| !k.trim().is_empty())) {
            (Api::OpenAi, Some(k)) => h.push(("authorization", format!("Bearer {}", k.trim()))),
            (Api::Anthropic, Some(k)) => h.push(("x-api-key", k.trim().to_string())),
            (_, None) => {}
        }
        if self == Api::Anthropic {
            h.push(("anthropic-version", "2023-06-01".to_string()));
        }
        h
    }
}

/// Anthropic's API requires `max_tokens`: this one, unless the caller says otherwise.
pub const DEFAULT_ANTHROPIC_MAX_TOKENS: u32 = 8192;

/// One turn of the conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// `user` or `assistant`.
    pub role: &'static str,
    pub content: String,
}

/// The system prompt of every conversation.
pub const SYSTEM: &str = "You are an expert in TLA+ who models real systems' code. Answer with the files asked for, \
each complete, in its own fenced code block.";

/// The URL and JSON body of a request for the next answer; `stream` asks for server-sent
/// events ([`StreamDecoder`]).
pub fn request_body(api: Api, endpoint: &str, model: &str, max_tokens: Option<u32>, messages: &[Message], stream: bool) -> (String, Json) {
    let base = endpoint.trim().trim_end_matches('/');
    let msgs = |v: &mut Vec<Json>| v.extend(messages.iter().map(|m| json!({"role": m.role, "content": m.content})));
    let (url, mut body) = match api {
        Api::OpenAi => {
            let mut v = vec![json!({"role": "system", "content": SYSTEM})];
            msgs(&mut v);
            let mut body = json!({"model": model, "messages": v});
            if let Some(n) = max_tokens {
                body["max_tokens"] = json!(n);
            }
            (format!("{base}/chat/completions"), body)
        }
        Api::Anthropic => {
            let mut v = vec![];
            msgs(&mut v);
            let body = json!({
                "model": model,
                "system": SYSTEM,
                "messages": v,
                "max_tokens": max_tokens.unwrap_or(DEFAULT_ANTHROPIC_MAX_TOKENS),
            });
            (format!("{base}/messages"), body)
        }
    };
    if stream {
        body["stream"] = json!(true);
    }
    (url, body)
}

fn first_chars(s: &str, n: usize) -> String {
    let mut t: String = s.chars().take(n).collect();
    if s.chars().count() > n {
        t.push_str("...");
    }
    t
}

/// The answer's text from an HTTP status and body.
pub fn response_text(api: Api, status: u16, body: &str) -> Result<String, String> {
    if !(200..300).contains(&status) {
        return Err(format!("HTTP {status}: {}", first_chars(body.trim(), 300)));
    }
    let v: Json = serde_json::from_str(body).map_err(|e| format!("the response is not JSON ({e}): {}", first_chars(body.trim(), 300)))?;
    let text_of = |parts: &Json| -> String {
        match parts {
            Json::String(s) => s.clone(),
            Json::Array(a) => a
                .iter()
                .filter(|p| p.get("type").and_then(Json::as_str).is_none_or(|t| t == "text"))
                .filter_map(|p| p.get("text").and_then(Json::as_str))
                .collect::<Vec<_>>()
                .join(""),
            _ => String::new(),
        }
    };
    let (text, why) = match api {
        Api::OpenAi => {
            let c = &v["choices"][0];
            let why = c["finish_reason"].as_str().map(|r| format!("finish_reason {r}"));
            let why = match c["message"]["refusal"].as_str() {
                Some(r) => Some(format!("refusal: {}", first_chars(r, 300))),
                None => why,
            };
            (text_of(&c["message"]["content"]), why)
        }
        Api::Anthropic => (text_of(&v["content"]), v["stop_reason"].as_str().map(|r| format!("stop_reason {r}"))),
    };
    if text.trim().is_empty() {
        return Err(match why {
            Some(w) => format!("the response has no text ({w})"),
            None => format!("the response has no text: {}", first_chars(body.trim(), 300)),
        });
    }
    Ok(text)
}


/// At most this much of a response's body is kept to read it whole, when it turns out not to
/// be a stream (a server that ignores `stream`).
const MAX_RAW: usize = 64 << 20;

/// A streamed answer (`"stream": true`), read as its bytes arrive: server-sent events whose
/// `data:` is OpenAI's `choices[0].delta.content` or Anthropic's `content_block_delta` text.
/// A body that holds no event is read whole at the end, as [`response_text`] reads it.
#[derive(Debug)]
pub struct StreamDecoder {
    api: Api,
    /// Bytes of an incomplete line (or an incomplete UTF-8 sequence).
    pending: Vec<u8>,
    /// The `data:` lines of the event being read.
    data: Vec<String>,
    /// The whole body, while it may have to be read whole.
    raw: Vec<u8>,
    events: usize,
    text: String,
    stop: Option<String>,
    error: Option<String>,
}

impl StreamDecoder {
    pub fn new(api: Api) -> StreamDecoder {
        StreamDecoder { api, pending: vec![], data: vec![], raw: vec![], events: 0, text: String::new(), stop: None, error: None }
    }

    /// The text received so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Reads the next bytes of the body; returns how many characters of text they added.
    pub fn push(&mut self, bytes: &[u8]) -> usize {
        let before = self.text.chars().count();
        if self.raw.len() < MAX_RAW {
            self.raw.extend_from_slice(bytes);
        }
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line[..line.len() - 1]).trim_end_matches('\r').to_string();
            self.line(&line);
        }
        self.text.chars().count() - before
    }

    fn line(&mut self, line: &str) {
        if line.is_empty() {
            self.dispatch();
        } else if let Some(d) = line.strip_prefix("data:") {
            self.data.push(d.strip_prefix(' ').unwrap_or(d).to_string());
        }
        // `event:`, `id:`, `retry:` and comments (`:`) carry nothing the answer needs: the
        // data says its own type.
    }

    fn dispatch(&mut self) {
        if self.data.is_empty() {
            return;
        }
        let data = std::mem::take(&mut self.data).join("\n");
        self.events += 1;
        if data.trim() == "[DONE]" {
            return;
        }
        let Ok(v) = serde_json::from_str::<Json>(&data) else {
            self.error.get_or_insert_with(|| format!("an event of the stream is not JSON: {}", first_chars(data.trim(), 200)));
            return;
        };
        if let Some(m) = v.get("error").map(|e| e.get("message").and_then(Json::as_str).map_or_else(|| e.to_string(), str::to_string)) {
            self.error.get_or_insert(m);
            return;
        }
        match self.api {
            Api::OpenAi => {
                let c = &v["choices"][0];
                if let Some(t) = c["delta"]["content"].as_str() {
                    self.text.push_str(t);
                }
                if let Some(r) = c["delta"]["refusal"].as_str() {
                    self.stop = Some(format!("refusal: {}", first_chars(r, 300)));
                } else if let Some(r) = c["finish_reason"].as_str() {
                    self.stop = Some(format!("finish_reason {r}"));
                }
            }
            Api::Anthropic => match v["type"].as_str() {
                Some("content_block_delta") if v["delta"]["type"] == "text_delta" => {
                    self.text.push_str(v["delta"]["text"].as_str().unwrap_or_default());
                }
                Some("message_delta") => {
                    if let Some(r) = v["delta"]["stop_reason"].as_str() {
                        self.stop = Some(format!("stop_reason {r}"));
                    }
                }
                _ => {}
            },
        }
    }

    /// At the end of the body: the answer's text, or why there is none.
    pub fn finish(mut self) -> Result<String, String> {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.line(String::from_utf8_lossy(&rest).trim_end_matches('\r'));
        }
        self.dispatch();
        if self.events == 0 {
            // Not a stream: the whole body is the response.
            return response_text(self.api, 200, &String::from_utf8_lossy(&self.raw));
        }
        if let Some(e) = self.error {
            return Err(format!("the stream ended with an error: {e}"));
        }
        if self.text.trim().is_empty() {
            return Err(match self.stop {
                Some(w) => format!("the response has no text ({w})"),
                None => "the response has no text".to_string(),
            });
        }
        Ok(self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_responses() {
        let msgs = [Message { role: "user", content: "hi".into() }];
        let (url, body) = request_body(Api::OpenAi, "http://h/v1/", "m", None, &msgs, false);
        assert_eq!(url, "http://h/v1/chat/completions");
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1], json!({"role": "user", "content": "hi"}));
        assert!(body.get("max_tokens").is_none());
        let (url, body) = request_body(Api::Anthropic, "http://h/v1", "m", None, &msgs, true);
        assert_eq!(url, "http://h/v1/messages");
        assert_eq!((body["system"].as_str(), body["max_tokens"].as_u64()), (Some(SYSTEM), Some(8192)));
        assert_eq!(body["messages"], json!([{"role": "user", "content": "hi"}]));
        assert_eq!(body["stream"], json!(true));

        let ok = r#"{"choices":[{"message":{"role":"assistant","content":"A"},"finish_reason":"stop"}]}"#;
        assert_eq!(response_text(Api::OpenAi, 200, ok).unwrap(), "A");
        let ok = r#"{"content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"B"}],"stop_reason":"end_turn"}"#;
        assert_eq!(response_text(Api::Anthropic, 200, ok).unwrap(), "B");
        let e = response_text(Api::OpenAi, 429, &"x".repeat(1000)).unwrap_err();
        assert!(e.starts_with("HTTP 429: xxx") && e.len() < 320, "{e}");
        let e = response_text(Api::OpenAi, 200, r#"{"choices":[{"message":{"content":null},"finish_reason":"length"}]}"#).unwrap_err();
        assert!(e.contains("no text") && e.contains("length"), "{e}");
        assert!(response_text(Api::Anthropic, 200, r#"{"content":[]}"#).unwrap_err().contains("no text"));
        assert!(response_text(Api::Anthropic, 200, "<html>").unwrap_err().contains("not JSON"));
    }


    fn decode(api: Api, chunks: &[&str]) -> Result<String, String> {
        let mut d = StreamDecoder::new(api);
        for c in chunks {
            d.push(c.as_bytes());
        }
        d.finish()
    }

    #[test]
    fn streams_are_read_as_they_arrive() {
        // OpenAI: deltas, split anywhere (inside a line, inside a character), then [DONE].
        let body = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n\
                    data: {\"choices\":[{\"delta\":{\"content\":\"caf\u{e9} \"}}]}\r\n\r\n\
                    : a comment\n\
                    data: {\"choices\":[{\"delta\":{\"content\":\"==\"},\"finish_reason\":\"stop\"}]}\n\n\
                    data: [DONE]\n\n";
        let bytes = body.as_bytes();
        let mut d = StreamDecoder::new(Api::OpenAi);
        let mut added = 0;
        for c in bytes.chunks(7) {
            added += d.push(c);
        }
        assert_eq!((d.text(), added), ("caf\u{e9} ==", 7));
        assert_eq!(d.finish().unwrap(), "caf\u{e9} ==");
        // Anthropic: text deltas among the other events.
        let a = [
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"A\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"B\"}}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}",
        ];
        assert_eq!(decode(Api::Anthropic, &a).unwrap(), "AB");
        // An error event, an empty answer, a body that is not a stream at all.
        let e = decode(Api::Anthropic, &["event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"]).unwrap_err();
        assert_eq!(e, "the stream ended with an error: Overloaded");
        let e = decode(Api::OpenAi, &["data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n"]).unwrap_err();
        assert_eq!(e, "the response has no text (finish_reason length)");
        let whole = r#"{"choices":[{"message":{"content":"C"},"finish_reason":"stop"}]}"#;
        assert_eq!(decode(Api::OpenAi, &[&whole[..9], &whole[9..]]).unwrap(), "C");
        assert!(decode(Api::OpenAi, &["<html>"]).unwrap_err().contains("not JSON"));
    }

    #[test]
    fn headers_carry_the_key_only_when_there_is_one() {
        assert_eq!(Api::OpenAi.headers(Some(" k ")), [("authorization", "Bearer k".to_string())]);
        assert_eq!(Api::OpenAi.headers(Some("")), []);
        assert_eq!(Api::Anthropic.headers(Some("k")), [("x-api-key", "k".to_string()), ("anthropic-version", "2023-06-01".to_string())]);
        assert_eq!(Api::Anthropic.headers(None), [("anthropic-version", "2023-06-01".to_string())]);
        assert_eq!((Api::from_name("openai"), Api::from_name("x")), (Some(Api::OpenAi), None));
    }
}

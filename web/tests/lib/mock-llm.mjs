// A scripted LLM server for the browser tests, bound to 127.0.0.1 on a free port. It speaks
// OpenAI's chat completions (POST /<scenario>/v1/chat/completions) and Anthropic's Messages
// (POST /<scenario>/v1/messages), streamed (server-sent events, in small pieces) when the
// request asks for it and whole otherwise, with CORS for any page. Each scenario answers its
// requests in order from a script; every request is recorded. Not a test itself.
//
// A script entry is one of:
//   { text }                 an answer
//   { status, body }         an HTTP error
//   { hang: true }           the start of an answer, then nothing until the client goes away
// A scenario whose name starts with `nocors` answers without CORS headers (so a browser refuses
// to read it).

import { createServer } from 'node:http';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The text in `n` pieces (the last may be shorter). */
function pieces(text, n) {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function openaiWhole(text) {
  return { id: 'mock', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] };
}

function anthropicWhole(text) {
  return { id: 'mock', type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' };
}

/** Server-sent events of one answer, in the API's shape. */
function events(api, text) {
  const parts = pieces(text, 6);
  if (api === 'openai') {
    return [
      ...parts.map((p) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: p } }] })}\n\n`),
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
      'data: [DONE]\n\n',
    ];
  }
  const ev = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    ev('message_start', { message: { id: 'mock', role: 'assistant', content: [] } }),
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...parts.map((p) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } })),
    ev('content_block_stop', { index: 0 }),
    ev('message_delta', { delta: { stop_reason: 'end_turn' } }),
    ev('message_stop', {}),
  ];
}

/**
 * Start the server with `scripts` ({ scenario: [entry, ...] }). Returns { port, base(scenario),
 * requests, aborted(), close() }: `requests` holds { scenario, api, headers, body } in order.
 */
export async function startMockLlm(scripts) {
  const requests = [];
  const next = {};
  let aborted = 0;
  const server = createServer((req, res) => {
    const m = req.url.match(/^\/([^/]+)\/v1\/(chat\/completions|messages)$/);
    const scenario = m ? m[1] : '';
    const cors = scenario.startsWith('nocors') ? {} : CORS;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', async () => {
      if (!m || req.method !== 'POST') {
        res.writeHead(404, cors);
        res.end('no such endpoint');
        return;
      }
      const api = m[2] === 'messages' ? 'anthropic' : 'openai';
      let body = null;
      try { body = JSON.parse(raw); } catch { body = raw; }
      requests.push({ scenario, api, headers: req.headers, body });
      const script = scripts[scenario] || [];
      const k = next[scenario] || 0;
      next[scenario] = k + 1;
      const entry = script[Math.min(k, script.length - 1)] || { status: 500, body: 'the script has no answer' };
      if (entry.status) {
        res.writeHead(entry.status, { ...cors, 'content-type': 'application/json' });
        res.end(entry.body);
        return;
      }
      const stream = body && body.stream === true;
      if (!stream && !entry.hang) {
        res.writeHead(200, { ...cors, 'content-type': 'application/json' });
        res.end(JSON.stringify(api === 'openai' ? openaiWhole(entry.text) : anthropicWhole(entry.text)));
        return;
      }
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let closed = false;
      res.on('close', () => {
        if (!res.writableFinished) { closed = true; aborted += 1; }
      });
      if (entry.hang) {
        res.write(events(api, 'Thinking about the model, ')[api === 'openai' ? 0 : 2]);
        return; // never ends: the client cancels
      }
      for (const e of events(api, entry.text)) {
        if (closed) return;
        res.write(e);
        await sleep(5);
      }
      res.end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    port,
    base: (scenario) => `http://127.0.0.1:${port}/${scenario}/v1`,
    requests,
    aborted: () => aborted,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  };
}

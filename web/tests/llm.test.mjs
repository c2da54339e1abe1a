// Browser test of the LLM tab ("Write it with an LLM") against a scripted LLM server on
// 127.0.0.1 (lib/mock-llm.mjs): over both APIs, streamed, a wrong model first and the reference
// next reach 1.0 in round 2, and the second request carries the failing conjunct; every kind
// of unusable answer gets its message and counts as a round; Cancel stops a streaming answer;
// the best round's share link opens and re-grades; the key is in no URL and no link, and in
// localStorage only when the user ticks "remember". No request leaves 127.0.0.1.
// Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed".
import { expect } from './lib/checks.mjs';
import { openTaskTest, taskFile } from './lib/task-page.mjs';
import { startMockLlm } from './lib/mock-llm.mjs';

const REFERENCE = taskFile('spin', 'reference', 'spin.tla');
const REFERENCE_CFG = taskFile('spin', 'reference', 'spin.cfg');
// Fails conformance: a failed try_lock is not modelled; the first FALSE conjunct is `~locked`.
const WRONG = taskFile('spin', 'wrong', 'trylock-blocks', 'spin.tla');
const CONJUNCT = '~locked, where locked = TRUE';
const KEY = 'sk-test-0123456789';

const fenced = (tla, cfg) => `Here is the model.\n\n\`\`\`tla\n${tla}\`\`\`\n${cfg ? `\n\`\`\`cfg\n${cfg}\`\`\`\n` : ''}`;
// The reference with actions of its own, and its mapping (the no-hints prompt's answer).
const RENAMED = REFERENCE.replaceAll('TryLock(t)', 'Attempt(t)').replaceAll('LockSpin(t)', 'Spinning(t)')
  .replaceAll('LockAcquired(t)', 'Acquired(t)').replaceAll('Unlock(t)', 'Release(t)');
const RENAMED_MAPPING = JSON.stringify({ version: 1, actions: { TryLock: 'Attempt', LockSpin: 'Spinning', LockAcquired: 'Acquired', Unlock: 'Release' } });
const SMALL = '---- MODULE spin ----\nVARIABLE x\nInit == x = 0\nNext == x\' = x\n====\n';

const mock = await startMockLlm({
  fix: [{ text: fenced(WRONG) }, { text: fenced(REFERENCE, REFERENCE_CFG) }],
  fixanthropic: [{ text: fenced(WRONG) }, { text: fenced(REFERENCE, REFERENCE_CFG) }],
  malformed: [
    { text: 'I would rather not write TLA+ today.' },
    { text: `${fenced(SMALL)}\n${fenced(SMALL.replace('MODULE spin', 'MODULE helper'))}` },
    { text: `\`\`\`tla\n${SMALL.slice(0, SMALL.indexOf('===='))}` },
    { status: 500, body: '{"error":{"message":"the mock is down"}}' },
  ],
  nocors: [{ text: fenced(REFERENCE, REFERENCE_CFG) }],
  hang: [{ hang: true }],
  nohints: [{ text: `${fenced(RENAMED, REFERENCE_CFG)}\n\`\`\`json\n${RENAMED_MAPPING}\n\`\`\`\n` }],
});

const { url, page, check, screenshot, end } = await openTaskTest('llm');
// Every request the page makes, to check where they go.
const hosts = new Set();
page.on('request', (r) => hosts.add(new URL(r.url()).hostname));

async function openLlmTab() {
  await page.goto(`${url}#/task/spin`, { waitUntil: 'load' });
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector('#task[data-task="spin"]', { timeout: 20000 });
  await page.click('.tab[data-tab="llm"]');
  await page.waitForSelector('#llm-start');
}

/** Fill the form and start; waits until the conversation has ended (or `until` holds). */
async function run({ api, scenario, rounds, key = KEY, until = '#llm-status[data-state="done"]' }) {
  await page.selectOption('#llm-api', api);
  await page.fill('#llm-endpoint', mock.base(scenario));
  await page.fill('#llm-model', 'mock-model');
  await page.fill('#llm-key', key);
  await page.fill('#llm-rounds', String(rounds));
  await page.click('#llm-start');
  await page.waitForSelector(until, { timeout: 180000 });
}

const rounds = () => page.locator('.llm-round').evaluateAll((els) => els.map((e) => ({
  round: Number(e.dataset.round),
  status: e.dataset.status,
  score: e.dataset.score,
  error: e.querySelector('.llm-error')?.textContent ?? '',
  turn: e.querySelector('.feedback-text')?.textContent ?? '',
  sent: e.querySelector('.llm-feedback')?.dataset.sent ?? '',
  diff: !!e.querySelector('.llm-diff'),
})));
const requestsOf = (scenario) => mock.requests.filter((r) => r.scenario === scenario);
const lastUser = (body) => [...body.messages].reverse().find((m) => m.role === 'user').content;

await check('OpenAI, streamed: a wrong model, then the fixed one graded 1.0 in round 2', async () => {
  await openLlmTab();
  await run({ api: 'openai', scenario: 'fix', rounds: 3 });
  const r = await rounds();
  expect(r.length === 2, `rounds ${JSON.stringify(r)}`);
  expect(r[0].status === 'graded' && r[1].status === 'pass' && r[1].score === '1.0000', JSON.stringify(r));
  expect((await page.textContent('.llm-round[data-round="1"] h4')).includes('overall 0.9375'), 'the four-stage score beside the combined one');
  expect(r[0].sent === 'true' && r[0].turn.includes(CONJUNCT), `round 1's turn: ${r[0].turn}`);
  expect(r[1].diff, 'round 2 shows its diff from round 1');
  expect((await page.textContent('#llm-status')).includes('round 2 scores 1.0'), await page.textContent('#llm-status'));
  const reqs = requestsOf('fix');
  expect(reqs.length === 2, `requests ${reqs.length}`);
  const [first, second] = reqs.map((q) => q.body);
  expect(first.stream === true && first.model === 'mock-model', 'a streamed request for the model typed');
  expect(first.messages[0].role === 'system' && first.messages[1].content.includes('spin'), 'the prompt first');
  expect(second.messages.length === first.messages.length + 2, 'the same conversation, two turns longer');
  expect(lastUser(second).includes(CONJUNCT), `the second request carries the failing conjunct: ${lastUser(second).slice(0, 400)}`);
  expect(JSON.stringify(second).includes(CONJUNCT), 'in the body');
  expect(reqs.every((q) => q.headers.authorization === `Bearer ${KEY}`), 'the key in the authorization header');
  await page.click('.llm-round[data-round="2"] .llm-scorecard summary');
  await page.screenshot({ path: screenshot('llm-rounds.png'), fullPage: true });
});

await check('the key is in no URL, no share link and no storage without "remember"', async () => {
  expect(!page.url().includes(KEY), page.url());
  expect(mock.requests.every((q) => !q.body || !JSON.stringify(q.body).includes(KEY)), 'not in a request body');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(!stored.includes(KEY), 'not in storage');
  const open = await page.getAttribute('.llm-round[data-round="2"] a.llm-open', 'href');
  expect(open.startsWith('#') && !open.includes(KEY), `the round's link ${open.slice(0, 40)}`);
  await page.click('#llm-share');
  const link = await page.inputValue('#llm-link');
  expect(link.includes('#') && !link.includes(KEY), `link ${link.slice(0, 80)}`);
  // The best round's link opens its model and re-grades it.
  await page.goto(link, { waitUntil: 'load' });
  await page.waitForSelector('#grade-status[data-state="done"]', { timeout: 120000 });
  expect((await page.textContent('#grade-status')).includes('overall 1.0000'), await page.textContent('#grade-status'));
  expect(!page.url().includes(KEY), 'not in the shared page URL');
});

await check('"remember" keeps the key in localStorage, and unticking removes it', async () => {
  await openLlmTab();
  expect((await page.inputValue('#llm-key')) === '', 'not remembered: the field starts empty');
  await page.fill('#llm-key', KEY);
  await page.check('#llm-remember');
  expect((await page.evaluate(() => localStorage.getItem('sysmo.llm.key'))) === KEY, 'stored when ticked');
  await openLlmTab();
  expect((await page.inputValue('#llm-key')) === KEY, 'the field is filled after a reload');
  await page.uncheck('#llm-remember');
  expect((await page.evaluate(() => localStorage.getItem('sysmo.llm.key'))) === null, 'removed when unticked');
  await page.fill('#llm-key', '');
});

await check('Anthropic, streamed: the same loop reaches 1.0 in round 2', async () => {
  await openLlmTab();
  await run({ api: 'anthropic', scenario: 'fixanthropic', rounds: 2 });
  const r = await rounds();
  expect(r.length === 2 && r[1].status === 'pass', JSON.stringify(r));
  const reqs = requestsOf('fixanthropic');
  expect(reqs.every((q) => q.headers['x-api-key'] === KEY && q.headers['anthropic-version'] === '2023-06-01'
    && q.headers['anthropic-dangerous-direct-browser-access'] === 'true'), 'Anthropic headers');
  expect(reqs[0].body.system && reqs[0].body.max_tokens > 0 && reqs[0].body.stream === true, 'Anthropic body');
  expect(lastUser(reqs[1].body).includes(CONJUNCT), 'the repair text');
});

await check('each unusable answer gets its message and counts as a round', async () => {
  await openLlmTab();
  await run({ api: 'openai', scenario: 'malformed', rounds: 4 });
  const r = await rounds();
  expect(r.length === 4, JSON.stringify(r));
  const want = [
    ['unusable', 'no TLA+ module'],
    ['unusable', '2 different modules'],
    ['unusable', 'no closing `====` line'],
    ['no-answer', 'HTTP 500'],
  ];
  want.forEach(([status, text], i) => expect(r[i].status === status && r[i].error.includes(text), `round ${i + 1}: ${JSON.stringify(r[i])}`));
  // After an unusable answer, the next turn gives the reason and the expected format.
  const reqs = requestsOf('malformed');
  expect(lastUser(reqs[1].body).includes('no TLA+ module') && lastUser(reqs[1].body).includes('```tla'), lastUser(reqs[1].body));
  expect((await page.textContent('#llm-status')).includes('no round gave a model'), await page.textContent('#llm-status'));
});

await check('no hints: the prompt lists no action, and the model graded through its own mapping scores 1.0', async () => {
  await openLlmTab();
  await page.check('#llm-no-hints');
  await run({ api: 'openai', scenario: 'nohints', rounds: 1 });
  const r = await rounds();
  expect(r.length === 1 && r[0].status === 'pass', JSON.stringify(r));
  const prompt = requestsOf('nohints')[0].body.messages[1].content;
  expect(!prompt.includes('- `TryLock(t)`: ') && prompt.includes('mapping.json'), 'the no-hints prompt');
  await page.uncheck('#llm-no-hints');
});

await check('an endpoint without CORS is a clear message, and a round', async () => {
  await openLlmTab();
  await run({ api: 'openai', scenario: 'nocors', rounds: 1 });
  const r = await rounds();
  expect(r.length === 1 && r[0].status === 'no-answer' && r[0].error.includes('CORS'), JSON.stringify(r));
});

await check('Cancel stops a streaming answer', async () => {
  await openLlmTab();
  await run({ api: 'openai', scenario: 'hang', rounds: 2, until: '#llm-status[data-state="asking"]:has-text("characters")' });
  await page.click('#llm-cancel');
  await page.waitForSelector('#llm-status[data-state="cancelled"]');
  expect(await page.isEnabled('#llm-start'), 'Start is enabled again');
  for (let i = 0; i < 50 && mock.aborted() === 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(mock.aborted() === 1, `the server saw the request end: ${mock.aborted()}`);
  expect(requestsOf('hang').length === 1, 'no second request');
});

await check('no request left 127.0.0.1', async () => {
  const others = [...hosts].filter((h) => h !== '127.0.0.1');
  expect(others.length === 0, `hosts ${others}`);
});

await mock.close();
await end();

// Browser test of share links: node + playwright-core driving the system Chromium.
// Environment (set by `cargo xtask test`): SYSMO_URL (the app, served on 127.0.0.1),
// CHROMIUM (browser binary), SCREENSHOT_DIR. Each browser context is a fresh, empty profile.
// Prints "N passed, M failed" and exits non-zero when a check fails.
import { chromium } from 'playwright-core';
import { editorReady, editorText, pasteModel } from './lib/editor.mjs';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { CHROMIUM_ARGS, checks, expect } from './lib/checks.mjs';

const url = process.env.SYSMO_URL;
if (!url) {
  console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
mkdirSync(screenshots, { recursive: true });

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: CHROMIUM_ARGS,
});

const { check, finish } = checks('share');

const tasksDir = fileURLToPath(new URL('../../tasks/', import.meta.url));
const reference = (id, file) => readFileSync(join(tasksDir, id, 'reference', file), 'utf8');
const SPIN = reference('spin', 'spin.tla');
const TWO_THREADS = 'SPECIFICATION Spec\nCONSTANT Threads = {0, 1}\n';

// The link format, written here independently of the app: #/share/<version>/<base64url(raw DEFLATE(JSON))>.
function decodeLink(link) {
  const m = /#\/share\/(\d+)\/([A-Za-z0-9_-]+)$/.exec(link);
  if (!m) throw new Error(`not a share link: ${link.slice(0, 80)}`);
  return { version: m[1], payload: JSON.parse(inflateRawSync(Buffer.from(m[2], 'base64url')).toString('utf8')) };
}
function encodeLink(version, payload) {
  return `${url}#/share/${version}/${deflateRawSync(Buffer.from(JSON.stringify(payload), 'utf8')).toString('base64url')}`;
}

async function freshPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

async function stageScores(page) {
  const out = {};
  for (const stage of ['syntax', 'runtime', 'conformance', 'invariants']) {
    out[stage] = Number(await page.getAttribute(`#scorecard .stage[data-stage="${stage}"] .score`, 'data-score'));
  }
  out.overall = Number(await page.getAttribute('#overall', 'data-score'));
  return out;
}

// The author grades the spin reference with the task's constants and with an override.
const author = await freshPage();
await author.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin }).catch(() => {});
const links = {};

async function gradeAndCopy(cfg) {
  const { page } = author;
  await page.goto(url, { waitUntil: 'load' });
  await page.click('.task-card[data-task="spin"] a');
  await page.waitForSelector('#task[data-task="spin"]', { timeout: 20000 });
  await pasteModel(page, SPIN);
  if (cfg) {
    await page.click('#overrides summary');
    await page.fill('#cfg-override', cfg);
  }
  await page.click('#grade');
  await page.waitForSelector('#grade-status[data-state="done"], #grade-status[data-state="failed"]', { timeout: 180000 });
  expect((await page.getAttribute('#grade-status', 'data-state')) === 'done', await page.textContent('#grade-status'));
  const scores = await stageScores(page);
  await page.click('#copy-link');
  await page.waitForSelector('#share-link', { timeout: 5000 });
  const link = await page.inputValue('#share-link');
  const note = await page.textContent('#share-note');
  const clip = await page.evaluate(() => Promise.race([
    navigator.clipboard.readText(),
    new Promise((resolve) => setTimeout(() => resolve('(no answer from the clipboard)'), 3000)),
  ])).catch((e) => `(unreadable: ${e.message})`);
  console.log(`     link of ${link.length} characters for a ${SPIN.length} byte model; note "${note}"; clipboard ${clip === link ? 'holds the link' : clip.slice(0, 60)}`);
  return { link, scores };
}

await check('grading the spin reference gives a share link carrying the task, model and scores', async () => {
  const { link, scores } = await gradeAndCopy(null);
  expect(link.startsWith(`${url}#/share/1/`), `link ${link.slice(0, 80)}`);
  const { version, payload } = decodeLink(link);
  expect(version === '1' && payload.task === 'spin' && payload.model === SPIN, 'payload task and model');
  expect(payload.cfg === null && payload.mapping === null, `overrides ${payload.cfg} ${payload.mapping}`);
  for (const k of ['syntax', 'runtime', 'conformance', 'invariants', 'overall']) {
    expect(payload.claimed[k] === scores[k] && scores[k] === 1, `claimed ${k} ${payload.claimed[k]}, shown ${scores[k]}`);
  }
  links.plain = link;
});

await check('a link made with a configuration override carries it', async () => {
  const { link } = await gradeAndCopy(TWO_THREADS);
  const { payload } = decodeLink(link);
  expect(payload.cfg === TWO_THREADS, `cfg ${JSON.stringify(payload.cfg)}`);
  links.cfg = link;
});

const visitor = await freshPage();

await check('opening the link in a fresh browser re-grades the model and says "verified"', async () => {
  const { page } = visitor;
  const started = Date.now();
  await page.goto('about:blank');
  await page.goto(links.plain, { waitUntil: 'load' });
  await page.waitForSelector('#task[data-task="spin"]', { timeout: 20000 });
  await editorReady(page);
  expect((await editorText(page)) === SPIN, 'the editor holds the shared model');
  await page.waitForSelector('#verification[data-state="verified"], #verification[data-state="differs"], #verification[data-state="failed"]', { timeout: 180000 });
  console.log(`     verified in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect((await page.getAttribute('#verification', 'data-state')) === 'verified', await page.textContent('#verification'));
  expect((await page.textContent('#verify-status')).includes('verified'), 'status text');
  const s = await stageScores(page);
  expect(Object.values(s).every((x) => x === 1), `scores ${JSON.stringify(s)}`);
  await page.screenshot({ path: join(screenshots, 'share-verified.png'), fullPage: true });
});

await check('the override travels with the link and the grade verifies with it', async () => {
  const { page } = visitor;
  await page.goto('about:blank');
  await page.goto(links.cfg, { waitUntil: 'load' });
  await page.waitForSelector('#verification[data-state="verified"], #verification[data-state="differs"], #verification[data-state="failed"]', { timeout: 180000 });
  expect((await page.getAttribute('#verification', 'data-state')) === 'verified', await page.textContent('#verification'));
  expect((await page.inputValue('#cfg-override')) === TWO_THREADS, 'the cfg override is in its field');
  expect((await page.getAttribute('#overrides', 'data-active')) === 'true', 'overrides shown as in use');
});

await check('an edited claim is reported: stage, claimed and got', async () => {
  const { page } = visitor;
  const { version, payload } = decodeLink(links.plain);
  payload.claimed.runtime = 0.5;
  payload.claimed.overall = 0.875;
  await page.goto('about:blank');
  await page.goto(encodeLink(version, payload), { waitUntil: 'load' });
  await page.waitForSelector('#verification[data-state="verified"], #verification[data-state="differs"], #verification[data-state="failed"]', { timeout: 180000 });
  expect((await page.getAttribute('#verification', 'data-state')) === 'differs', await page.textContent('#verification'));
  const rows = await page.locator('#verify-differences tr.difference').evaluateAll((trs) =>
    trs.map((tr) => [tr.dataset.stage, tr.querySelector('.claimed').textContent, tr.querySelector('.got').textContent]));
  expect(JSON.stringify(rows) === JSON.stringify([['runtime', '0.5000', '1.0000'], ['overall', '0.8750', '1.0000']]), `rows ${JSON.stringify(rows)}`);
  expect((await page.textContent('#verify-status')).includes('2 of the claimed scores differ'), await page.textContent('#verify-status'));
  await page.screenshot({ path: join(screenshots, 'share-differs.png'), fullPage: true });
});

await check('a link for a 10 KB model opens with the whole text in the editor', async () => {
  const { page } = visitor;
  const whole = reference('rwmutex', 'rwmutex.tla');
  const model = whole.slice(0, whole.lastIndexOf('\n', 10 * 1024) + 1);
  const link = encodeLink('1', { task: 'rwmutex', model, cfg: null, mapping: null,
    claimed: { syntax: 1, runtime: 1, conformance: 1, invariants: 1, overall: 1 } });
  console.log(`     a ${model.length} byte model: link of ${link.length} characters`);
  await page.goto('about:blank');
  await page.goto(link, { waitUntil: 'load' });
  await page.waitForSelector('#task[data-task="rwmutex"]', { timeout: 20000 });
  await editorReady(page);
  expect((await editorText(page)) === model, 'the editor holds the 10 KB model');
  expect((await page.getAttribute('#verification', 'data-state')) !== null, 'verification section');
});

const bad = [
  ['bad base64', `${url}#/share/1/not*base64!`, 'base64'],
  ['unknown version', `${url}#/share/7/${deflateRawSync(Buffer.from('{}')).toString('base64url')}`, 'version `7`'],
  ['bad DEFLATE', `${url}#/share/1/${Buffer.from([0xff, 0xff, 0xff, 0xff]).toString('base64url')}`, 'does not decompress'],
  ['unknown task', encodeLink('1', { task: 'paxos', model: 'x', claimed: { syntax: 1, runtime: 1, conformance: 1, invariants: 1, overall: 1 } }), '`paxos`'],
  ['oversize', encodeLink('1', { task: 'spin', model: ' '.repeat(600 * 1024), claimed: {} }), 'too large'],
  ['not a payload', `${url}#/share/1/${deflateRawSync(Buffer.from('[1,2,3]')).toString('base64url')}`, 'not a JSON object'],
];

await check('a malformed link says what is wrong and the gallery stays reachable', async () => {
  const { page } = visitor;
  for (const [what, link, words] of bad) {
    // A fresh load for each: the app reads the fragment at start.
    await page.goto('about:blank');
    await page.goto(link, { waitUntil: 'load' });
    await page.waitForSelector('#share-error #share-message', { timeout: 20000 });
    const msg = await page.textContent('#share-message');
    expect(msg.includes(words), `${what}: message "${msg}" lacks "${words}"`);
    console.log(`     ${what}: ${msg}`);
  }
  await page.screenshot({ path: join(screenshots, 'share-error.png'), fullPage: true });
  await page.click('#to-gallery');
  await page.waitForSelector('#gallery .task-card', { timeout: 10000 });
  // And a bad link reached by a change of fragment (no reload) is reported too.
  await page.evaluate((h) => { window.location.hash = h; }, '#/share/1/@@');
  await page.waitForSelector('#share-error #share-message', { timeout: 10000 });
  await page.click('header h1 a');
  await page.waitForSelector('#gallery .task-card', { timeout: 10000 });
});

await check('no page error in either browser', async () => {
  expect(author.errors.length === 0, `author: ${author.errors.join('; ')}`);
  expect(visitor.errors.length === 0, `visitor: ${visitor.errors.join('; ')}`);
});

await browser.close();
finish();

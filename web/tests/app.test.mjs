// Browser test of the web app: node + playwright-core driving the system Chromium.
// Environment (set by `cargo xtask test`): SYSMO_URL (the app, served on 127.0.0.1),
// CHROMIUM (browser binary), USER_DATA_DIR (a fresh profile), SCREENSHOT_DIR.
// Prints "N passed, M failed" and exits non-zero when a check fails.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, checks, expect } from './lib/checks.mjs';
import { editorText as editorTextOf, pasteModel } from './lib/editor.mjs';

const url = process.env.SYSMO_URL;
if (!url) {
  console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
  process.exit(2);
}
const base = new URL(url);
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const userDataDir = process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'sysmo-chromium-'));
const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
mkdirSync(screenshots, { recursive: true });

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  args: CHROMIUM_ARGS,
});

// Every request the page makes, to prove nothing leaves 127.0.0.1.
const requests = [];
context.on('request', (r) => requests.push(r.url()));
const pageErrors = [];
const page = context.pages()[0] ?? (await context.newPage());
page.on('pageerror', (e) => pageErrors.push(String(e)));
const workers = [];
page.on('worker', (w) => workers.push(w.url()));

const { check, finish } = checks('browser');

// The tasks the repository holds: every folder of tasks/ with a task.toml.
const tasksDir = fileURLToPath(new URL('../../tasks/', import.meta.url));
const taskIds = readdirSync(tasksDir).filter((d) => existsSync(join(tasksDir, d, 'task.toml'))).sort();
const reference = (id, file) => readFileSync(join(tasksDir, id, 'reference', file), 'utf8');
const SPIN = reference('spin', 'spin.tla');
// One broken definition: a definition sign inside Unlock's EXCEPT.
const SPIN_BROKEN = SPIN.replace('pc\' = [pc EXCEPT ![t] = "idle"]', 'pc\' = [pc EXCEPT ![t] == "idle"]');

async function openTask(id) {
  await page.goto(url, { waitUntil: 'load' });
  await page.click(`.task-card[data-task="${id}"] a`);
  await page.waitForSelector(`#task[data-task="${id}"]`, { timeout: 10000 });
  await page.waitForSelector('#editor[data-kind="codemirror"] .cm-content', { timeout: 10000 });
}

const editorText = () => editorTextOf(page);

// Replace the model as a user does: select all in the editor and paste.
async function setModel(text) {
  await pasteModel(page, text);
  await page.waitForSelector('#summary[data-checked="true"]', { timeout: 10000 });
}

async function grade(timeout = 180000) {
  await page.click('#grade');
  await page.waitForSelector('#grade-status[data-state="done"], #grade-status[data-state="failed"]', { timeout });
  const state = await page.getAttribute('#grade-status', 'data-state');
  expect(state === 'done', `grading ended in state ${state}: ${await page.textContent('#grade-status')}`);
}

async function stageScores() {
  const out = {};
  for (const stage of ['syntax', 'runtime', 'conformance', 'invariants', 'precision']) {
    const el = `#scorecard .stage[data-stage="${stage}"]`;
    out[stage] = {
      score: Number(await page.getAttribute(`${el} .score`, 'data-score')),
      status: await page.getAttribute(el, 'data-status'),
    };
  }
  return out;
}

await check('the page loads and is titled "SysMo Playground"', async () => {
  const resp = await page.goto(url, { waitUntil: 'load' });
  expect(resp && resp.ok(), `status ${resp && resp.status()}`);
  expect((await page.title()) === 'SysMo Playground', `title is ${await page.title()}`);
  await page.waitForSelector('h1', { timeout: 20000 });
  expect((await page.textContent('h1')) === 'SysMo Playground', 'heading');
});

await check('the gallery lists every task with its facts', async () => {
  await page.waitForSelector('#gallery .task-card', { timeout: 20000 });
  const ids = (await page.locator('.task-card').evaluateAll((els) => els.map((e) => e.dataset.task))).sort();
  expect(JSON.stringify(ids) === JSON.stringify(taskIds), `gallery ${ids} but tasks/ holds ${taskIds}`);
  const spin = page.locator('.task-card[data-task="spin"]');
  expect((await spin.locator('.title').textContent()).includes('spin lock'), 'spin title');
  expect((await spin.locator('.system').textContent()) === 'Asterinas', 'spin system');
  expect((await spin.locator('.language').textContent()) === 'Rust', 'spin language');
  expect(/lines/.test(await spin.locator('.size').textContent()), 'spin size');
  expect((await spin.locator('.badge.tutorial').count()) === 0, 'spin is not a tutorial');
  expect((await page.locator('.task-card[data-task="hourclock"] .badge.tutorial').count()) === 1, 'hourclock is a tutorial');
  expect((await spin.locator('.best').textContent()) === 'not graded yet', 'no best score yet');
  await page.screenshot({ path: join(screenshots, 'gallery.png'), fullPage: true });
});

// SysMoBench's eleven systems, each a task here.
const SYSMOBENCH = ['curp', 'dqueue', 'etcd', 'locksvc', 'mutex', 'raftkvs', 'redisraft', 'ringbuffer', 'rwmutex', 'spin', 'zookeeper'];

await check("each of SysMoBench's eleven systems is in the gallery and opens", async () => {
  for (const id of SYSMOBENCH) {
    await page.goto(url, { waitUntil: 'load' });
    await page.click(`.task-card[data-task="${id}"] a`, { timeout: 20000 });
    await page.waitForSelector(`#task[data-task="${id}"] #description code.module`, { timeout: 10000 });
    const title = await page.textContent('#task h2');
    expect(title && title.length > 3, `${id}: title ${title}`);
    expect((await page.locator('#description tr.action').count()) > 0, `${id}: its pinned actions`);
  }
});

await check('a task page shows its description, code, traces, invariants and prompt', async () => {
  await openTask('spin');
  expect((await page.textContent('#description code.module')) === 'spin', 'module name');
  const actions = await page.locator('#description tr.action code').allTextContents();
  expect(JSON.stringify(actions) === JSON.stringify(['TryLock(t)', 'LockSpin(t)', 'LockAcquired(t)', 'Unlock(t)']), `actions ${actions}`);
  expect((await page.locator('#description .capture li').count()) >= 3, 'what to capture');
  await page.screenshot({ path: join(screenshots, 'task.png'), fullPage: true });
  await page.click('.tab[data-tab="code"]');
  await page.waitForSelector('#code .row');
  expect((await page.locator('#code-file option').first().textContent()) === 'tasks/spin/src/lib.rs', 'code file picker');
  expect((await page.locator('#code .row').count()) > 20, 'numbered code lines');
  await page.click('.tab[data-tab="traces"]');
  await page.waitForSelector('#traces .trace-table tbody tr');
  const first = await page.locator('#traces .trace-table tbody tr').first().locator('td').allTextContents();
  expect(first.length === 5 && Number(first[0]) >= 2 && /^(TryLock|LockSpin|LockAcquired|Unlock)$/.test(first[2]), `first row ${first}`);
  await page.click('.tab[data-tab="invariants"]');
  await page.waitForSelector('#invariants li[data-name="MutualExclusion"]');
  expect((await page.textContent('#invariants li[data-name="MutualExclusion"]')).includes('Never two threads'), 'comment sentence');
  await page.click('.tab[data-tab="prompt"]');
  const prompt = await page.textContent('#prompt-text');
  expect(prompt.startsWith('# Modeling task `spin`') && prompt.includes('- `TryLock(t)`: '), 'prompt text');
  expect((await page.locator('#copy-prompt').count()) === 1, 'copy button');
});

await check('the editor starts from the template and checks as you type', async () => {
  const text = await editorText();
  expect(text.startsWith('---- MODULE spin ----') && text.includes('TryLock(t) =='), 'template');
  await page.waitForSelector('#summary[data-status="clean"]', { timeout: 10000 });
  await setModel(SPIN_BROKEN);
  await page.waitForSelector('#summary[data-status="errors"]', { timeout: 10000 });
  const rows = await page.locator('#diagnostics li.diagnostic.error').allTextContents();
  expect(rows.length > 0 && /^\d+:\d+ E\d{4} \S/.test(rows[0]), `rows ${rows}`);
  const score = Number((await page.textContent('#score')).replace('syntax score ', ''));
  expect(score > 0 && score < 1, `score ${score}`);
  // Kept per task: a reload shows the same text.
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector('#editor[data-kind="codemirror"] .cm-content', { timeout: 10000 });
  expect((await editorText()) === SPIN_BROKEN, 'the text survives a reload');
  await page.click('#reset');
  await page.waitForSelector('#summary[data-status="clean"][data-checked="true"]', { timeout: 10000 });
  expect((await editorText()).includes('TryLock(t) =='), 'reset to template');
});

await check('a broken definition: partial syntax score, the other stages gated', async () => {
  await setModel(SPIN_BROKEN);
  await grade();
  const s = await stageScores();
  expect(s.syntax.score > 0 && s.syntax.score < 1 && s.syntax.status === 'ran', `syntax ${JSON.stringify(s.syntax)}`);
  for (const k of ['runtime', 'conformance', 'invariants', 'precision']) {
    expect(s[k].status === 'skipped' && s[k].score === 0, `${k} ${JSON.stringify(s[k])}`);
  }
  expect((await page.locator('#scorecard .stage[data-stage="syntax"] .detail-diagnostics li').count()) > 0, 'diagnostics in the details');
});

await check('grading the spin reference model scores 1.0 in all five stages (in a worker)', async () => {
  await setModel(SPIN);
  const started = Date.now();
  await grade();
  console.log(`     graded the spin reference in ${((Date.now() - started) / 1000).toFixed(1)} s (worker start included)`);
  const s = await stageScores();
  for (const k of Object.keys(s)) {
    expect(s[k].score === 1 && s[k].status === 'ran', `${k} ${JSON.stringify(s[k])}`);
  }
  expect((await page.getAttribute('#overall', 'data-score')) === '1.0000', 'overall');
  expect((await page.getAttribute('#combined', 'data-score')) === '1.0000', 'combined');
  for (const k of Object.keys(s)) await page.click(`#scorecard .stage[data-stage="${k}"] summary`);
  expect((await page.locator('#scorecard table.coverage tbody tr').count()) === 4, 'coverage per action');
  expect((await page.locator('#scorecard table.conformance tbody tr').count()) >= 1, 'conformance per action');
  expect((await page.locator('#scorecard .invariant-results li[data-verdict="pass"]').count()) >= 1, 'invariant verdicts');
  await page.screenshot({ path: join(screenshots, 'scorecard.png'), fullPage: true });
  // The engine ran in a dedicated worker, off the main thread.
  expect(workers.some((w) => w.endsWith('/worker_loader.js')), `workers: ${workers}`);
});

await check('the best score shows in the gallery', async () => {
  await page.click('header h1 a');
  await page.waitForSelector('#gallery');
  const best = await page.textContent('.task-card[data-task="spin"] .best');
  expect(best === 'best score 1.0000', `best reads "${best}"`);
});

await check('Cancel stops a run and a new run works', async () => {
  await openTask('rwmutex');
  await setModel(reference('rwmutex', 'rwmutex.tla'));
  await page.click('#grade');
  await page.click('#cancel', { timeout: 5000 });
  await page.waitForSelector('#grade-status[data-state="cancelled"]', { timeout: 5000 });
  expect((await page.locator('#scorecard').count()) === 0, 'no scorecard after a cancel');
  await setModel('---- MODULE rwmutex ----\nVARIABLE x\nInit == x = 0\nNext == x\' = x +\n====\n');
  await grade();
  const s = await stageScores();
  expect(s.syntax.score < 1 && s.runtime.status === 'skipped', `after a cancel ${JSON.stringify(s)}`);
});

await check('no request left 127.0.0.1 and the page raised no error', async () => {
  expect(requests.length > 0, 'no request recorded at all');
  const outside = requests.filter((r) => {
    const u = new URL(r);
    if (u.protocol === 'data:' || u.protocol === 'blob:') return false;
    return u.hostname !== '127.0.0.1' || u.port !== base.port;
  });
  expect(outside.length === 0, `requests outside the app: ${outside.join(', ')}`);
  expect(requests.some((r) => r.endsWith('.wasm')), `the wasm module was not fetched: ${requests.join(', ')}`);
  expect(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await context.close();
finish();

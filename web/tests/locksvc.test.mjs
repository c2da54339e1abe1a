// Browser test of the locksvc task: its page shows the system's code, traces and invariants, its
// reference model, pasted into the editor, grades 1.0 in all four stages in the worker, and a
// model without fairness replays every trace but is caught by the liveness properties.
// Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed" and the
// time the grade took.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, checks, expect } from './lib/checks.mjs';
import { pasteModel } from './lib/editor.mjs';

const url = process.env.SYSMO_URL;
if (!url) {
  console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const userDataDir = process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'sysmo-chromium-'));
const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
mkdirSync(screenshots, { recursive: true });

const tasksDir = fileURLToPath(new URL('../../tasks/', import.meta.url));
const REFERENCE = readFileSync(join(tasksDir, 'locksvc', 'reference', 'locksvc.tla'), 'utf8');
const UNFAIR = readFileSync(join(tasksDir, 'locksvc', 'wrong', 'no-fairness', 'locksvc.tla'), 'utf8');
const ACTIONS = ['serverLoop', 'serverReceive', 'serverRespond', 'acquireLock', 'criticalSection', 'unlock'];

const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS });
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));

const { check, finish } = checks('locksvc');

await check('the locksvc task page shows its actions, code, traces and invariants', async () => {
  await page.goto(url, { waitUntil: 'load' });
  await page.click('.task-card[data-task="locksvc"] a', { timeout: 20000 });
  await page.waitForSelector('#task[data-task="locksvc"]', { timeout: 10000 });
  expect((await page.textContent('#description code.module')) === 'locksvc', 'module name');
  const actions = (await page.locator('#description tr.action code').allTextContents()).map((a) => a.replace(/\(.*$/, ''));
  expect(JSON.stringify(actions) === JSON.stringify(ACTIONS), `actions ${actions}`);
  await page.click('.tab[data-tab="code"]');
  await page.waitForSelector('#code .row');
  const files = await page.locator('#code-file option').allTextContents();
  expect(files.includes('tasks/locksvc/src/locksvc.rs'), `code files ${files}`);
  expect(!files.some((f) => f.endsWith('workload.rs')), `the harness is not shown: ${files}`);
  await page.click('.tab[data-tab="traces"]');
  await page.waitForSelector('#traces .trace-table tbody tr');
  expect((await page.locator('#traces .trace-table tbody tr').count()) > 10, 'trace rows');
  await page.click('.tab[data-tab="invariants"]');
  await page.waitForSelector('#invariants li[data-name="LockSafety"]');
  expect((await page.locator('#invariants li[data-name]').count()) >= 5, 'the invariants listed');
});

await check('the locksvc reference model grades 1.0 in all four stages in the worker', async () => {
  await page.waitForSelector('#editor[data-kind="codemirror"] .cm-content', { timeout: 10000 });
  await pasteModel(page, REFERENCE);
  await page.waitForSelector('#summary[data-checked="true"][data-status="clean"]', { timeout: 20000 });
  const started = Date.now();
  await page.click('#grade');
  await page.waitForSelector('#grade-status[data-state="done"], #grade-status[data-state="failed"]', { timeout: 600000 });
  const seconds = (Date.now() - started) / 1000;
  console.log(`     graded the locksvc reference in the worker in ${seconds.toFixed(1)} s`);
  expect((await page.getAttribute('#grade-status', 'data-state')) === 'done', await page.textContent('#grade-status'));
  for (const stage of ['syntax', 'runtime', 'conformance', 'invariants']) {
    const el = `#scorecard .stage[data-stage="${stage}"]`;
    const score = Number(await page.getAttribute(`${el} .score`, 'data-score'));
    const status = await page.getAttribute(el, 'data-status');
    expect(score === 1 && status === 'ran', `${stage}: ${score} ${status}`);
  }
  for (const stage of ['runtime', 'conformance']) await page.click(`#scorecard .stage[data-stage="${stage}"] summary`);
  const covered = await page.locator('#scorecard table.coverage tbody tr').count();
  expect(covered === ACTIONS.length, `coverage rows ${covered}`);
  const conform = await page.locator('#scorecard table.conformance tbody tr').count();
  expect(conform === ACTIONS.length, `conformance rows ${conform}`);
  await page.screenshot({ path: join(screenshots, 'locksvc-scorecard.png'), fullPage: true });
});

await check('a model without fairness replays every trace but fails the liveness properties', async () => {
  await pasteModel(page, UNFAIR);
  await page.waitForSelector('#summary[data-checked="true"][data-status="clean"]', { timeout: 20000 });
  await page.click('#grade');
  await page.waitForSelector('#grade-status[data-state="done"], #grade-status[data-state="failed"]', { timeout: 600000 });
  expect((await page.getAttribute('#grade-status', 'data-state')) === 'done', await page.textContent('#grade-status'));
  const score = async (stage) => Number(await page.getAttribute(`#scorecard .stage[data-stage="${stage}"] .score`, 'data-score'));
  expect((await score('conformance')) === 1, `conformance ${await score('conformance')}`);
  const inv = await score('invariants');
  expect(Math.abs(inv - 3 / 5) < 1e-3, `invariants ${inv}`);
  await page.click('#scorecard .stage[data-stage="invariants"] summary');
  const failed = (await page.locator('#scorecard li[data-verdict]:not([data-verdict="pass"])').evaluateAll((els) => els.map((e) => e.dataset.name))).sort();
  const want = ['ServerEventuallyIdle', 'SystemLiveness'];
  expect(JSON.stringify(failed) === JSON.stringify(want), `failed ${failed}`);
});

await check('the page raised no error', async () => {
  expect(pageErrors.length === 0, `page errors: ${pageErrors}`);
});

await context.close();
finish();

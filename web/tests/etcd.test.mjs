// Browser test of the etcd Raft task: open the task, grade its reference model in the worker.
// Environment as app.test.mjs (set by `cargo xtask test`): SYSMO_URL, CHROMIUM, USER_DATA_DIR,
// SCREENSHOT_DIR. Prints "N passed, M failed" and the time the grade took.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = process.env.SYSMO_URL;
if (!url) {
  console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const userDataDir = process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'sysmo-chromium-'));
const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
mkdirSync(screenshots, { recursive: true });

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync',
  ],
});
const pageErrors = [];
const page = context.pages()[0] ?? (await context.newPage());
page.on('pageerror', (e) => pageErrors.push(String(e)));
const workers = [];
page.on('worker', (w) => workers.push(w.url()));

let passed = 0;
let failed = 0;
async function check(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}\n     ${String(e && e.stack || e).split('\n').join('\n     ')}`);
  }
}
function expect(cond, msg) {
  if (!cond) throw new Error(msg);
}

const tasksDir = fileURLToPath(new URL('../../tasks/', import.meta.url));
const REFERENCE = readFileSync(join(tasksDir, 'etcd', 'reference', 'etcdraft.tla'), 'utf8');
const ACTIONS = ['Timeout(i)', 'HandlePreVoteRequest(i, j)', 'HandlePreVoteResponse(i, j)', 'HandleVoteRequest(i, j)',
  'HandleVoteResponse(i, j)', 'ClientRequest(i)', 'HeartbeatTimeout(i)', 'HandleAppendEntriesRequest(i, j)',
  'HandleAppendEntriesResponse(i, j)', 'HandleHeartbeat(i, j)', 'HandleHeartbeatResponse(i, j)', 'Restart(i)'];

await check('the gallery has the etcd task and its page shows the pinned module and actions', async () => {
  const resp = await page.goto(url, { waitUntil: 'load' });
  expect(resp && resp.ok(), `status ${resp && resp.status()}`);
  await page.waitForSelector('.task-card[data-task="etcd"] a', { timeout: 20000 });
  await page.click('.task-card[data-task="etcd"] a');
  await page.waitForSelector('#task[data-task="etcd"]', { timeout: 10000 });
  expect((await page.textContent('#description code.module')) === 'etcdraft', 'module name');
  const actions = await page.locator('#description tr.action code').allTextContents();
  for (const a of ACTIONS) expect(actions.map((s) => s.replace(/,\s*/g, ', ')).includes(a), `action ${a} missing from ${actions}`);
  await page.click('.tab[data-tab="traces"]');
  await page.waitForSelector('#traces .trace-table tbody tr', { timeout: 10000 });
  await page.click('.tab[data-tab="invariants"]');
  await page.waitForSelector('#invariants li[data-name="LogInv"]', { timeout: 10000 });
});

await check('grading the etcd reference model scores 1.0 in all four stages (in a worker)', async () => {
  await page.fill('#editor', REFERENCE);
  await page.waitForSelector('#summary[data-checked="true"]', { timeout: 20000 });
  const started = Date.now();
  await page.click('#grade');
  await page.waitForSelector('#grade-status[data-state="done"], #grade-status[data-state="failed"]', { timeout: 600000 });
  const seconds = (Date.now() - started) / 1000;
  console.log(`     graded the etcd reference in ${seconds.toFixed(1)} s (worker start included)`);
  const state = await page.getAttribute('#grade-status', 'data-state');
  expect(state === 'done', `grading ended in state ${state}: ${await page.textContent('#grade-status')}`);
  for (const stage of ['syntax', 'runtime', 'conformance', 'invariants']) {
    const el = `#scorecard .stage[data-stage="${stage}"]`;
    const score = Number(await page.getAttribute(`${el} .score`, 'data-score'));
    const status = await page.getAttribute(el, 'data-status');
    expect(score === 1 && status === 'ran', `${stage}: score ${score}, status ${status}`);
  }
  expect((await page.getAttribute('#overall', 'data-score')) === '1.0000', 'overall');
  await page.click('#scorecard .stage[data-stage="runtime"] summary');
  expect((await page.locator('#scorecard table.coverage tbody tr').count()) === ACTIONS.length, 'coverage of the twelve actions');
  await page.screenshot({ path: join(screenshots, 'etcd-scorecard.png'), fullPage: true });
  expect(workers.some((w) => w.endsWith('/worker_loader.js')), `workers: ${workers}`);
});

await check('the page raised no error', async () => {
  expect(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await context.close();
console.log(`browser (etcd): ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

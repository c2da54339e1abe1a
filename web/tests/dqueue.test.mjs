// Browser test of the dqueue task: its page shows the system's code, traces and invariants, its
// reference model, pasted into the editor, grades 1.0 in all four stages in the worker, and a
// model whose producer may leave a request unanswered is caught by the invariants.
// Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed" and the
// time the grade took.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, checks, expect } from './lib/checks.mjs';
import { expectTaskPage } from './lib/task-page.mjs';
import { expectReferenceGrade, gradeModel } from './lib/grading.mjs';

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
const REFERENCE = readFileSync(join(tasksDir, 'dqueue', 'reference', 'dqueue.tla'), 'utf8');
const DROPPING = readFileSync(join(tasksDir, 'dqueue', 'wrong', 'answer-may-drop', 'dqueue.tla'), 'utf8');
const ACTIONS = ['c', 'c1', 'c2', 'p', 'p1', 'p2'];

const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS });
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));

const { check, finish } = checks('dqueue');

await check('the dqueue task page shows its actions, code, traces and invariants', async () => {
  const files = await expectTaskPage(page, url, {
    id: 'dqueue', module: 'dqueue', actions: ACTIONS, codeFile: 'tasks/dqueue/src/dqueue.rs', invariant: 'ConsumerAlwaysConsumes', invariants: 9,
  });
  expect(files.includes('tasks/simnet/src/network.rs'), `how messages travel is shown: ${files}`);
});

await check('the dqueue reference model grades 1.0 in all four stages in the worker', async () => {
  await page.waitForSelector('#editor[data-kind="codemirror"] .cm-content', { timeout: 10000 });
  await expectReferenceGrade(page, 'dqueue', REFERENCE, ACTIONS, join(screenshots, 'dqueue-scorecard.png'));
});

await check('a producer that may drop its answer replays every trace but fails the invariants', async () => {
  const g = await gradeModel(page, DROPPING);
  expect(g.state === 'done', g.message);
  expect(g.stages.conformance.score === 1, `conformance ${g.stages.conformance.score}`);
  expect(Math.abs(g.stages.invariants.score - 6 / 9) < 1e-3, `invariants ${g.stages.invariants.score}`);
  await page.click('#scorecard .stage[data-stage="invariants"] summary');
  const failed = (await page.locator('#scorecard li[data-verdict]:not([data-verdict="pass"])').evaluateAll((els) => els.map((e) => e.dataset.name))).sort();
  const want = ['OneRequestPerWaitingConsumer', 'RequestEventuallyAnswered', 'StreamCycles'];
  expect(JSON.stringify(failed) === JSON.stringify(want), `failed ${failed}`);
});

await check('the page raised no error', async () => {
  expect(pageErrors.length === 0, `page errors: ${pageErrors}`);
});

await context.close();
finish();

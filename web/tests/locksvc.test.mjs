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
const REFERENCE = readFileSync(join(tasksDir, 'locksvc', 'reference', 'locksvc.tla'), 'utf8');
const UNFAIR = readFileSync(join(tasksDir, 'locksvc', 'wrong', 'no-fairness', 'locksvc.tla'), 'utf8');
const ACTIONS = ['serverLoop', 'serverReceive', 'serverRespond', 'acquireLock', 'criticalSection', 'unlock'];

const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS });
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));

const { check, finish } = checks('locksvc');

await check('the locksvc task page shows its actions, code, traces and invariants', async () => {
  await expectTaskPage(page, url, {
    id: 'locksvc', module: 'locksvc', actions: ACTIONS, codeFile: 'tasks/locksvc/src/locksvc.rs', invariant: 'LockSafety', invariants: 5,
  });
});

await check('the locksvc reference model grades 1.0 in all four stages in the worker', async () => {
  await page.waitForSelector('#editor[data-kind="codemirror"] .cm-content', { timeout: 10000 });
  await expectReferenceGrade(page, 'locksvc', REFERENCE, ACTIONS, join(screenshots, 'locksvc-scorecard.png'));
});

await check('a model without fairness replays every trace but fails the liveness properties', async () => {
  const g = await gradeModel(page, UNFAIR);
  expect(g.state === 'done', g.message);
  expect(g.stages.conformance.score === 1, `conformance ${g.stages.conformance.score}`);
  expect(Math.abs(g.stages.invariants.score - 3 / 5) < 1e-3, `invariants ${g.stages.invariants.score}`);
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

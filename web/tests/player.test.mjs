// Browser test of the counterexample player and of grading progress and Cancel.
// Environment (set by `cargo xtask test`): SYSMO_URL (the app, served on 127.0.0.1),
// CHROMIUM (browser binary), USER_DATA_DIR (a fresh profile), SCREENSHOT_DIR.
// Prints "N passed, M failed" and exits non-zero when a check fails.
import { chromium } from 'playwright-core';
import { pasteModel } from './lib/editor.mjs';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, checks, expect } from './lib/checks.mjs';

const url = process.env.SYSMO_URL;
if (!url) {
  console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
// A profile of its own (the other browser tests may have used and removed USER_DATA_DIR).
const profiles = process.env.USER_DATA_DIR || join(tmpdir(), 'sysmo-chromium');
mkdirSync(profiles, { recursive: true });
const userDataDir = mkdtempSync(join(profiles, 'player-'));
const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
mkdirSync(screenshots, { recursive: true });

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: CHROMIUM_ARGS,
});
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));

const { check, finish } = checks('player');

const tasksDir = fileURLToPath(new URL('../../tasks/', import.meta.url));
const SPIN = readFileSync(join(tasksDir, 'spin', 'reference', 'spin.tla'), 'utf8');
// Unlock guarded by `pc[t] # "spin"`: an idle thread frees a lock it does not hold, and a
// second thread enters the critical section (MutualExclusion is violated).
const OVER_PERMISSIVE = readFileSync(join(tasksDir, 'spin', 'wrong', 'over-permissive', 'spin.tla'), 'utf8');
// LockSpin without its `locked` guard: a lock() attempt may fail on a free lock. Every trace
// replays (the code never shows that step), but precision names it.
const SPIN_ON_FREE = readFileSync(join(tasksDir, 'spin', 'wrong', 'spin-on-free-lock', 'spin.tla'), 'utf8');
// The reference with a per-thread step counter: the state space outgrows the task's budget
// (100000 states), so every exhaustive run goes on for a while.
const NEXT = 'Next ==\n    \\E t \\in Threads :\n        \\/ TryLock(t)\n        \\/ LockSpin(t)\n        \\/ LockAcquired(t)\n        \\/ Unlock(t)\n';
const SPIN_BIG = SPIN
  .replace('VARIABLES locked, pc\n', 'VARIABLES locked, pc, count\n')
  .replace('    /\\ pc = [t \\in Threads |-> "idle"]\n', '    /\\ pc = [t \\in Threads |-> "idle"]\n    /\\ count = [t \\in Threads |-> 0]\n')
  .replace(NEXT, "Next ==\n    \\E t \\in Threads :\n        /\\ count' = [count EXCEPT ![t] = count[t] + 1]\n        /\\ TryLock(t) \\/ LockSpin(t) \\/ LockAcquired(t) \\/ Unlock(t)\n");

async function openTask(id) {
  await page.goto(url, { waitUntil: 'load' });
  await page.click(`.task-card[data-task="${id}"] a`);
  await page.waitForSelector(`#task[data-task="${id}"]`, { timeout: 20000 });
}

async function setModel(text) {
  await pasteModel(page, text);
  await page.waitForSelector('#summary[data-checked="true"]', { timeout: 10000 });
}

async function grade(timeout = 240000) {
  await page.click('#grade');
  await page.waitForSelector('#grade-status[data-state="done"], #grade-status[data-state="failed"]', { timeout });
  const state = await page.getAttribute('#grade-status', 'data-state');
  expect(state === 'done', `grading ended in state ${state}: ${await page.textContent('#grade-status')}`);
}

const player = '#scorecard .invariant-results li[data-name="MutualExclusion"] .player';
const pos = async () => Number(await page.getAttribute(player, 'data-pos'));

await check('the model variants used below are what they claim', async () => {
  expect(SPIN_BIG !== SPIN && SPIN_BIG.includes("count' = [count EXCEPT") && SPIN_BIG.includes('count = [t \\in Threads |-> 0]'), 'the big spin model');
  expect(OVER_PERMISSIVE.includes('MODULE spin'), 'the over-permissive model');
});

await check('a MutualExclusion violation opens in the player', async () => {
  await openTask('spin');
  await setModel(OVER_PERMISSIVE);
  await grade();
  await page.click('#scorecard .stage[data-stage="invariants"] summary');
  const row = '#scorecard .invariant-results li[data-name="MutualExclusion"]';
  expect((await page.getAttribute(row, 'data-verdict')) === 'fail', 'MutualExclusion fails');
  await page.click(`${row} details.cex summary`);
  await page.waitForSelector(player, { state: 'visible' });
  expect((await pos()) === 0, 'starts at the initial state');
  expect((await page.textContent(`${player} .step-action .action`)) === 'initial state', 'initial state label');
  const len = Number(await page.getAttribute(player, 'data-len'));
  expect(len >= 3, `${len} states`);
  expect((await page.locator(`${player} .strip li.step`).count()) === len, 'a strip entry per state');
});

await check('the keyboard and the buttons step to the violating state, where two threads are in the critical section', async () => {
  const len = Number(await page.getAttribute(player, 'data-len'));
  await page.focus(player);
  await page.keyboard.press('ArrowRight');
  expect((await pos()) === 1, 'ArrowRight steps forward');
  const label = await page.textContent(`${player} .step-action .action`);
  expect(/^(TryLock|LockSpin|LockAcquired|Unlock)\(t = \d\)$/.test(label), `the first step reads "${label}"`);
  await page.keyboard.press('End');
  expect((await pos()) === len - 1, 'End jumps to the last state');
  await page.keyboard.press('ArrowLeft');
  expect((await pos()) === len - 2, 'ArrowLeft steps back');
  await page.keyboard.press('Home');
  expect((await pos()) === 0, 'Home jumps to the first state');
  for (let i = 1; i < len; i += 1) await page.click(`${player} button.next`);
  expect((await pos()) === len - 1, 'the next button reaches the last state');
  expect(await page.isDisabled(`${player} button.next`), 'next is disabled at the end');
  await page.click(`${player} button.first`);
  await page.click(`${player} button.last`);
  expect((await pos()) === len - 1, 'first then last');
  // pc as a tree: two of its entries are "cs".
  const pcValues = await page.locator(`${player} li.var[data-var="pc"] li.node.scalar .val`).allTextContents();
  expect(pcValues.filter((v) => v === '"cs"').length === 2, `pc reads ${pcValues}`);
  // The lanes: one row per thread, two in "cs" in the current column.
  const lanes = await page.locator(`${player} table.lanes tbody tr`).count();
  expect(lanes === 3, `${lanes} lanes`);
  const now = await page.locator(`${player} table.lanes tbody td.current`).allTextContents();
  expect(now.filter((v) => v === '"cs"').length === 2, `current column ${now}`);
  // The step names the thread that entered, and its lane is the one marked.
  const last = await page.textContent(`${player} .step-action .action`);
  const m = /^(LockAcquired|TryLock)\(t = (\d)\)$/.exec(last);
  expect(m, `the last step reads "${last}"`);
  const acted = await page.getAttribute(`${player} table.lanes tr.acted`, 'data-process');
  expect(acted === m[2], `acted lane ${acted}`);
});

await check('what changed since the previous state is highlighted', async () => {
  const changed = await page.locator(`${player} li.var.changed`).evaluateAll((els) => els.map((e) => e.dataset.var));
  expect(changed.includes('pc') && changed.includes('locked'), `changed variables ${changed}`);
  expect((await page.textContent(`${player} .changed-list`)).startsWith('changed: '), 'the changed list');
  // Inside pc only the entering thread's entry is marked.
  const marked = await page.locator(`${player} li.var[data-var="pc"] li.node.scalar.changed`).evaluateAll((els) => els.map((e) => e.dataset.key));
  const acted = await page.getAttribute(`${player} table.lanes tr.acted`, 'data-process');
  expect(marked.length === 1 && marked[0] === acted, `marked entries ${marked}`);
  expect((await page.locator(`${player} table.lanes td.current.changed`).count()) === 1, 'one lane cell changed');
  await page.locator(player).screenshot({ path: join(screenshots, 'player.png') });
});

await check('play advances by itself and pause stops it', async () => {
  await page.click(`${player} button.first`);
  await page.click(`${player} button.play`);
  await page.waitForFunction((sel) => Number(document.querySelector(sel).dataset.pos) >= 2, player, { timeout: 5000 });
  await page.click(`${player} button.play`);
  const at = await pos();
  await page.waitForTimeout(1200);
  expect((await pos()) === at, 'paused');
});

await check('"Export ITF JSON" downloads the counterexample as the grader produced it', async () => {
  const link = `${player} a.export`;
  const download = await page.getAttribute(link, 'download');
  expect(download === 'spin-MutualExclusion.itf.json', `download name ${download}`);
  const href = await page.getAttribute(link, 'href');
  const prefix = 'data:application/json;charset=utf-8,';
  expect(href.startsWith(prefix), `href ${href.slice(0, 40)}`);
  const itf = JSON.parse(decodeURIComponent(href.slice(prefix.length)));
  const len = Number(await page.getAttribute(player, 'data-len'));
  expect(itf['#meta'].format === 'ITF' && itf.states.length === len, 'an ITF trace with every state');
  const last = itf.states[len - 1];
  expect(last.pc['#map'].filter(([, v]) => v === 'cs').length === 2, 'two threads in cs in the export');
  expect(/^(LockAcquired|TryLock)$/.test(last['#meta'].step.action), 'the step is recorded');
});

await check('an over-permissive step: precision below 1 names it, beside the system state, and plays it', async () => {
  await setModel(SPIN_ON_FREE);
  await grade();
  const stage = '#scorecard .stage[data-stage="precision"]';
  const score = Number(await page.getAttribute(`${stage} .score`, 'data-score'));
  expect((await page.getAttribute(stage, 'data-status')) === 'ran' && score > 0 && score < 1, `precision ${score}`);
  expect((await page.getAttribute('#scorecard .stage[data-stage="conformance"] .score', 'data-score')) === '1.0000', 'it conforms');
  await page.click(`${stage} summary`);
  const row = `${stage} .precision-steps li[data-step="LockSpin(t=0)"]`;
  await page.waitForSelector(row, { state: 'visible' });
  const message = await page.textContent(`${row} .message`);
  expect(message.startsWith('the model allows LockSpin(t=0) from locked = FALSE'), `message "${message}"`);
  const from = await page.locator(`${row} .from code`).allTextContents();
  expect(from.includes('locked = FALSE'), `system state ${from}`);
  expect((await page.textContent(`${row} .code-steps`)).includes('LockAcquired(t=0)'), 'what the code does there');
  await page.click(`${row} details.cex summary`);
  const p = `${row} .player`;
  await page.waitForSelector(p, { state: 'visible' });
  const len = Number(await page.getAttribute(p, 'data-len'));
  expect(len >= 2, `${len} states`);
  await page.focus(p);
  await page.keyboard.press('End');
  const last = await page.textContent(`${p} .step-action .action`);
  expect(last === 'LockSpin(t = 0)', `the last step reads "${last}"`);
  await page.locator(row).first().screenshot({ path: join(screenshots, 'precision-step.png') });
});

let referenceReports = 0;
await check('grading the reference shows a bar per stage, each ending with its score', async () => {
  await setModel(SPIN);
  await grade();
  const states = await page.locator('#progress .bar').evaluateAll((els) => els.map((e) => `${e.dataset.stage}:${e.dataset.state}`));
  expect(JSON.stringify(states) === JSON.stringify(['syntax:ran', 'runtime:ran', 'conformance:ran', 'invariants:ran', 'precision:ran']), `bars ${states}`);
  for (const s of ['syntax', 'runtime', 'conformance', 'invariants', 'precision']) {
    expect((await page.textContent(`#progress .bar[data-stage="${s}"] .counts`)) === 'score 1.0000', `${s} score`);
  }
  referenceReports = Number(await page.getAttribute('#progress', 'data-reports'));
  expect(referenceReports > 8, `${referenceReports} progress reports`);
  console.log(`     ${referenceReports} progress reports for the spin reference grade`);
});

await check('a gated grade marks the later stages', async () => {
  await setModel(SPIN.replace('pc\' = [pc EXCEPT ![t] = "idle"]', 'pc\' = [pc EXCEPT ![t] == "idle"]'));
  await grade();
  const states = await page.locator('#progress .bar').evaluateAll((els) => els.map((e) => e.dataset.state));
  expect(JSON.stringify(states) === JSON.stringify(['ran', 'skipped', 'skipped', 'skipped', 'skipped']), `bars ${states}`);
  expect((await page.textContent('#progress .bar[data-stage="runtime"] .counts')) === 'skipped (gated)', 'gated text');
});

await check('a long grade shows its states as they are explored, and Cancel answers within 200 ms', async () => {
  await setModel(SPIN_BIG);
  await page.click('#grade');
  // The runtime gate under way, with its counts growing.
  const counts = async () => Number((/gate: (\d+) states explored/.exec(await page.textContent('#progress .bar[data-stage="runtime"] .counts')) || [0, 0])[1]);
  await page.waitForFunction(() => /gate: [1-9]\d* states explored/.test(document.querySelector('#progress .bar[data-stage="runtime"] .counts')?.textContent || ''), null, { timeout: 60000 });
  const first = await counts();
  await page.waitForFunction((n) => {
    const m = /gate: (\d+) states explored/.exec(document.querySelector('#progress .bar[data-stage="runtime"] .counts')?.textContent || '');
    return m && Number(m[1]) > n;
  }, first, { timeout: 30000 });
  expect((await page.getAttribute('#progress .bar[data-stage="runtime"]', 'data-state')) === 'running', 'the runtime bar runs');
  expect((await page.getAttribute('#grade-status', 'data-state')) === 'running', 'running');
  // In the page: click Cancel, wait for "cancelled" and an enabled Grade button, click Grade,
  // and wait for the new run to be under way.
  const ms = await page.evaluate(() => new Promise((resolve, reject) => {
    const status = () => document.querySelector('#grade-status');
    const gradeButton = () => document.querySelector('#grade');
    let t0 = 0;
    let cancelledAt = 0;
    const obs = new MutationObserver(() => {
      if (!cancelledAt && status()?.dataset.state === 'cancelled' && status().textContent === 'cancelled' && !gradeButton().disabled) {
        cancelledAt = performance.now();
        gradeButton().click();
      } else if (cancelledAt && status()?.dataset.state === 'running') {
        obs.disconnect();
        resolve({ cancelled: cancelledAt - t0, regraded: performance.now() - t0 });
      }
    });
    obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    setTimeout(() => reject(new Error('no answer within 5 s')), 5000);
    t0 = performance.now();
    document.querySelector('#cancel').click();
  }));
  console.log(`     cancel: "cancelled" after ${ms.cancelled.toFixed(1)} ms, a new grade under way after ${ms.regraded.toFixed(1)} ms`);
  expect(ms.regraded < 200, `took ${ms.regraded} ms`);
  // The new grade (the same model) runs in a fresh worker: its gate reports states again.
  await page.waitForFunction(() => /gate: [1-9]\d* states explored/.test(document.querySelector('#progress .bar[data-stage="runtime"] .counts')?.textContent || ''), null, { timeout: 60000 });
  // The stage under way when Cancel is pressed says so, and so do those after it (on a busy
  // machine the gate may have ended and a later stage be under way by then): some bar says
  // cancelled, none runs or waits.
  await page.click('#cancel');
  await page.waitForSelector('#grade-status[data-state="cancelled"]', { timeout: 2000 });
  const bars = await page.$$eval('#progress .bar', (els) => els.map((e) => `${e.dataset.stage}:${e.dataset.state}`));
  expect(bars.some((b) => b.endsWith(':cancelled')) && !bars.some((b) => /:(running|waiting)$/.test(b)), `the running bar says cancelled: ${bars}`);
  // And a short grade after it completes.
  await setModel(SPIN);
  await grade();
  expect((await page.getAttribute('#overall', 'data-score')) === '1.0000', 'the reference after a cancel');
});

await check('the page raised no error', async () => {
  expect(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await context.close();
finish();

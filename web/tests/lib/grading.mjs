// Grading a model in the task page as a user does: paste it, wait for its check, press Grade,
// wait for the worker, read the scorecard. For the browser tests of the tasks.

import { expect } from './checks.mjs';
import { pasteModel } from './editor.mjs';

export const STAGES = ['syntax', 'runtime', 'conformance', 'invariants', 'precision'];

/** Paste `text`, grade it, and return the grade's state, message, seconds and scores by stage. */
export async function gradeModel(page, text, timeout = 600000) {
  await pasteModel(page, text);
  await page.waitForSelector('#summary[data-checked="true"][data-status="clean"]', { timeout: 20000 });
  const started = Date.now();
  await page.click('#grade');
  await page.waitForSelector('#grade-status[data-state="done"], #grade-status[data-state="failed"]', { timeout });
  const seconds = (Date.now() - started) / 1000;
  const state = await page.getAttribute('#grade-status', 'data-state');
  const message = await page.textContent('#grade-status');
  const stages = {};
  for (const stage of STAGES) {
    const el = `#scorecard .stage[data-stage="${stage}"]`;
    stages[stage] = { score: Number(await page.getAttribute(`${el} .score`, 'data-score')), status: await page.getAttribute(el, 'data-status') };
  }
  return { state, message, seconds, stages };
}

/**
 * Grade the reference model `text` of task `id` and expect 1.0 in every stage (precision too
 * when `graph`: the task has a system graph; without one, precision is skipped), with a
 * coverage row and a conformance row per action; the scorecard is saved as `<id>-scorecard.png`.
 */
export async function expectReferenceGrade(page, id, text, actions, screenshotPath, graph = true) {
  await page.waitForSelector('#editor[data-kind="codemirror"] .cm-content', { timeout: 10000 });
  const g = await gradeModel(page, text);
  console.log(`     graded the ${id} reference in the worker in ${g.seconds.toFixed(1)} s`);
  expect(g.state === 'done', g.message);
  for (const stage of STAGES) {
    const { score, status } = g.stages[stage];
    if (stage === 'precision' && !graph) {
      expect(status === 'skipped', `${stage}: ${score} ${status} (the task has no system graph)`);
      continue;
    }
    expect(score === 1 && status === 'ran', `${stage}: ${score} ${status}`);
  }
  for (const stage of ['runtime', 'conformance']) await page.click(`#scorecard .stage[data-stage="${stage}"] summary`);
  const covered = await page.locator('#scorecard table.coverage tbody tr').count();
  expect(covered === actions.length, `coverage rows ${covered}`);
  const conform = await page.locator('#scorecard table.conformance tbody tr').count();
  expect(conform === actions.length, `conformance rows ${conform}`);
  await page.screenshot({ path: screenshotPath, fullPage: true });
}

/**
 * Grade the model `text`, a wrong one that replays every trace, and expect the invariants
 * stage to score `invariants` (a fraction) with exactly the properties `failed` not passing.
 */
export async function expectFailsInvariants(page, text, invariants, failed) {
  const g = await gradeModel(page, text);
  expect(g.state === 'done', g.message);
  expect(g.stages.conformance.score === 1, `conformance ${g.stages.conformance.score}`);
  expect(Math.abs(g.stages.invariants.score - invariants) < 1e-3, `invariants ${g.stages.invariants.score}`);
  await page.click('#scorecard .stage[data-stage="invariants"] summary');
  const shown = (await page.locator('#scorecard li[data-verdict]:not([data-verdict="pass"])').evaluateAll((els) => els.map((e) => e.dataset.name))).sort();
  const want = [...failed].sort();
  expect(JSON.stringify(shown) === JSON.stringify(want), `failed ${shown}`);
}

/**
 * On the description tab, check the task's bug model in the worker and expect `property`
 * violated with a counterexample of `states` states, which plays in the player: stepped from
 * the first state to the last, whose step is `lastAction`. The bug panel is saved as
 * `screenshotPath`. Returns the seconds the check took.
 */
export async function expectBugFound(page, { property, states, lastAction }, screenshotPath, timeout = 300000) {
  await page.click('.tab[data-tab="description"]');
  await page.waitForSelector('#bug-run #check-bug:not([disabled])');
  const started = Date.now();
  await page.click('#check-bug');
  await page.waitForSelector('#bug-status[data-state="done"], #bug-status[data-state="failed"]', { timeout });
  const seconds = (Date.now() - started) / 1000;
  const status = await page.textContent('#bug-status');
  expect((await page.getAttribute('#bug-status', 'data-state')) === 'done' && status.includes(property), status);
  const player = `#bug-run .bug-violations li[data-name="${property}"] .player`;
  await page.waitForSelector(player, { state: 'visible' });
  const len = Number(await page.getAttribute(player, 'data-len'));
  expect(len === states, `the counterexample has ${len} states, not ${states}`);
  expect((await page.textContent(`${player} .step-action .action`)) === 'initial state', 'the player starts at the initial state');
  await page.click(`${player} button.next`);
  expect(Number(await page.getAttribute(player, 'data-pos')) === 1, 'next steps to state 2');
  await page.click(`${player} button.last`);
  expect(Number(await page.getAttribute(player, 'data-pos')) === len - 1, 'last steps to the violating state');
  const last = await page.textContent(`${player} .step-action .action`);
  expect(last.startsWith(lastAction), `the last step is ${last}, not ${lastAction}`);
  await page.locator('#bug-run').screenshot({ path: screenshotPath });
  return seconds;
}

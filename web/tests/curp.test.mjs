// Browser test of the curp task: its page shows the system's code, traces and invariants; the
// description walks through the bug, and the bug model, checked in the worker from the
// description tab, is refuted with a counterexample that plays in the player; its reference
// model, pasted into the editor, grades 1.0 in all five stages in the worker (precision against
// the system graph, six steps deep). Environment as app.test.mjs (set by `cargo xtask test`).
// Prints "N passed, M failed" and the times the check and the grade took.
import { expectTaskPage, openTaskTest, taskFile } from './lib/task-page.mjs';
import { expectBugFound, expectReferenceGrade } from './lib/grading.mjs';

const REFERENCE = taskFile('curp', 'reference', 'curp.tla');
const ACTIONS = [
  'Propose', 'ProcessProposeLeader', 'ProcessProposeNonLeader', 'Commit', 'ProcessCommitMsg', 'LeaderChange',
  'AppendEntries', 'FastRound', 'SlowRound',
];

const { url, page, check, screenshot, end } = await openTaskTest('curp');

await check('the curp task page shows its actions, code, traces and invariants', async () => {
  await expectTaskPage(page, url, {
    id: 'curp', module: 'curp', actions: ACTIONS, codeFile: 'tasks/curp/src/client.rs', invariant: 'NoLowerTermResult', invariants: 10,
  });
});

await check('the description walks through the bug: code path, counterexample, fix', async () => {
  await page.click('.tab[data-tab="description"]');
  await page.waitForSelector('#description .bug-found');
  const found = await page.textContent('#description .bug-found');
  for (const part of ['The code path', 'The counterexample', 'The fix', 'NoLowerTermResult', 'self.er = None']) {
    if (!found.includes(part)) throw new Error(`the bug walkthrough lacks ${part}: ${found.slice(0, 200)}`);
  }
});

await check('the bug model, checked in the worker, violates NoLowerTermResult, and its counterexample plays', async () => {
  const seconds = await expectBugFound(page, { property: 'NoLowerTermResult', states: 9, lastAction: 'FastRound' }, screenshot('curp-bug.png'));
  console.log(`     checked the curp bug model in the worker in ${seconds.toFixed(1)} s`);
});

await check('the curp reference model grades 1.0 in all five stages in the worker', async () => {
  await expectReferenceGrade(page, 'curp', REFERENCE, ACTIONS, screenshot('curp-scorecard.png'));
});

await end();

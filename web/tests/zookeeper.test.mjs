// Browser test of the zookeeper task: its page shows the system's code, traces and invariants,
// and its reference model, pasted into the editor, grades 1.0 in all five stages in the worker
// (precision against the system graph, nine steps deep), and the description walks through the
// epoch-blind tie-break of the vote order. Environment as app.test.mjs (set by `cargo xtask
// test`). Prints "N passed, M failed" and the time the grade took.
import { expectTaskPage, openTaskTest, taskFile } from './lib/task-page.mjs';
import { expectReferenceGrade } from './lib/grading.mjs';

const REFERENCE = taskFile('zookeeper', 'reference', 'zookeeper.tla');
const ACTIONS = [
  'Start', 'Crash', 'ReceiveNotification', 'DecideBySettled', 'SettledReceive', 'NotificationTimeout', 'FinalizeWait',
  'StopFollowing', 'StopLeading',
];

const { url, page, check, screenshot, end } = await openTaskTest('zookeeper');

await check('the zookeeper task page shows its actions, code, traces and invariants', async () => {
  await expectTaskPage(page, url, {
    id: 'zookeeper', module: 'zookeeper', actions: ACTIONS, codeFile: 'tasks/zookeeper/src/fast_leader_election.rs', invariant: 'VoteRecencyConsistency', invariants: 12,
  });
});

await check('the description walks through the bug: code path, counterexample, fix', async () => {
  await page.click('.tab[data-tab="description"]');
  await page.waitForSelector('#description .bug-found');
  const found = await page.textContent('#description .bug-found');
  for (const part of ['The code path', 'The counterexample', 'The fix', 'VoteRecencyConsistency', 'total_order_predicate']) {
    if (!found.includes(part)) throw new Error(`the bug walkthrough lacks ${part}: ${found.slice(0, 200)}`);
  }
});

await check('the zookeeper reference model grades 1.0 in all five stages in the worker', async () => {
  await expectReferenceGrade(page, 'zookeeper', REFERENCE, ACTIONS, screenshot('zookeeper-scorecard.png'));
});

await end();

// Browser test of the redisraft task: its page shows the system's code, traces and invariants; the
// description walks through the stale-read bug, and the bug model, checked in the worker from the
// description tab, is refuted with a counterexample that plays in the player; its reference
// model, pasted into the editor, grades 1.0 in all five stages in the worker (precision against
// the system graph, five steps deep). Environment as app.test.mjs (set by `cargo xtask test`).
// Prints "N passed, M failed" and the times the check and the grade took.
import { expectTaskPage, openTaskTest, taskFile } from './lib/task-page.mjs';
import { expectBugFound, expectReferenceGrade } from './lib/grading.mjs';

const REFERENCE = taskFile('redisraft', 'reference', 'redisraft.tla');
const ACTIONS = [
  'ElectionStart', 'SendHeartbeat', 'RecvRequestVote', 'RecvRequestVoteResponse', 'BecomeCandidate', 'BecomeLeader',
  'BecomeFollower', 'RecvAppendEntries', 'RecvAppendEntriesResponse', 'SendAppendEntries', 'LogCommit', 'ApplyEntry',
  'RecvEntry', 'AddNode', 'RemoveNode', 'RecvReadRequest', 'ProcessReadQueue', 'SnapshotBegin', 'SnapshotEnd',
  'RecvSnapshot', 'RecvSnapshotResponse',
];

const { url, page, check, screenshot, end } = await openTaskTest('redisraft');

await check('the redisraft task page shows its actions, code, traces and invariants', async () => {
  await expectTaskPage(page, url, {
    id: 'redisraft', module: 'redisraft', actions: ACTIONS, codeFile: 'tasks/redisraft/src/raft_server.rs', invariant: 'LinearizableReads', invariants: 17,
  });
});

await check('the description walks through the bug: code path, counterexample, fix', async () => {
  await page.click('.tab[data-tab="description"]');
  await page.waitForSelector('#description .bug-found');
  const found = await page.textContent('#description .bug-found');
  for (const part of ['The code path', 'The counterexample', 'The fix', 'LinearizableReads', 'quorum_msg_id']) {
    if (!found.includes(part)) throw new Error(`the bug walkthrough lacks ${part}: ${found.slice(0, 200)}`);
  }
});

await check('the bug model, checked in the worker, violates LinearizableReads, and its counterexample plays', async () => {
  const seconds = await expectBugFound(page, { property: 'LinearizableReads', states: 13, lastAction: 'RecvReadRequest' }, screenshot('redisraft-bug.png'));
  console.log(`     checked the redisraft bug model in the worker in ${seconds.toFixed(1)} s`);
});

await check('the redisraft reference model grades 1.0 in all five stages in the worker', async () => {
  await expectReferenceGrade(page, 'redisraft', REFERENCE, ACTIONS, screenshot('redisraft-scorecard.png'));
});

await end();

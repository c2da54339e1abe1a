// Browser test of the redisraft task: its page shows the system's code, traces and invariants,
// and its reference model, pasted into the editor, grades 1.0 in all five stages in the worker
// (precision against the system graph, five steps deep), and the description walks through the
// stale-read bug. Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M
// failed" and the time the grade took.
import { expectTaskPage, openTaskTest, taskFile } from './lib/task-page.mjs';
import { expectReferenceGrade } from './lib/grading.mjs';

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

await check('the redisraft reference model grades 1.0 in all five stages in the worker', async () => {
  await expectReferenceGrade(page, 'redisraft', REFERENCE, ACTIONS, screenshot('redisraft-scorecard.png'));
});

await end();

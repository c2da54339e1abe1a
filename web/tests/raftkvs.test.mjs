// Browser test of the raftkvs task: its page shows the system's code, traces and invariants, and
// its reference model, pasted into the editor, grades 1.0 in all five stages in the worker
// (precision against the system graph, ten steps deep).
// Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed" and the
// time the grade took.
import { expectTaskPage, openTaskTest, taskFile } from './lib/task-page.mjs';
import { expectReferenceGrade } from './lib/grading.mjs';

const REFERENCE = taskFile('raftkvs', 'reference', 'raftkvs.tla');
const ACTIONS = [
  'serverLoop', 'handleMsg', 'serverRequestVoteLoop', 'requestVoteLoop', 'serverAppendEntriesLoop', 'appendEntriesLoop',
  'serverAdvanceCommitIndexLoop', 'applyLoop', 'serverBecomeLeaderLoop', 'serverCrash', 'fdUpdate', 'clientLoop', 'sndReq', 'rcvResp',
];

const { url, page, check, screenshot, end } = await openTaskTest('raftkvs');

await check('the raftkvs task page shows its actions, code, traces and invariants', async () => {
  await expectTaskPage(page, url, {
    id: 'raftkvs', module: 'raftkvs', actions: ACTIONS, codeFile: 'tasks/raftkvs/src/raftkvs.rs', invariant: 'ElectionSafety', invariants: 12,
  });
});

await check('the raftkvs reference model grades 1.0 in all five stages in the worker', async () => {
  await expectReferenceGrade(page, 'raftkvs', REFERENCE, ACTIONS, screenshot('raftkvs-scorecard.png'));
});

await end();

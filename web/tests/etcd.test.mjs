// Browser test of the etcd Raft task: its page shows the system's code, traces and invariants,
// and its reference model, pasted into the editor, grades 1.0 in all five stages in the worker
// (precision against the system graph of the pre-vote phase).
// Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed" and the
// time the grade took.
import { expectTaskPage, openTaskTest, taskFile } from './lib/task-page.mjs';
import { expectReferenceGrade } from './lib/grading.mjs';

const REFERENCE = taskFile('etcd', 'reference', 'etcdraft.tla');
const ACTIONS = [
  'Timeout', 'HandlePreVoteRequest', 'HandlePreVoteResponse', 'HandleVoteRequest', 'HandleVoteResponse', 'ClientRequest',
  'HeartbeatTimeout', 'HandleAppendEntriesRequest', 'HandleAppendEntriesResponse', 'HandleHeartbeat', 'HandleHeartbeatResponse',
  'Restart',
];

const { url, page, check, screenshot, end } = await openTaskTest('etcd');

await check('the etcd task page shows its actions, code, traces and invariants', async () => {
  await expectTaskPage(page, url, {
    id: 'etcd', module: 'etcdraft', actions: ACTIONS, codeFile: 'tasks/etcd/src/raft.rs', invariant: 'LogMatchingInv', invariants: 14,
  });
});

await check('the etcd reference model grades 1.0 in all five stages in the worker', async () => {
  await expectReferenceGrade(page, 'etcd', REFERENCE, ACTIONS, screenshot('etcd-scorecard.png'));
});

await end();

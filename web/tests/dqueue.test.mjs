// Browser test of the dqueue task: its page shows the system's code, traces and invariants, its
// reference model, pasted into the editor, grades 1.0 in all four stages in the worker, and a
// model whose producer may leave a request unanswered is caught by the invariants.
// Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed" and the
// time the grade took.
import { expect } from './lib/checks.mjs';
import { expectTaskPage, openTaskTest, taskFile } from './lib/task-page.mjs';
import { expectFailsInvariants, expectReferenceGrade } from './lib/grading.mjs';

const REFERENCE = taskFile('dqueue', 'reference', 'dqueue.tla');
const DROPPING = taskFile('dqueue', 'wrong', 'answer-may-drop', 'dqueue.tla');
const ACTIONS = ['c', 'c1', 'c2', 'p', 'p1', 'p2'];

const { url, page, check, screenshot, end } = await openTaskTest('dqueue');

await check('the dqueue task page shows its actions, code, traces and invariants', async () => {
  const files = await expectTaskPage(page, url, {
    id: 'dqueue', module: 'dqueue', actions: ACTIONS, codeFile: 'tasks/dqueue/src/dqueue.rs', invariant: 'ConsumerAlwaysConsumes', invariants: 9,
  });
  expect(files.includes('tasks/simnet/src/network.rs'), `how messages travel is shown: ${files}`);
});

await check('the dqueue reference model grades 1.0 in all four stages in the worker', async () => {
  await expectReferenceGrade(page, 'dqueue', REFERENCE, ACTIONS, screenshot('dqueue-scorecard.png'));
});

await check('a producer that may drop its answer replays every trace but fails the invariants', async () => {
  await expectFailsInvariants(page, DROPPING, 6 / 9, ['OneRequestPerWaitingConsumer', 'RequestEventuallyAnswered', 'StreamCycles']);
});

await end();

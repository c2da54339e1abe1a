// Browser test of the locksvc task: its page shows the system's code, traces and invariants, its
// reference model, pasted into the editor, grades 1.0 in all four stages in the worker, and a
// model without fairness replays every trace but is caught by the liveness properties.
// Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed" and the
// time the grade took.
import { expectTaskPage, openTaskTest, taskFile } from './lib/task-page.mjs';
import { expectFailsInvariants, expectReferenceGrade } from './lib/grading.mjs';

const REFERENCE = taskFile('locksvc', 'reference', 'locksvc.tla');
const UNFAIR = taskFile('locksvc', 'wrong', 'no-fairness', 'locksvc.tla');
const ACTIONS = ['serverLoop', 'serverReceive', 'serverRespond', 'acquireLock', 'criticalSection', 'unlock'];

const { url, page, check, screenshot, end } = await openTaskTest('locksvc');

await check('the locksvc task page shows its actions, code, traces and invariants', async () => {
  await expectTaskPage(page, url, {
    id: 'locksvc', module: 'locksvc', actions: ACTIONS, codeFile: 'tasks/locksvc/src/locksvc.rs', invariant: 'LockSafety', invariants: 5,
  });
});

await check('the locksvc reference model grades 1.0 in all four stages in the worker', async () => {
  await expectReferenceGrade(page, 'locksvc', REFERENCE, ACTIONS, screenshot('locksvc-scorecard.png'));
});

await check('a model without fairness replays every trace but fails the liveness properties', async () => {
  await expectFailsInvariants(page, UNFAIR, 3 / 5, ['ServerEventuallyIdle', 'SystemLiveness']);
});

await end();

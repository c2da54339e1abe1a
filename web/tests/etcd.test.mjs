// Browser test of the etcd Raft task: its page shows the system's code, traces and invariants,
// and its reference model, pasted into the editor, grades 1.0 in all five stages in the worker
// (precision against the system graph of the pre-vote phase).
// Environment as app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed" and the
// time the grade took.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, checks, expect } from './lib/checks.mjs';
import { expectTaskPage } from './lib/task-page.mjs';
import { expectReferenceGrade } from './lib/grading.mjs';

const url = process.env.SYSMO_URL;
if (!url) {
  console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const userDataDir = process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'sysmo-chromium-'));
const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
mkdirSync(screenshots, { recursive: true });

const tasksDir = fileURLToPath(new URL('../../tasks/', import.meta.url));
const REFERENCE = readFileSync(join(tasksDir, 'etcd', 'reference', 'etcdraft.tla'), 'utf8');
const ACTIONS = [
  'Timeout', 'HandlePreVoteRequest', 'HandlePreVoteResponse', 'HandleVoteRequest', 'HandleVoteResponse', 'ClientRequest',
  'HeartbeatTimeout', 'HandleAppendEntriesRequest', 'HandleAppendEntriesResponse', 'HandleHeartbeat', 'HandleHeartbeatResponse',
  'Restart',
];

const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS });
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));

const { check, finish } = checks('etcd');

await check('the etcd task page shows its actions, code, traces and invariants', async () => {
  await expectTaskPage(page, url, {
    id: 'etcd', module: 'etcdraft', actions: ACTIONS, codeFile: 'tasks/etcd/src/raft.rs', invariant: 'LogMatchingInv', invariants: 14,
  });
});

await check('the etcd reference model grades 1.0 in all five stages in the worker', async () => {
  await page.waitForSelector('#editor[data-kind="codemirror"] .cm-content', { timeout: 10000 });
  await expectReferenceGrade(page, 'etcd', REFERENCE, ACTIONS, join(screenshots, 'etcd-scorecard.png'));
});

await check('the page raised no error', async () => {
  expect(pageErrors.length === 0, `page errors: ${pageErrors}`);
});

await context.close();
finish();

// A task page as a user opens it from the gallery: its description names the module and the
// actions, the code tab shows the system's code (not the harness that records it), the traces
// tab a trace, the invariants tab the properties. For the browser tests of the tasks, with the
// browser each runs in and the task's files it reads.

import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, checks, expect } from './checks.mjs';

const tasksDir = fileURLToPath(new URL('../../../tasks/', import.meta.url));

/** The text of a file of task `id`'s folder: `taskFile('dqueue', 'reference', 'dqueue.tla')`. */
export function taskFile(id, ...path) {
  return readFileSync(join(tasksDir, id, ...path), 'utf8');
}

/**
 * Start the browser test of task `id` in the environment `cargo xtask test` sets (as
 * app.test.mjs; exits with 2 when SYSMO_URL is not set): Chromium with one page whose errors
 * are collected, and the named checks. Returns the app's `url`, the `page`, `check`, the
 * path to save a screenshot `name` at, and `end()`, which checks that the page raised no
 * error, closes the browser and prints the count.
 */
export async function openTaskTest(id) {
  const url = process.env.SYSMO_URL;
  if (!url) {
    console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
    process.exit(2);
  }
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  const userDataDir = process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'sysmo-chromium-'));
  const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
  mkdirSync(screenshots, { recursive: true });

  const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));

  const { check, finish } = checks(id);
  async function end() {
    await check('the page raised no error', async () => {
      expect(pageErrors.length === 0, `page errors: ${pageErrors}`);
    });
    await context.close();
    finish();
  }
  return { url, page, check, screenshot: (name) => join(screenshots, name), end };
}

/**
 * Open task `id` from the gallery at `url` and check its tabs: the pinned `module` and
 * `actions`, `codeFile` among the code files, more than 10 trace rows, `invariant` among at
 * least `invariants` properties. Returns the code files shown.
 */
export async function expectTaskPage(page, url, { id, module, actions, codeFile, invariant, invariants }) {
  await page.goto(url, { waitUntil: 'load' });
  await page.click(`.task-card[data-task="${id}"] a`, { timeout: 20000 });
  await page.waitForSelector(`#task[data-task="${id}"]`, { timeout: 10000 });
  expect((await page.textContent('#description code.module')) === module, 'module name');
  const shown = (await page.locator('#description tr.action code').allTextContents()).map((a) => a.replace(/\(.*$/, ''));
  expect(JSON.stringify(shown) === JSON.stringify(actions), `actions ${shown}`);
  await page.click('.tab[data-tab="code"]');
  await page.waitForSelector('#code .row');
  const files = await page.locator('#code-file option').allTextContents();
  expect(files.includes(codeFile), `code files ${files}`);
  expect(!files.some((f) => f.endsWith('workload.rs')), `the harness is not shown: ${files}`);
  await page.click('.tab[data-tab="traces"]');
  await page.waitForSelector('#traces .trace-table tbody tr');
  expect((await page.locator('#traces .trace-table tbody tr').count()) > 10, 'trace rows');
  await page.click('.tab[data-tab="invariants"]');
  await page.waitForSelector(`#invariants li[data-name="${invariant}"]`);
  expect((await page.locator('#invariants li[data-name]').count()) >= invariants, 'the invariants listed');
  return files;
}

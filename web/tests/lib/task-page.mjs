// A task page as a user opens it from the gallery: its description names the module and the
// actions, the code tab shows the system's code (not the harness that records it), the traces
// tab a trace, the invariants tab the properties. For the browser tests of the tasks.

import { expect } from './checks.mjs';

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

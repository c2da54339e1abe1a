// Browser test of task packs: a teacher's task (the counter task renamed, its system shown as a
// Python file) made into a .sysmo file as `sysmo task pack` writes one, opened from the gallery's
// file chooser; it joins the gallery with a "pack" badge, its page shows its code and traces,
// its reference model grades 1.0 in all five stages in the worker (the worker opens the pack it
// is sent), its share link names the pack and re-grades; after a reload the pack is still there
// (IndexedDB); a file that is not a pack says why. Environment as app.test.mjs (set by `cargo
// xtask test`). Prints "N passed, M failed".
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from './lib/checks.mjs';
import { openTaskTest, taskFile } from './lib/task-page.mjs';
import { gradeModel, STAGES } from './lib/grading.mjs';

const ID = 'class-counter';
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The counter task as a teacher's pack: sysmo-pack/1, gzipped JSON. */
function counterPack() {
  const rename = (text) => text.replaceAll('"task":"counter"', `"task":"${ID}"`);
  const files = {};
  for (const f of ['task.toml', 'counterInvariants.tla', 'invariants.cfg', 'violations.cfg', 'reference/counter.tla', 'reference/counter.cfg']) {
    files[f] = taskFile('counter', ...f.split('/'));
  }
  files['task.toml'] = files['task.toml'].replace('id = "counter"', `id = "${ID}"`).replace('title = "', 'title = "Class: ');
  const traces = {};
  for (const f of readdirSync(join(root, 'traces/counter')).filter((n) => n.endsWith('.ndjson')).sort()) {
    traces[`traces/counter/${f}`] = rename(readFileSync(join(root, 'traces/counter', f), 'utf8'));
  }
  const graph = gunzipSync(readFileSync(join(root, 'traces/counter/system-graph.ndjson.gz'))).toString('utf8');
  const code = { 'code/counter.py': 'import threading\n\nclass Counter:\n    def increment(self):\n        v = self.value\n        self.value = v + 1\n' };
  return gzipSync(JSON.stringify({ format: 'sysmo-pack/1', files, traces, code, graph }));
}

const dir = mkdtempSync(join(tmpdir(), 'sysmo-packs-'));
const packFile = join(dir, `${ID}.sysmo`);
writeFileSync(packFile, counterPack());
const badFile = join(dir, 'notes.sysmo');
writeFileSync(badFile, 'hello, class');

const { url, page, check, screenshot, end } = await openTaskTest('packs');

await check('a file that is not a task pack says why, and the gallery still works', async () => {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#gallery #open-pack', { state: 'attached' });
  await page.setInputFiles('#open-pack', badFile);
  await page.waitForSelector('#pack-status[data-state="failed"]');
  const text = await page.textContent('#pack-status');
  expect(text.includes('notes.sysmo does not open') && text.includes('not a task pack'), text);
  expect((await page.locator('.task-card').count()) >= 10, 'the gallery lists the tasks');
});

await check('a task pack opens from the file chooser and joins the gallery', async () => {
  await page.setInputFiles('#open-pack', packFile);
  await page.waitForSelector('#pack-status[data-state="opened"]');
  const text = await page.textContent('#pack-status');
  expect(text.includes(`opened the task \`${ID}\``) && text.includes('kept in this browser'), text);
  await page.waitForSelector(`.task-card[data-task="${ID}"] .badge.pack`);
  expect((await page.textContent(`.task-card[data-task="${ID}"] .title`)).startsWith('Class: '), 'the pack task title');
});

await check("the pack's task page shows its Python code and its traces", async () => {
  await page.click(`.task-card[data-task="${ID}"] a`);
  await page.waitForSelector(`#task[data-task="${ID}"]`);
  await page.click('.tab[data-tab="code"]');
  await page.waitForSelector('#code .row');
  const files = await page.locator('#code-file option').allTextContents();
  expect(JSON.stringify(files) === JSON.stringify(['code/counter.py']), `code files ${files}`);
  expect((await page.textContent('#code')).includes('class Counter'), 'the Python code');
  await page.click('.tab[data-tab="traces"]');
  expect((await page.locator('#traces .trace-list button').count()) === 8, 'eight traces');
});

let link = '';
await check("the pack's reference model grades 1.0 in all five stages, and its share link names the pack", async () => {
  const g = await gradeModel(page, taskFile('counter', 'reference', 'counter.tla'));
  expect(g.state === 'done', g.message);
  for (const s of STAGES) expect(g.stages[s].score === 1 && g.stages[s].status === 'ran', `${s}: ${JSON.stringify(g.stages[s])}`);
  await page.click('#copy-link');
  await page.waitForSelector('#share-link');
  link = await page.inputValue('#share-link');
  await page.screenshot({ path: screenshot('pack-scorecard.png'), fullPage: true });
});

await check('after a reload the pack is still in the gallery, and its share link re-grades', async () => {
  await page.goto(url, { waitUntil: 'load' });
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector(`.task-card[data-task="${ID}"] .badge.pack`, { timeout: 20000 });
  await page.goto(link, { waitUntil: 'load' });
  await page.waitForSelector('#verification[data-state="verified"]', { timeout: 60000 });
});

await end();

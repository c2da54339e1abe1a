// Browser test of task packs: the sample course's bounded buffer (tasks/course/buffer, a
// teacher's folder whose system is a Python program) made into a .sysmo file as `sysmo task
// pack` writes one, opened from the gallery's file chooser; it joins the gallery with a "pack"
// badge (so does a pack dropped on the gallery, a link whose fragment carries it, and an
// address the user gives), its page
// shows its Python code and its traces, its bug model is refuted in the worker
// with a counterexample in the player, its reference model grades 1.0 in the four stages in the
// worker (the worker opens the pack each request carries; no system graph, so no precision),
// its share link names the pack and re-grades; after a reload the pack is still there
// (IndexedDB); each kind of exercise is solved and failed, with hints one at a time; a hidden
// property's formula appears nowhere in the page or a share link; "Export
// results" writes the best attempts, which `sysmo grade --results` grades again with the same
// scores; a file that is not a pack says why. The whole sample course (tasks/course, packed
// by `sysmo task pack`) opens at once: its tutorials are the built-in tasks, with their
// exercises, and the gallery lists the course in its order with the exercises solved, after a
// reload too. A write-invariant answer (definitions, not a module) is checked in the editor
// inside the task's invariants module. A newer version of a pack replaces the kept one, and a
// pack or a course can be removed. Environment as app.test.mjs (set by `cargo
// xtask test`). Prints "N passed, M failed".
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync, inflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { expect } from './lib/checks.mjs';
import { openTaskTest } from './lib/task-page.mjs';
import { expectBugFound, gradeModel, STAGES } from './lib/grading.mjs';
import { pasteModel } from './lib/editor.mjs';

const ID = 'buffer';
const folder = fileURLToPath(new URL('../../tasks/course/buffer/', import.meta.url));
const read = (...p) => readFileSync(join(folder, ...p), 'utf8');

/** The course's buffer folder as a pack: sysmo-pack/1, gzipped JSON (what `sysmo task pack` writes). */
function bufferPack(edit = (toml) => toml) {
  const files = {};
  for (const f of ['task.toml', 'bufferInvariants.tla', 'invariants.cfg']) files[f] = read(f);
  files['task.toml'] = edit(files['task.toml']);
  for (const sub of ['reference', 'bug', 'exercises']) for (const f of readdirSync(join(folder, sub)).sort()) files[`${sub}/${f}`] = read(sub, f);
  const traces = {};
  for (const t of ['traces/buffer', 'traces/buffer-bug']) for (const f of readdirSync(join(folder, t)).sort()) traces[`${t}/${f}`] = read(t, f);
  const code = { 'code/buffer.py': read('code', 'buffer.py') };
  return gzipSync(JSON.stringify({ format: 'sysmo-pack/1', files, traces, code, graph: null }));
}

const dir = mkdtempSync(join(tmpdir(), 'sysmo-packs-'));
const packFile = join(dir, `${ID}.sysmo`);
writeFileSync(packFile, bufferPack());
const sysmo = process.env.SYSMO_BIN;
expect(sysmo, 'SYSMO_BIN names the sysmo executable (set by `cargo xtask test`)');
const courseFile = join(dir, 'course.sysmo');
execFileSync(sysmo, ['task', 'pack', fileURLToPath(new URL('../../tasks/course/', import.meta.url)), '-o', courseFile]);
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

await check("a link whose fragment carries the pack opens its task's page; a damaged one says why", async () => {
  await page.goto(`${url}#/pack/1/%%%`, { waitUntil: 'load' });
  await page.waitForSelector('#pack-link[data-state="failed"]');
  const why = await page.textContent('#pack-link-error');
  expect(why.includes('not valid base64url'), why);
  await page.goto(`${url}#/pack/1/${bufferPack().toString('base64url')}`, { waitUntil: 'load' });
  await page.waitForSelector(`#task[data-task="${ID}"]`, { timeout: 20000 });
  expect((await page.evaluate(() => location.hash)) === `#/task/${ID}`, 'the address names the task');
});

await check('a task pack opens from an address the user gives, fetched on that request', async () => {
  const address = 'https://course.example/buffer.sysmo';
  let fetched = 0;
  await page.route(address, (route) => {
    fetched += 1;
    return route.fulfill({ status: 200, body: bufferPack(), headers: { 'content-type': 'application/gzip', 'access-control-allow-origin': '*' } });
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#gallery #pack-url');
  expect(fetched === 0, 'nothing is fetched before the user asks');
  await page.fill('#pack-url', address);
  await page.click('#open-pack-url');
  await page.waitForSelector('#pack-status[data-state="opened"], #pack-status[data-state="failed"]');
  const text = await page.textContent('#pack-status');
  expect(text.includes(`opened the task \`${ID}\` from ${address}`) && fetched === 1, text);
  await page.unroute(address);
});

await check('a task pack dropped on the gallery opens', async () => {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#pack-drop');
  const data = bufferPack().toString('base64');
  const transfer = await page.evaluateHandle((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'dropped.sysmo', { type: 'application/gzip' }));
    return dt;
  }, data);
  await page.dispatchEvent('#pack-drop', 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent('#pack-drop', 'drop', { dataTransfer: transfer });
  await page.waitForSelector('#pack-status[data-state="opened"], #pack-status[data-state="failed"]');
  const text = await page.textContent('#pack-status');
  expect(text.includes(`opened the task \`${ID}\` from dropped.sysmo`), text);
});

await check('a task pack opens from the file chooser and joins the gallery', async () => {
  await page.setInputFiles('#open-pack', packFile);
  await page.waitForSelector('#pack-status[data-state="opened"]');
  const text = await page.textContent('#pack-status');
  expect(text.includes(`opened the task \`${ID}\``) && text.includes('kept in this browser'), text);
  await page.waitForSelector(`.task-card[data-task="${ID}"] .badge.pack`);
  expect((await page.textContent(`.task-card[data-task="${ID}"] .title`)) === 'Course: the bounded buffer', 'the pack task title');
});

await check('the sample course opens whole: the tutorials are the built-in tasks, with their exercises', async () => {
  const before = await page.locator('.task-card').count();
  await page.setInputFiles('#open-pack', courseFile);
  await page.waitForSelector('#pack-status[data-state="opened"], #pack-status[data-state="failed"]');
  const text = await page.textContent('#pack-status');
  expect(text.startsWith('opened the course "Modeling concurrent code" from course.sysmo: 4 tasks, `counter` (built in), `hourclock` (built in), `spin-split` (built in), `buffer` (pack ') && text.endsWith('; it is kept in this browser'), text);
  expect((await page.locator('.task-card').count()) === before, 'no task is listed twice');
  for (const t of ['counter', 'hourclock', 'spin-split']) {
    expect((await page.getAttribute(`.task-card[data-task="${t}"] .badge.exercises`, 'data-exercises')) === '2', `${t} has its two exercises`);
  }
  expect((await page.getAttribute(`.task-card[data-task="${ID}"] .badge.exercises`, 'data-exercises')) === '4', 'the buffer has four');
  const listed = await page.locator('#courses .course[data-course="Modeling concurrent code"] li').evaluateAll((ls) => ls.map((l) => l.dataset.task));
  expect(JSON.stringify(listed) === JSON.stringify(['counter', 'hourclock', 'spin-split', ID]), `the course lists its tasks in order: ${listed}`);
  await page.locator('#courses').screenshot({ path: screenshot('pack-course.png') });
});

await check("the pack's task page shows its Python code and its traces", async () => {
  await page.click(`.task-card[data-task="${ID}"] a`);
  await page.waitForSelector(`#task[data-task="${ID}"]`);
  await page.click('.tab[data-tab="code"]');
  await page.waitForSelector('#code .row');
  const files = await page.locator('#code-file option').allTextContents();
  expect(JSON.stringify(files) === JSON.stringify(['code/buffer.py']), `code files ${files}`);
  expect((await page.textContent('#code')).includes('class BoundedBuffer'), 'the Python code');
  await page.click('.tab[data-tab="traces"]');
  expect((await page.locator('#traces .trace-list button').count()) === 10, 'ten traces');
});

await check("the pack's bug model is refuted in the worker and its counterexample plays", async () => {
  await expectBugFound(page, { property: 'EveryGetTakesAnItem', states: 5, lastAction: 'Get' }, screenshot('pack-bug.png'), 60000);
});

let link = '';
await check("the pack's reference model grades 1.0 in the four stages, and its share link names the pack", async () => {
  const g = await gradeModel(page, read('reference', 'buffer.tla'));
  expect(g.state === 'done', g.message);
  for (const s of STAGES.filter((x) => x !== 'precision')) expect(g.stages[s].score === 1 && g.stages[s].status === 'ran', `${s}: ${JSON.stringify(g.stages[s])}`);
  expect(g.stages.precision.status === 'skipped', 'no system graph, no precision');
  await page.click('#copy-link');
  await page.waitForSelector('#share-link');
  link = await page.inputValue('#share-link');
  await page.screenshot({ path: screenshot('pack-scorecard.png'), fullPage: true });
});

/** Choose exercise `id`, paste `text` (unless null), grade, and return the verdict's state and text. */
async function answer(id, text) {
  await page.selectOption('#exercise', id);
  await page.waitForSelector(`#exercise-bar[data-exercise="${id}"]`);
  if (text !== null) await pasteModel(page, text);
  await page.waitForSelector('#summary[data-checked="true"]', { timeout: 20000 });
  await page.click('#grade');
  await page.waitForSelector(`#exercise-result[data-exercise="${id}"], #grade-status[data-state="failed"]`, { timeout: 120000 });
  return { solved: await page.getAttribute('#exercise-result', 'data-solved'), text: await page.textContent('#exercise-result') };
}

await check('each kind of exercise is solved and failed in the page, and hints come one at a time', async () => {
  // Fix the model: the starter fails; its three hints; the reference solves it.
  await page.selectOption('#exercise', 'fix-the-model');
  await page.click('#load-starter');
  let r = await answer('fix-the-model', null);
  expect(r.solved === 'false' && r.text.includes('conformance stage scores 0.7500'), r.text);
  for (let i = 1; i <= 3; i += 1) {
    await page.click('#next-hint');
    expect((await page.locator('#hints li').count()) === i, `hint ${i}`);
  }
  const hints = await page.locator('#hints li').allTextContents();
  expect(hints[0].includes('which thread was waiting') && hints[2].startsWith('Where to look: Get'), `hints ${hints}`);
  expect(await page.isDisabled('#next-hint'), 'no hint beyond the last');
  r = await answer('fix-the-model', read('reference', 'buffer.tla'));
  expect(r.solved === 'true', r.text);
  // Find the bug: the model of the buggy code solves it, the reference does not.
  r = await answer('find-the-bug', read('bug', 'buffer.tla'));
  expect(r.solved === 'true' && r.text.includes('the bug is found'), r.text);
  r = await answer('find-the-bug', read('reference', 'buffer.tla'));
  expect(r.solved === 'false' && r.text.includes("conform to the buggy code's traces"), r.text);
  // Write the invariant: the answer is checked in the editor inside the invariants module
  // (the pinned names resolve; a misspelt one is marked); one kills the bug model, one does not.
  await page.selectOption('#exercise', 'write-the-invariant');
  await pasteModel(page, 'NoEmptyGet == \\A t \\in Consumers : gott[t] # -1\n');
  await page.waitForSelector('#editor .cm-lintRange-error', { timeout: 10000 });
  const rows = await page.locator('#diagnostics li.diagnostic.error').allTextContents();
  expect(rows.length === 1 && rows[0].includes('gott') && rows[0].includes('1:'), `diagnostics ${rows}`);
  r = await answer('write-the-invariant', 'NoEmptyGet == \\A t \\in Consumers : got[t] # -1\n');
  expect((await page.locator('#diagnostics li.diagnostic').count()) === 0, 'the answer is clean in the editor');
  expect(r.solved === 'true' && r.text.includes('bug models killed: 1 of 1'), r.text);
  r = await answer('write-the-invariant', 'NoEmptyGet == TRUE\n');
  expect(r.solved === 'false' && r.text.includes('does not catch the bug'), r.text);
  // Model the system.
  r = await answer('model', read('reference', 'buffer.tla'));
  expect(r.solved === 'true', r.text);
  await page.screenshot({ path: screenshot('pack-exercise.png'), fullPage: true });
});

await check("a hidden property's formula is nowhere in the page or in a share link; its sentence and verdict are", async () => {
  const formula = 'got[t] \\in 1..Items';
  expect(read('bufferInvariants.tla').includes(formula), 'the formula is in the task');
  await page.click('.tab[data-tab="invariants"]');
  await page.waitForSelector('#invariants li[data-name="EveryGetTakesAnItem"] .badge.hidden');
  expect((await page.textContent('#invariants .numbered')).includes('EveryGetTakesAnItem == (hidden by the task'), 'the definition is redacted');
  expect((await page.textContent('#invariants li[data-name="EveryGetTakesAnItem"]')).includes('never takes from an empty buffer'), 'the sentence is shown');
  const html = await page.content();
  expect(!html.includes(formula) && !html.includes(formula.replace('\\', '&#92;')), 'the formula is not in the DOM');
  expect(html.includes('EveryGetTakesAnItem'), 'the property is named');
  const shared = inflateRawSync(Buffer.from(link.split('#/share/1/')[1], 'base64url')).toString('utf8');
  expect(shared.includes('"model"') && !shared.includes(formula), 'the share link carries the model, not the formula');
});

await check('after a reload the pack is still in the gallery, and its share link re-grades', async () => {
  await page.goto(url, { waitUntil: 'load' });
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector(`.task-card[data-task="${ID}"] .badge.pack`, { timeout: 20000 });
  const course = '#courses .course[data-course="Modeling concurrent code"]';
  expect((await page.getAttribute(`${course} li[data-task="${ID}"]`, 'data-solved')) === '4', 'the course is kept, and says the four exercises are solved');
  expect((await page.textContent(`${course} li[data-task="counter"]`)).includes('0 of 2 exercises solved'), 'and none of the counter');
  await page.goto(link, { waitUntil: 'load' });
  await page.waitForSelector('#verification[data-state="verified"]', { timeout: 60000 });
});

await check('"Export results" writes the best attempt at each task and exercise', async () => {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#export-results');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-results')]);
  const file = join(dir, 'sysmo-results.json');
  await download.saveAs(file);
  const results = JSON.parse(readFileSync(file, 'utf8'));
  expect(results.format === 'sysmo-results/1', results.format);
  const kept = results.attempts.map((a) => `${a.task}/${a.exercise ?? ''}/${a.solved ?? ''}`).sort();
  const want = ['buffer//', 'buffer/find-the-bug/true', 'buffer/fix-the-model/true', 'buffer/model/true', 'buffer/write-the-invariant/true'];
  expect(JSON.stringify(kept) === JSON.stringify(want), `kept ${kept}`);
  expect(results.attempts.find((a) => a.exercise === 'fix-the-model').hints === 3, 'the hints used are recorded');
  expect((await page.textContent('#results-note')).includes('5 kept'), await page.textContent('#results-note'));
  // The teacher grades the file again with the CLI, given the course: every claim holds.
  const csv = execFileSync(sysmo, ['grade', '--results', file, '--pack', courseFile], { encoding: 'utf8' });
  const rows = csv.trim().split('\n').slice(1).map((l) => l.split(','));
  expect(rows.length === 5, `rows ${csv}`);
  for (const r of rows) expect(r[9] === 'true', `the claim does not hold: ${r.join(',')}`);
});

await check('a newer version of a pack replaces the kept one, after a reload too', async () => {
  const newer = join(dir, 'buffer-v2.sysmo');
  writeFileSync(newer, bufferPack((toml) => toml.replace('title = "Course: the bounded buffer"', 'title = "Course: the bounded buffer, v2"')));
  await page.goto(url, { waitUntil: 'load' });
  await page.setInputFiles('#open-pack', newer);
  await page.waitForSelector('#pack-status[data-state="opened"]');
  for (const when of ['opened', 'after a reload']) {
    if (when !== 'opened') await page.reload({ waitUntil: 'load' });
    await page.waitForSelector(`.task-card[data-task="${ID}"] .badge.pack`, { timeout: 20000 });
    const title = await page.textContent(`.task-card[data-task="${ID}"] .title`);
    expect(title === 'Course: the bounded buffer, v2', `${when}: ${title}`);
    expect((await page.locator('#kept-packs li').count()) === 1, `${when}: one pack is listed`);
  }
  // IndexedDB keeps the newer version only (beside the course's index).
  const keys = await page.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('sysmo-playground');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const req = open.result.transaction('packs').objectStore('packs').getAllKeys();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    };
  }));
  const packs = keys.filter((k) => !k.startsWith('course:'));
  const shown = await page.getAttribute(`.task-card[data-task="${ID}"] .badge.pack`, 'data-pack');
  expect(packs.length === 1 && packs[0] === shown, `kept ${keys}, shown ${shown}`);
});

await check('a pack or a course removed leaves the gallery and this browser', async () => {
  await page.click(`#kept-packs li[data-task="${ID}"] .forget-pack`);
  await page.waitForSelector(`.task-card[data-task="${ID}"]`, { state: 'detached' });
  const course = '#courses .course[data-course="Modeling concurrent code"]';
  expect((await page.textContent(`${course} li[data-task="${ID}"]`)).includes('removed from this browser'), 'the course says its task is gone');
  await page.click(`${course} .forget-course`);
  await page.waitForSelector('#courses', { state: 'detached' });
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector('#gallery .task-card[data-task="counter"]');
  expect((await page.locator(`.task-card[data-task="${ID}"], #courses, #kept-packs`).count()) === 0, 'neither comes back');
});

await end();

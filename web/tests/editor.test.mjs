// Browser test of the model editor (CodeMirror): highlighting, line numbers, search, undo,
// bracket matching, the checker's diagnostics underlined at their spans with the message on
// hover, and the textarea the page falls back to when the editor script cannot load.
// Environment as for app.test.mjs (set by `cargo xtask test`). Prints "N passed, M failed".
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, checks, expect } from './lib/checks.mjs';
import { editorText as editorTextOf, pasteModel as pasteInto } from './lib/editor.mjs';

const url = process.env.SYSMO_URL;
if (!url) {
  console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
  process.exit(2);
}
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const userDataDir = process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'sysmo-chromium-'));
const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
mkdirSync(screenshots, { recursive: true });

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  viewport: { width: 1400, height: 1000 },
  args: CHROMIUM_ARGS,
});
const pageErrors = [];
const page = context.pages()[0] ?? (await context.newPage());
page.on('pageerror', (e) => pageErrors.push(String(e)));

const { check, finish } = checks('editor');

const tasksDir = fileURLToPath(new URL('../../tasks/', import.meta.url));
const SPIN = readFileSync(join(tasksDir, 'spin', 'reference', 'spin.tla'), 'utf8');
// The search finds Unlock's update; typing one `=` after its `=` breaks that one definition.
const QUERY = 'EXCEPT ![t] = "idle"';
const SPIN_BROKEN = SPIN.replace(QUERY, 'EXCEPT ![t] == "idle"');
const BROKEN_LINE = SPIN_BROKEN.split('\n').findIndex((l) => l.includes('== "idle"')) + 1;
const brokenLine = SPIN_BROKEN.split('\n')[BROKEN_LINE - 1];
const BROKEN_COLUMN = [...brokenLine.slice(0, brokenLine.indexOf('== "idle"'))].length + 1;

const CM = '#editor[data-kind="codemirror"]';

async function openTask(id) {
  await page.goto(url, { waitUntil: 'load' });
  await page.click(`.task-card[data-task="${id}"] a`);
  await page.waitForSelector(`#task[data-task="${id}"]`, { timeout: 10000 });
  await page.waitForSelector(`${CM} .cm-content`, { timeout: 10000 });
}

const editorText = () => editorTextOf(page);

/** Select everything and paste `text`, as a user replacing the model does. */
async function pasteModel(text) {
  await pasteInto(page, text);
  await page.waitForSelector('#summary[data-checked="true"]', { timeout: 10000 });
}

/** Open search with Ctrl-F, find `query`, close the panel: the match stays selected. */
async function findInEditor(query) {
  await page.locator(`${CM} .cm-line`).first().click();
  await page.keyboard.press('Control+f');
  await page.waitForSelector(`${CM} .cm-search input[name="search"]`, { timeout: 5000 });
  expect(await page.evaluate(() => document.activeElement.name === 'search'), 'the search field has the focus');
  await page.keyboard.type(query);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${CM} .cm-searchMatch-selected`, { timeout: 5000 });
  await page.keyboard.press('Escape');
  await page.waitForSelector(`${CM} .cm-search`, { state: 'detached', timeout: 5000 });
}

/** The texts of the rendered elements matching `selector` inside the editor, by line number. */
async function byLine(selector) {
  return page.evaluate((sel) => {
    const gutter = [...document.querySelectorAll('#editor .cm-lineNumbers .cm-gutterElement')]
      .filter((g) => /^\d+$/.test(g.textContent));
    const out = {};
    for (const el of document.querySelectorAll(`#editor ${sel}`)) {
      const b = el.getBoundingClientRect();
      const mid = (b.top + b.bottom) / 2;
      const g = gutter.find((x) => {
        const r = x.getBoundingClientRect();
        return r.top <= mid && mid < r.bottom;
      });
      const line = g ? Number(g.textContent) : 0;
      out[line] = (out[line] || '') + el.textContent;
    }
    return out;
  }, selector);
}

async function tokenTexts(cls) {
  return page.locator(`${CM} .cm-content .${cls}`).allTextContents();
}

/** The texts of the tokens of class `cls` once all of `wanted` are among them (or after 15 s):
 * the highlighter works in slices, and on a busy machine the later lines come later. */
async function tokensWith(cls, wanted) {
  await page
    .waitForFunction(
      ([sel, want]) => {
        const got = [...document.querySelectorAll(sel)].map((e) => e.textContent);
        return want.every((w) => got.includes(w));
      },
      [`${CM} .cm-content .${cls}`, wanted],
      { timeout: 15000 },
    )
    .catch(() => {});
  return tokenTexts(cls);
}

await check('the editor is CodeMirror with line numbers and TLA+ token classes', async () => {
  await openTask('spin');
  const text = await editorText();
  expect(text.startsWith('---- MODULE spin ----'), `template ${text.slice(0, 40)}`);
  const numbers = await page.locator(`${CM} .cm-lineNumbers .cm-gutterElement`).allTextContents();
  for (const n of ['1', '2', '3', '10']) expect(numbers.includes(n), `line number ${n} in ${numbers}`);
  expect((await tokenTexts('tok-heading')).includes('---- MODULE spin ----'), 'module header');
  const keywords = await tokensWith('tok-keyword', ['EXTENDS', 'VARIABLES', 'UNCHANGED']);
  for (const k of ['EXTENDS', 'VARIABLES', 'UNCHANGED']) expect(keywords.includes(k), `keyword ${k} in ${keywords}`);
  const operators = await tokensWith('tok-operator', ['==', '\\E', '\\in', '\\/']);
  for (const o of ['==', '\\E', '\\in', '\\/']) expect(operators.includes(o), `operator ${o} in ${operators}`);
  const definitions = await tokensWith('tok-definition', ['Init', 'Next', 'vars']);
  for (const d of ['Init', 'Next', 'vars']) expect(definitions.includes(d), `definition ${d} in ${definitions}`);
  expect((await tokenTexts('tok-comment')).some((c) => c.startsWith('\\* ')), 'line comments');
  expect((await tokenTexts('tok-bool')).includes('TRUE'), 'TRUE');
  await pasteModel(SPIN);
  await page.waitForSelector('#summary[data-status="clean"]', { timeout: 10000 });
  expect((await tokenTexts('tok-comment')).some((c) => c.startsWith('(***')), 'block comments');
  expect((await tokenTexts('tok-string')).includes('"idle"'), 'strings');
  expect((await page.locator(`${CM} .cm-lintRange`).count()) === 0, 'a clean model has no marks');
  await page.screenshot({ path: join(screenshots, 'editor.png'), fullPage: true });
});

await check('Ctrl-F opens search; typing one character breaks a definition; its line is underlined', async () => {
  await findInEditor(QUERY);
  // The match is selected: go to its start, walk to just after its `=`, type a second `=`.
  await page.keyboard.press('ArrowLeft');
  for (let i = 0; i < 'EXCEPT ![t] ='.length; i += 1) await page.keyboard.press('ArrowRight');
  await page.keyboard.type('=');
  expect((await editorText()) === SPIN_BROKEN, 'the edit made the broken model');
  await page.waitForSelector('#summary[data-status="errors"][data-checked="true"]', { timeout: 10000 });
  const rows = await page.locator('#diagnostics li.diagnostic.error').allTextContents();
  const row = rows.find((r) => r.startsWith(`${BROKEN_LINE}:${BROKEN_COLUMN} `));
  expect(row, `no diagnostic at ${BROKEN_LINE}:${BROKEN_COLUMN} in ${rows}`);
  await page.waitForSelector(`${CM} .cm-lintRange-error`, { timeout: 5000 });
  const marks = await byLine('.cm-lintRange-error');
  expect(marks[BROKEN_LINE] === '==', `marks by line ${JSON.stringify(marks)}; want "==" on ${BROKEN_LINE}`);
  const score = Number((await page.textContent('#score')).replace('syntax score ', ''));
  expect(score > 0 && score < 1, `partial syntax score ${score}`);
  await page.screenshot({ path: join(screenshots, 'editor-error.png'), fullPage: true });
});

await check('hovering the underline shows the diagnostic', async () => {
  const rows = await page.locator('#diagnostics li.diagnostic.error').allTextContents();
  const row = rows.find((r) => r.startsWith(`${BROKEN_LINE}:${BROKEN_COLUMN} `));
  const [, code, message] = row.match(/^\d+:\d+ (E\d{4}) (.*)$/);
  const box = await page.evaluate((line) => {
    const gutter = [...document.querySelectorAll('#editor .cm-lineNumbers .cm-gutterElement')];
    const g = gutter.find((x) => x.textContent === String(line)).getBoundingClientRect();
    const el = [...document.querySelectorAll('#editor .cm-lintRange-error')].find((e) => {
      const b = e.getBoundingClientRect();
      return b.top < g.bottom && b.bottom > g.top;
    });
    const b = el.getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
  }, BROKEN_LINE);
  await page.mouse.move(box.x, box.y - 30);
  await page.mouse.move(box.x, box.y, { steps: 3 });
  await page.waitForSelector('.cm-tooltip-lint', { timeout: 5000 });
  const tip = await page.textContent('.cm-tooltip-lint');
  expect(tip.includes(message), `tooltip "${tip}" lacks "${message}"`);
  expect(tip.includes(code), `tooltip "${tip}" lacks ${code}`);
  await page.screenshot({ path: join(screenshots, 'editor-hover.png') });
  await page.mouse.move(5, 5);
});

await check('grading the broken model: partial syntax score, the other stages gated', async () => {
  await page.click('#grade');
  await page.waitForSelector('#grade-status[data-state="done"], #grade-status[data-state="failed"]', { timeout: 180000 });
  expect((await page.getAttribute('#grade-status', 'data-state')) === 'done', await page.textContent('#grade-status'));
  const stage = (k) => `#scorecard .stage[data-stage="${k}"]`;
  const syntax = Number(await page.getAttribute(`${stage('syntax')} .score`, 'data-score'));
  expect(syntax > 0 && syntax < 1 && (await page.getAttribute(stage('syntax'), 'data-status')) === 'ran', `syntax ${syntax}`);
  const summary = Number((await page.textContent('#score')).replace('syntax score ', ''));
  expect(Math.abs(summary - syntax) < 1e-4, `the editor's score ${summary} is the grader's ${syntax}`);
  for (const k of ['runtime', 'conformance', 'invariants']) {
    const status = await page.getAttribute(stage(k), 'data-status');
    const score = Number(await page.getAttribute(`${stage(k)} .score`, 'data-score'));
    expect(status === 'skipped' && score === 0, `${k}: ${status} ${score}`);
    expect((await page.textContent(`${stage(k)} .status`)).includes('gated'), `${k} shows as gated`);
  }
});

await check('undo restores the model and the marks go away', async () => {
  await page.locator(`${CM} .cm-line`).first().click();
  await page.keyboard.press('Control+z');
  expect((await editorText()) === SPIN, 'undo restored the reference text');
  await page.waitForSelector('#summary[data-status="clean"][data-checked="true"]', { timeout: 10000 });
  await page.waitForSelector(`${CM} .cm-lintRange-error`, { state: 'detached', timeout: 5000 });
  await page.keyboard.press('Control+y');
  expect((await editorText()) === SPIN_BROKEN, 'redo');
  await page.keyboard.press('Control+z');
  await page.waitForSelector('#summary[data-status="clean"][data-checked="true"]', { timeout: 10000 });
});

await check('the cursor at a bracket highlights its match', async () => {
  await findInEditor('[pc EXCEPT ![t] = "idle"]');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector(`${CM} .cm-matchingBracket`, { timeout: 5000 });
  const matched = await page.locator(`${CM} .cm-matchingBracket`).allTextContents();
  expect(JSON.stringify(matched) === '["[","]"]', `matched ${matched}`);
});

await check('marks fall on the right characters after multi-byte text (UTF-8 spans, UTF-16 editor)', async () => {
  const text = '---- MODULE spin ----\nVARIABLE x\n\\* naïve ∧ 𝔸 ≜ 🙂\nInit == x = "é𝔸"\nNext == x\' == x\n====\n';
  await pasteModel(text);
  await page.waitForSelector('#summary[data-status="errors"]', { timeout: 10000 });
  const rows = await page.locator('#diagnostics li.diagnostic.error').allTextContents();
  expect(rows.length > 0 && rows[0].startsWith('5:'), `rows ${rows}`);
  await page.waitForSelector(`${CM} .cm-lintRange-error`, { timeout: 5000 });
  const marks = await byLine('.cm-lintRange-error');
  expect(Object.keys(marks).join() === '5' && marks[5].trim() !== '', `marks ${JSON.stringify(marks)}`);
  // The mark starts at the column the list gives (columns count characters).
  const column = Number(rows[0].split(' ')[0].split(':')[1]);
  const line5 = [...text.split('\n')[4]];
  expect(line5.slice(column - 1).join('').startsWith(marks[5]), `mark "${marks[5]}" at column ${column} of "${line5.join('')}"`);
});

await check('"Reset to template" replaces the text in the editor and it is kept per task', async () => {
  await page.click('#reset');
  await page.waitForSelector('#summary[data-status="clean"][data-checked="true"]', { timeout: 10000 });
  const text = await editorText();
  expect(text.startsWith('---- MODULE spin ----') && text.includes('TryLock(t) =='), 'template');
  await page.locator(`${CM} .cm-line`).first().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\\* kept');
  const typed = await editorText();
  expect(typed.endsWith('\\* kept'), `typed at the end: ${JSON.stringify(typed.slice(-20))}`);
  await page.waitForSelector('#summary[data-checked="true"]', { timeout: 10000 });
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector(`${CM} .cm-content`, { timeout: 10000 });
  expect((await editorText()) === typed, 'the text survives a reload');
  await page.click('#reset');
});

await check('without the editor script the page falls back to a textarea that still checks', async () => {
  const other = await context.newPage();
  await other.route('**/editor-*.js', (r) => r.abort());
  await other.goto(url, { waitUntil: 'load' });
  await other.click('.task-card[data-task="spin"] a');
  await other.waitForSelector('#editor[data-kind="textarea"] textarea#editor-text', { timeout: 10000 });
  expect((await other.inputValue('#editor-text')).startsWith('---- MODULE spin ----'), 'template in the textarea');
  await other.fill('#editor-text', SPIN_BROKEN);
  await other.waitForSelector('#summary[data-status="errors"][data-checked="true"]', { timeout: 10000 });
  const rows = await other.locator('#diagnostics li.diagnostic.error').allTextContents();
  expect(rows.some((r) => r.startsWith(`${BROKEN_LINE}:${BROKEN_COLUMN} `)), `rows ${rows}`);
  await other.click('#reset');
  await other.waitForSelector('#summary[data-status="clean"][data-checked="true"]', { timeout: 10000 });
  await other.close();
});

await check('the page raised no error', async () => {
  expect(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await context.close();
finish();

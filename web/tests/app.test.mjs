// Browser test of the web app: node + playwright-core driving the system Chromium.
// Environment (set by `cargo xtask test`): SYSMO_URL (the app, served on 127.0.0.1),
// CHROMIUM (browser binary), USER_DATA_DIR (a fresh profile), SCREENSHOT_DIR.
// Prints "N passed, M failed" and exits non-zero when a check fails.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = process.env.SYSMO_URL;
if (!url) {
  console.error('SYSMO_URL is not set (run through `cargo xtask test`)');
  process.exit(2);
}
const base = new URL(url);
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const userDataDir = process.env.USER_DATA_DIR || mkdtempSync(join(tmpdir(), 'sysmo-chromium-'));
const screenshots = process.env.SCREENSHOT_DIR || 'target/screenshots';
mkdirSync(screenshots, { recursive: true });

const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync',
  ],
});

// Every request the page makes, to prove nothing leaves 127.0.0.1.
const requests = [];
context.on('request', (r) => requests.push(r.url()));
const pageErrors = [];
const page = context.pages()[0] ?? (await context.newPage());
page.on('pageerror', (e) => pageErrors.push(String(e)));

let passed = 0;
let failed = 0;
async function check(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}\n     ${String(e && e.stack || e).split('\n').join('\n     ')}`);
  }
}
function expect(cond, msg) {
  if (!cond) throw new Error(msg);
}

const BROKEN = [
  '---- MODULE Broken ----',
  'EXTENDS Naturals',
  'VARIABLE x',
  'Init == x = 0',
  "Next == x' = x +",
  'Inv == x >= 0',
  '====',
  '',
].join('\n');

await check('the page loads and is titled "SysMo Playground"', async () => {
  const resp = await page.goto(url, { waitUntil: 'load' });
  expect(resp && resp.ok(), `status ${resp && resp.status()}`);
  expect((await page.title()) === 'SysMo Playground', `title is ${await page.title()}`);
  await page.waitForSelector('h1', { timeout: 20000 });
  expect((await page.textContent('h1')) === 'SysMo Playground', 'heading');
});

await check('the sample module is clean with syntax score 1', async () => {
  await page.waitForSelector('#summary[data-status="clean"]', { timeout: 20000 });
  const score = await page.textContent('#score');
  expect(score === 'syntax score 1.0000', `score reads "${score}"`);
  expect((await page.locator('#diagnostics li').count()) === 0, 'no diagnostics expected');
  const text = await page.inputValue('#editor');
  expect(text.includes('MODULE HourClock'), 'the editor holds the sample module');
  await page.screenshot({ path: join(screenshots, 'editor-clean.png'), fullPage: true });
});

await check('typing a module with an error shows its diagnostic', async () => {
  await page.fill('#editor', BROKEN);
  await page.waitForSelector('#summary[data-status="errors"]', { timeout: 10000 });
  const rows = await page.locator('#diagnostics li.diagnostic.error').allTextContents();
  expect(rows.length > 0, 'no error row');
  expect(/^E\d{4} \d+:\d+ \S/.test(rows[0]), `row reads "${rows[0]}"`);
  const line = Number(rows[0].split(' ')[1].split(':')[0]);
  expect(line >= 5 && line <= 7, `the first error is on line ${line}, expected near the dangling +`);
  const score = Number((await page.textContent('#score')).replace('syntax score ', ''));
  expect(score < 1, `score ${score} should be below 1`);
  await page.screenshot({ path: join(screenshots, 'editor-error.png'), fullPage: true });
});

await check('fixing the module clears the diagnostics', async () => {
  await page.fill('#editor', BROKEN.replace("x' = x +", "x' = x + 1"));
  await page.waitForSelector('#summary[data-status="clean"]', { timeout: 10000 });
  expect((await page.locator('#diagnostics li').count()) === 0, 'diagnostics remain');
});

await check('no request left 127.0.0.1 and the page raised no error', async () => {
  expect(requests.length > 0, 'no request recorded at all');
  const outside = requests.filter((r) => {
    const u = new URL(r);
    if (u.protocol === 'data:' || u.protocol === 'blob:') return false;
    return u.hostname !== '127.0.0.1' || u.port !== base.port;
  });
  expect(outside.length === 0, `requests outside the app: ${outside.join(', ')}`);
  expect(requests.some((r) => r.endsWith('.wasm')), `the wasm module was not fetched: ${requests.join(', ')}`);
  expect(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
});

await context.close();
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

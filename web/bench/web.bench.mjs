// The browser side of `cargo xtask bench web` (a benchmark, not a test: it lives outside
// web/tests). Environment: SYSMO_URL (the app, served on 127.0.0.1), CHROMIUM, BENCH_RUNS
// (fresh page loads), BENCH_CHECK_RUNS, BENCH_MODEL and BENCH_CFG (files to model-check in the
// grading worker), BENCH_OUT (where to write the figures as JSON).
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';

const url = process.env.SYSMO_URL;
const runs = Number(process.env.BENCH_RUNS || 5);
const checkRuns = Number(process.env.BENCH_CHECK_RUNS || 3);
const model = readFileSync(process.env.BENCH_MODEL, 'utf8');
const cfg = readFileSync(process.env.BENCH_CFG, 'utf8');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync',
  ],
});

// Navigation start (performance.timeOrigin) to the first visible task card, read in the page at
// the animation frame the card is first seen.
const loads = [];
for (let i = 0; i < runs; i += 1) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  const ms = await (await page.waitForFunction(() => {
    const card = document.querySelector('.task-card');
    return card && card.checkVisibility() ? performance.now() : false;
  }, null, { polling: 'raf', timeout: 60000 })).jsonValue();
  loads.push(ms);
  console.log(`load ${i + 1}/${runs}: gallery usable after ${ms.toFixed(0)} ms`);
  await context.close();
}

// Model checking in the grading worker: a fresh worker per run; the worker times the check.
const checks = [];
const context = await browser.newContext();
const page = await context.newPage();
await page.goto(url, { waitUntil: 'load' });
for (let i = 0; i < checkRuns; i += 1) {
  const reply = await page.evaluate(({ model, cfg, run }) => new Promise((resolve, reject) => {
    const w = new Worker('./worker_loader.js');
    w.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
    w.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.kind === 'ready') {
        w.postMessage(JSON.stringify({ kind: 'check', run, model, cfg }));
      } else if (m.kind === 'checked') {
        w.terminate();
        resolve(m);
      }
    };
  }), { model, cfg, run: i + 1 });
  if (reply.result === 'error') throw new Error(`the worker could not check the model: ${reply.message}`);
  console.log(`worker check ${i + 1}/${checkRuns}: ${reply.result}, ${reply.distinct_states} distinct states in ${reply.elapsed_ms.toFixed(0)} ms`);
  checks.push(reply);
}
await browser.close();
writeFileSync(process.env.BENCH_OUT, JSON.stringify({ loads_ms: loads, checks }, null, 1));

// What every browser test file shares: the Chromium flags, and named checks counted into the
// "N passed, M failed" line that `cargo xtask test browser` reads. Not a test itself.

/**
 * Flags for the system Chromium: headless, no connection but the ones a page makes, and no
 * host name resolves (so no request of any test can leave 127.0.0.1).
 */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** `check(name, body)` runs one named check; `finish()` prints the count as `label: …` and exits. */
export function checks(label) {
  let passed = 0;
  let failed = 0;
  async function check(name, body) {
    try {
      await body();
      passed += 1;
      console.log(`ok   ${name}`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${name}\n     ${String((e && e.stack) || e).split('\n').join('\n     ')}`);
    }
  }
  function finish() {
    console.log(`${label}: ${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
  }
  return { check, finish };
}

/** Throw `msg` unless `cond`. */
export function expect(cond, msg) {
  if (!cond) throw new Error(msg);
}

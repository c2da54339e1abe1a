// Driving the model editor (CodeMirror, `#editor[data-kind="codemirror"]`) as a user does, for
// the browser tests. This folder is not a test: `cargo xtask test browser` runs web/tests/*.mjs.

/** Wait until the editor of the open task page is ready. */
export async function editorReady(page, timeout = 20000) {
  await page.waitForSelector('#editor[data-kind="codemirror"] .cm-content', { timeout });
}

/** The editor's text. */
export function editorText(page) {
  return page.evaluate(() => window.sysmoEditor.getText());
}

/** Replace the model: click into the editor, select all, paste `text`. */
export async function pasteModel(page, text) {
  await editorReady(page);
  await page.locator('#editor[data-kind="codemirror"] .cm-line').first().click();
  await page.keyboard.press('Control+A');
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    const content = document.querySelector('#editor .cm-content');
    content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
  if ((await editorText(page)) !== text) {
    throw new Error('the editor does not hold the pasted text');
  }
}

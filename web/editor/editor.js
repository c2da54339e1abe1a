// The model editor of the task page: CodeMirror 6 with TLA+ highlighting, line numbers, bracket
// matching, search, undo history and the checker's diagnostics underlined at their spans.
// Bundled into one script by esbuild (Trunk's pre_build hook) and exposed as `window.sysmoEditor`,
// which the Rust page drives (web/src/code_editor.rs); without it the page keeps a textarea.
import { EditorState, Compartment } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, drawSelection, rectangularSelection, crosshairCursor,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, syntaxHighlighting, indentOnInput } from '@codemirror/language';
import { searchKeymap, highlightSelectionMatches, search } from '@codemirror/search';
import { linter, lintGutter, lintKeymap, setDiagnostics as lintSet } from '@codemirror/lint';
import { classHighlighter } from '@lezer/highlight';
import { tlaLanguage } from './tla.js';

const theme = EditorView.theme({
  '&': { fontSize: '13px', border: '1px solid #d9dce1', borderRadius: '4px', backgroundColor: '#fff', maxHeight: '60vh' },
  '&.cm-focused': { outline: '2px solid #1f5fbf33' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', lineHeight: '1.45', overflow: 'auto' },
  '.cm-content, .cm-gutter': { minHeight: '10rem' },
  '.cm-gutters': { backgroundColor: '#f5f6f8', color: '#9aa0a6', borderRight: '1px solid #eceef1' },
  '.tok-keyword': { color: '#7a1fa2', fontWeight: '600' },
  '.tok-operator': { color: '#b0450b' },
  '.tok-string': { color: '#0a7a28' },
  '.tok-number, .tok-bool': { color: '#1750a8' },
  '.tok-comment': { color: '#6a737d', fontStyle: 'italic' },
  '.tok-heading': { color: '#1d1d1f', fontWeight: '700' },
  '.tok-meta': { color: '#9aa0a6' },
  '.tok-definition': { color: '#1f5fbf', fontWeight: '600' },
  '.cm-diagnosticSource': { fontFamily: 'ui-monospace, monospace' },
  '.cm-sysmo-hints': { margin: '.2em 0 0', paddingLeft: '1.2em', color: '#5f6368' },
});

let current = null;

function extensions(onChange) {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    syntaxHighlighting(classHighlighter),
    bracketMatching(),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    linter(null),
    lintGutter(),
    keymap.of([...defaultKeymap, ...searchKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
    tlaLanguage,
    theme,
    // Long lines wrap: the panel never scrolls sideways, so no line's start is ever hidden.
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': 'TLA+ model', spellcheck: 'false' }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged && onChange) onChange(u.state.doc.toString());
    }),
  ];
}

function view() {
  if (!current) throw new Error('the editor is not created');
  return current;
}

/** Make an editor in `parent` holding `text`; `onChange(text)` runs after every edit. */
function create(parent, text, onChange) {
  destroy();
  current = new EditorView({ state: EditorState.create({ doc: text, extensions: extensions(onChange) }), parent });
  return current;
}

/** Replace the whole text (one undoable edit; `onChange` runs as for typing). */
function setText(text) {
  const v = view();
  if (v.state.doc.toString() === text) return;
  v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text }, userEvent: 'input.replace' });
}

function getText() {
  return view().state.doc.toString();
}

/**
 * Underline diagnostics: `list` is an array (or its JSON) of {from, to, severity, code, message}
 * with `from`/`to` in UTF-16 code units of the text. When `forText` is given and the editor no
 * longer holds that text, the list is stale and is ignored (a newer check will follow).
 */
function setDiagnostics(list, forText) {
  const v = view();
  const doc = v.state.doc;
  if (typeof forText === 'string' && doc.toString() !== forText) return false;
  const items = typeof list === 'string' ? JSON.parse(list) : list;
  const len = doc.length;
  const diagnostics = items.map((d) => {
    const from = Math.max(0, Math.min(len, d.from | 0));
    const to = Math.max(from, Math.min(len, d.to | 0));
    const severity = ['error', 'warning', 'info', 'hint'].includes(d.severity) ? d.severity : 'error';
    const out = { from, to, severity, source: d.code, message: String(d.message) };
    const hints = Array.isArray(d.hints) ? d.hints.map(String) : [];
    if (hints.length > 0) out.renderMessage = () => renderMessage(out.message, hints);
    return out;
  });
  v.dispatch(lintSet(v.state, diagnostics));
  return true;
}

/** The message with its hints under it, as the hover tooltip shows them. */
function renderMessage(message, hints) {
  const box = document.createElement('div');
  box.className = 'cm-sysmo-message';
  box.append(message);
  const list = document.createElement('ul');
  list.className = 'cm-sysmo-hints';
  for (const h of hints) {
    const item = document.createElement('li');
    item.textContent = `help: ${h}`;
    list.append(item);
  }
  box.append(list);
  return box;
}

function destroy() {
  if (current) {
    current.destroy();
    current = null;
  }
}

window.sysmoEditor = {
  create, setText, getText, setDiagnostics, destroy,
  get view() { return current; },
};

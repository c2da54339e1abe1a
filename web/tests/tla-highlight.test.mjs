// The TLA+ tokenizer of the editor (web/editor/tla.js), run in node on lines of TLA+: each
// token's text and the highlighting tag it gets. Prints "N passed, M failed".
import { StringStream } from '@codemirror/language';
import { tlaStreamParser } from '../editor/tla.js';
import { checks } from './lib/checks.mjs';

const { check, finish } = checks('tla highlighting');

/** [text, tag] for every non-blank token of `lines`, the tokenizer's state carried across lines. */
function tokens(lines) {
  const state = tlaStreamParser.startState(2);
  const out = [];
  for (const line of lines) {
    const stream = new StringStream(line, 4, 2);
    while (!stream.eol()) {
      const tag = tlaStreamParser.token(stream, state);
      if (stream.pos === stream.start) throw new Error(`no progress at ${stream.pos} in ${JSON.stringify(line)}`);
      const text = line.slice(stream.start, stream.pos);
      if (text.trim() !== '') out.push([text, tag]);
      stream.start = stream.pos;
    }
  }
  return out;
}

function expectTokens(lines, want) {
  const got = tokens(lines);
  const show = (t) => t.map(([x, k]) => `${x}:${k}`).join('  ');
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`tokens differ\n got  ${show(got)}\n want ${show(want)}`);
  }
}

await check('module header and end lines are headings; separators are meta', () => {
  expectTokens(['---- MODULE spin ----', '-----', '===='], [
    ['---- MODULE spin ----', 'heading'], ['-----', 'meta'], ['====', 'heading'],
  ]);
});

await check('keywords, a definition name, booleans and numbers', () => {
  expectTokens(['EXTENDS Naturals', 'Init == x = 0 /\\ y = TRUE'], [
    ['EXTENDS', 'keyword'], ['Naturals', 'variableName'],
    ['Init', 'variableName.definition'], ['==', 'operator'], ['x', 'variableName'], ['=', 'operator'],
    ['0', 'number'], ['/\\', 'operator'], ['y', 'variableName'], ['=', 'operator'], ['TRUE', 'bool'],
  ]);
});

await check('a definition with parameters; its uses are plain names', () => {
  expectTokens(['TryLock(t) == Next(t)'], [
    ['TryLock', 'variableName.definition'], ['(', 'paren'], ['t', 'variableName'], [')', 'paren'],
    ['==', 'operator'], ['Next', 'variableName'], ['(', 'paren'], ['t', 'variableName'], [')', 'paren'],
  ]);
});

await check('the logic and temporal operators', () => {
  expectTokens(["\\A t \\in T : x' = x \\/ [][Next]_v => <>P ~> Q <=> R"], [
    ['\\A', 'operator'], ['t', 'variableName'], ['\\in', 'operator'], ['T', 'variableName'],
    [':', 'operator'], ['x', 'variableName'], ["'", 'operator'], ['=', 'operator'], ['x', 'variableName'],
    ['\\/', 'operator'], ['[]', 'operator'], ['[', 'squareBracket'], ['Next', 'variableName'],
    [']', 'squareBracket'], ['_v', 'variableName'], ['=>', 'operator'], ['<>', 'operator'],
    ['P', 'variableName'], ['~>', 'operator'], ['Q', 'variableName'], ['<=>', 'operator'], ['R', 'variableName'],
  ]);
});

await check('\\E, set operators, tuples, function maps and EXCEPT', () => {
  expectTokens(['\\E s \\in S \\cup {1} : f = [s EXCEPT ![1] = <<2, 3>>] /\\ g = [i \\in S |-> i]'], [
    ['\\E', 'operator'], ['s', 'variableName'], ['\\in', 'operator'], ['S', 'variableName'],
    ['\\cup', 'operator'], ['{', 'brace'], ['1', 'number'], ['}', 'brace'], [':', 'operator'],
    ['f', 'variableName'], ['=', 'operator'], ['[', 'squareBracket'], ['s', 'variableName'],
    ['EXCEPT', 'keyword'], ['!', 'operator'], ['[', 'squareBracket'], ['1', 'number'],
    [']', 'squareBracket'], ['=', 'operator'], ['<<', 'bracket'], ['2', 'number'], [',', 'punctuation'],
    ['3', 'number'], ['>>', 'bracket'], [']', 'squareBracket'], ['/\\', 'operator'], ['g', 'variableName'],
    ['=', 'operator'], ['[', 'squareBracket'], ['i', 'variableName'], ['\\in', 'operator'],
    ['S', 'variableName'], ['|->', 'operator'], ['i', 'variableName'], [']', 'squareBracket'],
  ]);
});

await check('fairness keywords keep their subscript', () => {
  expectTokens(['WF_vars(Next) /\\ SF_vars(A)'], [
    ['WF_', 'keyword'], ['vars', 'variableName'], ['(', 'paren'], ['Next', 'variableName'], [')', 'paren'],
    ['/\\', 'operator'], ['SF_', 'keyword'], ['vars', 'variableName'], ['(', 'paren'], ['A', 'variableName'], [')', 'paren'],
  ]);
});

await check('strings with escaped quotes, and number bases', () => {
  expectTokens(['x = "a \\" b" + \\b101 + \\hFF + 3.25'], [
    ['x', 'variableName'], ['=', 'operator'], ['"a \\" b"', 'string'], ['+', 'operator'],
    ['\\b101', 'number'], ['+', 'operator'], ['\\hFF', 'number'], ['+', 'operator'], ['3.25', 'number'],
  ]);
});

await check('line comments run to the end of the line', () => {
  expectTokens(['x == 1 \\* the (* rest "is" a comment'], [
    ['x', 'variableName.definition'], ['==', 'operator'], ['1', 'number'],
    ['\\* the (* rest "is" a comment', 'lineComment'],
  ]);
});

await check('block comments span lines and nest', () => {
  // Without nesting, the first `*)` would end the comment and `still inside` would be code.
  expectTokens(['a (* one (* two *)', 'still inside', 'end *) b'], [
    ['a', 'variableName'], ['(* one (* two *)', 'blockComment'],
    ['still inside', 'blockComment'],
    ['end *)', 'blockComment'], ['b', 'variableName'],
  ]);
});

await check('a block comment closed on its line leaves the rest as code', () => {
  expectTokens(['(* note *) VARIABLE x'], [
    ['(* note *)', 'blockComment'], ['VARIABLE', 'keyword'], ['x', 'variableName'],
  ]);
});

await check('every tag the tokenizer returns is a known highlighting tag', async () => {
  const { tags } = await import('@lezer/highlight');
  const lines = ['---- MODULE M ----', 'EXTENDS Naturals', 'VARIABLE x', '(* c *) \\* d',
    'Init == x = "s" /\\ TRUE', "Next == \\E i \\in 1..3 : x' = <<i>>", '===='];
  for (const [, tag] of tokens(lines)) {
    for (const part of tag.split('.')) {
      if (!(part in tags)) throw new Error(`unknown tag ${part}`);
    }
  }
});

finish();

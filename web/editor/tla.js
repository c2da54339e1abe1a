// TLA+ highlighting for the editor: a line-by-line tokenizer (a CodeMirror stream parser).
// Token names are @lezer/highlight tags, so the editor's class highlighter gives every token a
// `tok-*` class (tok-keyword, tok-operator, tok-comment, ...).
import { StreamLanguage } from '@codemirror/language';

const KEYWORDS = new Set([
  'MODULE', 'EXTENDS', 'CONSTANT', 'CONSTANTS', 'VARIABLE', 'VARIABLES', 'ASSUME', 'ASSUMPTION',
  'AXIOM', 'THEOREM', 'LEMMA', 'PROPOSITION', 'COROLLARY', 'INSTANCE', 'WITH', 'LOCAL',
  'RECURSIVE', 'LET', 'IN', 'IF', 'THEN', 'ELSE', 'CASE', 'OTHER', 'CHOOSE', 'EXCEPT', 'DOMAIN',
  'SUBSET', 'UNION', 'ENABLED', 'UNCHANGED', 'LAMBDA', 'PROOF', 'BY', 'OBVIOUS', 'OMITTED', 'QED',
  'DEFINE', 'HIDE', 'USE', 'DEF', 'DEFS', 'NEW', 'ACTION', 'STATE', 'TEMPORAL', 'PICK', 'SUFFICES',
  'HAVE', 'TAKE', 'WITNESS', 'ONLY', 'PROVE', 'ASSUMES', 'PROVES', 'STRING',
]);
const CONSTANTS = new Set(['TRUE', 'FALSE', 'BOOLEAN']);

// Longest first, so `<=>` wins over `<=` and `=>`, `\/` over `\`.
const OPERATOR = /^(?:-\+->|<=>|::=|\|->|=>|~>|->|<-|==|\/=|=<|<=|>=|\/\\|\\\/|\[\]|<>|\.\.\.?|:>|@@|\+\+|\*\*|\^\^|\|\||\|-|[=<>#~+\-*/%^|&:'!@$?.])/;
// \A \E \AA \EE \in \notin \cup \X \o ... and the number bases \b \o \h when digits follow.
const BACKSLASH_WORD = /^\\[A-Za-z]+/;
const NUMBER = /^(?:\\[bB][01]+|\\[oO][0-7]+|\\[hH][0-9a-fA-F]+|\d+(?:\.\d+)?)/;

/** Continue a block comment; `(* *)` nest in TLA+. */
function blockComment(stream, state) {
  while (!stream.eol()) {
    if (stream.match('(*')) {
      state.depth += 1;
    } else if (stream.match('*)')) {
      state.depth -= 1;
      if (state.depth === 0) break;
    } else {
      stream.next();
    }
  }
  return 'blockComment';
}

export const tlaStreamParser = {
  name: 'tla',
  startState: () => ({ depth: 0 }),
  copyState: (s) => ({ depth: s.depth }),
  token(stream, state) {
    if (state.depth > 0) return blockComment(stream, state);
    if (stream.eatSpace()) return null;
    // `---- MODULE Name ----` and the closing `====` line.
    if (stream.match(/^-{4,}\s*MODULE\s+\w+\s*-{4,}/) || stream.match(/^={4,}/)) return 'heading';
    if (stream.match(/^-{4,}/)) return 'meta';
    if (stream.match('\\*')) {
      stream.skipToEnd();
      return 'lineComment';
    }
    if (stream.match('(*')) {
      state.depth = 1;
      return blockComment(stream, state);
    }
    if (stream.peek() === '"') {
      stream.next();
      let escaped = false;
      for (let c = stream.next(); c !== undefined; c = stream.next()) {
        if (c === '"' && !escaped) break;
        escaped = !escaped && c === '\\';
      }
      return 'string';
    }
    if (stream.match(NUMBER)) return 'number';
    if (stream.match(/^(?:WF|SF)_/)) return 'keyword';
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (word) {
      const w = word[0];
      if (KEYWORDS.has(w)) return 'keyword';
      if (CONSTANTS.has(w)) return 'bool';
      // A name at the start of a line followed by its parameters and `==` is being defined.
      if (stream.start === 0 && /^\s*(?:\([^)]*\)|\[[^\]]*\])?\s*==(?!=)/.test(stream.string.slice(stream.pos))) {
        return 'variableName.definition';
      }
      return 'variableName';
    }
    if (stream.match(BACKSLASH_WORD)) return 'operator';
    if (stream.match('<<') || stream.match('>>')) return 'bracket';
    if (stream.match(OPERATOR)) return 'operator';
    const c = stream.next();
    if ('()'.includes(c)) return 'paren';
    if ('[]'.includes(c)) return 'squareBracket';
    if ('{}'.includes(c)) return 'brace';
    if (',;'.includes(c)) return 'punctuation';
    return null;
  },
  languageData: {
    commentTokens: { line: '\\*', block: { open: '(*', close: '*)' } },
  },
};

export const tlaLanguage = StreamLanguage.define(tlaStreamParser);

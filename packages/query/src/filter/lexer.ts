import { BadRequestError } from '@patchbay/contracts';

/**
 * Tokens of the `filter` grammar. `word` is a bare run of characters (attribute, operator, `and`,
 * bare value); `string` is a quoted value with its escapes already resolved.
 * `pos` is the 1-based character where the token starts, for error messages.
 */
export type Token =
  { kind: 'word' | 'string'; text: string; pos: number } | { kind: '(' | ')' | ','; text: string; pos: number };

/** Characters that end a bare word. */
const DELIMITERS = new Set(['(', ')', ',', '"', "'"]);
const isSpace = (c: string): boolean => /\s/.test(c);

/** A 400 naming `filter`; every syntax and meaning error of the grammar goes through it. */
export function filterError(message: string): BadRequestError {
  return BadRequestError.field('filter', message);
}

/**
 * Splits a filter string into tokens.
 *
 * Quoted strings take `'` or `"`. Inside them `\\`, `\"` and `\'` stand for the character itself;
 * any other backslash is kept as written, so a `like` pattern can still escape its wildcards
 * (`"100\%"` reaches the pattern as `100\%`, a literal percent sign) — the two layers of
 * escaping PostgreSQL users know from `LIKE`.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: c, text: c, pos: i + 1 });
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const [text, end] = readQuoted(input, i);
      tokens.push({ kind: 'string', text, pos: i + 1 });
      i = end;
      continue;
    }
    const start = i;
    while (i < input.length && !isSpace(input[i]) && !DELIMITERS.has(input[i])) i++;
    tokens.push({ kind: 'word', text: input.slice(start, i), pos: start + 1 });
  }
  return tokens;
}

/** Reads the string opened at `start`; returns its text and the index after the closing quote. */
function readQuoted(input: string, start: number): [string, number] {
  const quote = input[start];
  let text = '';
  let i = start + 1;
  while (i < input.length) {
    const c = input[i];
    if (c === quote) return [text, i + 1];
    if (c === '\\' && i + 1 < input.length) {
      const next = input[i + 1];
      text += next === '\\' || next === '"' || next === "'" ? next : c + next;
      i += 2;
      continue;
    }
    text += c;
    i++;
  }
  throw filterError(`unterminated string starting at character ${start + 1}`);
}

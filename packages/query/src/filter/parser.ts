import { filterError, tokenize, type Token } from './lexer';

export const OPERATORS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'like', 'ilike', 'in', 'notin', 'bit'] as const;
export type Operator = (typeof OPERATORS)[number];

/**
 * A value as written. Its meaning depends on the attribute's type, which the parser does not know:
 * `number_dst eq 4915112345` compares a string, `mcc eq 262` an integer. Only a bare (unquoted)
 * `null` is the null value; `"null"` is the four-letter string.
 */
export interface Literal {
  text: string;
  quoted: boolean;
  pos: number;
}

/** One `<attr> <op> <value>`; `values` has one element except for a parenthesised `in`/`notin` list. */
export interface Condition {
  attr: string;
  op: Operator;
  values: Literal[];
  pos: number;
}

/** A filter is a conjunction: every condition must hold. The empty filter matches everything. */
export type FilterAst = Condition[];

/**
 * When a client forgets to encode `+` in `2019-03-01T02:12:30+01:00`, it arrives as a space. A
 * zone-less date-time followed by exactly one space and `HH:MM` can mean nothing else here (the
 * grammar would otherwise need `and`), so the two words are joined back with `+`.
 */
const ZONELESS_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const BARE_OFFSET = /^\d{2}(:?\d{2})?$/;

/**
 * Bounds on one filter, checked before it is compiled or reaches a store (decisions §51): a long
 * conjunction costs every partner's queries (SQLite refuses expressions deeper than 1,000 terms,
 * and far fewer already slow the store for everyone). The size is counted in UTF-8 bytes.
 */
export const MAX_FILTER_CONDITIONS = 50;
export const MAX_FILTER_BYTES = 4096;

const describe = (t: Token | undefined): string => (t ? `'${t.text}' at character ${t.pos}` : 'end of filter');

/** Parses the `filter` query value; syntax errors are 400s naming `filter` and where they are. */
export function parseFilter(input: string): FilterAst {
  const bytes = Buffer.byteLength(input, 'utf8');
  if (bytes > MAX_FILTER_BYTES)
    throw filterError(`the filter is ${bytes} bytes long; at most ${MAX_FILTER_BYTES} are accepted`);
  const tokens = tokenize(input);
  let i = 0;
  const conditions: Condition[] = [];
  if (tokens.length === 0) return conditions;

  const literal = (): Literal => {
    const t = tokens[i];
    if (!t || (t.kind !== 'word' && t.kind !== 'string')) throw filterError(`expected a value, found ${describe(t)}`);
    i++;
    const next = tokens[i];
    if (
      t.kind === 'word' &&
      ZONELESS_DATETIME.test(t.text) &&
      next?.kind === 'word' &&
      BARE_OFFSET.test(next.text) &&
      next.pos === t.pos + t.text.length + 1
    ) {
      i++;
      return { text: `${t.text}+${next.text}`, quoted: false, pos: t.pos };
    }
    return { text: t.text, quoted: t.kind === 'string', pos: t.pos };
  };

  const list = (): Literal[] => {
    i++; // '('
    const values = [literal()];
    while (tokens[i]?.kind === ',') {
      i++;
      values.push(literal());
    }
    if (tokens[i]?.kind !== ')') throw filterError(`expected ',' or ')', found ${describe(tokens[i])}`);
    i++;
    return values;
  };

  for (;;) {
    const attr = tokens[i];
    if (!attr || attr.kind !== 'word') throw filterError(`expected an attribute name, found ${describe(attr)}`);
    i++;
    const opTok = tokens[i];
    if (!opTok || opTok.kind !== 'word')
      throw filterError(`expected an operator after '${attr.text}', found ${describe(opTok)}`);
    const op = OPERATORS.find((o) => o === opTok.text.toLowerCase());
    if (!op) {
      throw filterError(
        `unknown operator '${opTok.text}' at character ${opTok.pos}; expected one of ${OPERATORS.join(', ')}`,
      );
    }
    i++;
    const isList = op === 'in' || op === 'notin';
    const values = isList && tokens[i]?.kind === '(' ? list() : [literal()];
    conditions.push({ attr: attr.text, op, values, pos: attr.pos });
    if (conditions.length > MAX_FILTER_CONDITIONS)
      throw filterError(`a filter may join at most ${MAX_FILTER_CONDITIONS} conditions with 'and'`);
    const sep = tokens[i];
    if (!sep) return conditions;
    if (sep.kind === 'word' && sep.text.toLowerCase() === 'or')
      throw filterError(`'or' is not supported (character ${sep.pos}); conditions can only be joined by 'and'`);
    if (sep.kind !== 'word' || sep.text.toLowerCase() !== 'and')
      throw filterError(`expected 'and', found ${describe(sep)}`);
    i++;
    if (!tokens[i]) throw filterError(`expected a condition after 'and' at character ${sep.pos}`);
  }
}

import fc from 'fast-check';
import { BadRequestError } from '@patchbay/contracts';
import { defineListSpec, type FieldType } from '../src/fields';
import { compileFilter, compileFilterString, likeToRegex, parseInstant } from '../src/filter/compile';
import { parseFilter, type Condition, type Literal, type Operator } from '../src/filter/parser';

const spec = defineListSpec({
  fields: { name: 'string', sid: 'uuid', 'a.b': 'string', n: 'integer', x: 'number', ok: 'boolean', at: 'date' },
  defaultOrder: { field: 'name', dir: 'asc' },
  sidField: 'sid',
});

/** Characters that stress the lexer: quotes, backslashes, parentheses, commas, wildcards, spaces. */
const nasty = fc.constantFrom(
  'a',
  'B',
  'z',
  '0',
  '7',
  ' ',
  '\t',
  '"',
  "'",
  '\\',
  '(',
  ')',
  ',',
  '%',
  '_',
  '.',
  '*',
  '$',
  '^',
  '+',
  '-',
  ':',
  'é',
  '€',
  '\n',
);
const text = fc.string({ unit: nasty, maxLength: 12 });

// ---- values per type, as written in a filter (their text), plus how to print them ------------------

const pad2 = (n: number): string => String(n).padStart(2, '0');
/** A date instant written in one of the accepted forms (text), all denoting instants. */
const dateText = fc
  .tuple(
    fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
    fc.integer({ min: -14 * 60, max: 14 * 60 }),
    fc.constantFrom('z', 'offset', 'none', 'dateonly'),
  )
  .map(([d, offsetMin, form]) => formatInstant(d, offsetMin, form));

function formatInstant(d: Date, offsetMin: number, form: string): string {
  if (form === 'dateonly') return d.toISOString().slice(0, 10);
  if (form === 'z') return d.toISOString();
  if (form === 'none') return d.toISOString().slice(0, -1);
  const local = new Date(d.getTime() + offsetMin * 60_000).toISOString().slice(0, -1);
  const a = Math.abs(offsetMin);
  return `${local}${offsetMin < 0 ? '-' : '+'}${pad2(Math.floor(a / 60))}:${pad2(a % 60)}`;
}

const valueText: Record<FieldType, fc.Arbitrary<string>> = {
  string: text,
  uuid: fc.uuid(),
  integer: fc.integer().map(String),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  boolean: fc.constantFrom('true', 'false', 'TRUE', 'False'),
  date: dateText,
};

const OPS_BY_TYPE: Record<FieldType, Operator[]> = {
  string: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'like', 'ilike', 'in', 'notin'],
  uuid: ['eq', 'ne', 'like', 'in', 'notin'],
  integer: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in', 'notin', 'bit'],
  number: ['eq', 'ne', 'lt', 'ge', 'in', 'notin'],
  boolean: ['eq', 'ne', 'in', 'notin'],
  date: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in', 'notin'],
};

const lit = (t: string, quoted: boolean): Literal => ({ text: t, quoted, pos: 0 });
const NULL_OK: Operator[] = ['eq', 'ne', 'in', 'notin'];

const FIELDS: Record<string, FieldType> = spec.fields;
const condition: fc.Arbitrary<Condition> = fc.constantFrom(...Object.keys(FIELDS)).chain((attr) => {
  const type = FIELDS[attr];
  return fc.constantFrom(...OPS_BY_TYPE[type]).chain((op) => {
    let value: fc.Arbitrary<Literal> = valueText[type].map((t) => lit(t, true));
    if (op === 'bit') value = fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((n) => lit(String(n), false));
    else if (NULL_OK.includes(op))
      value = fc.oneof(
        { weight: 5, arbitrary: value },
        { weight: 1, arbitrary: fc.constantFrom(lit('null', false), lit('NULL', false)) },
      );
    const count = op === 'in' || op === 'notin' ? fc.integer({ min: 1, max: 4 }) : fc.constant(1);
    return count
      .chain((k) => fc.array(value, { minLength: k, maxLength: k }))
      .map((values) => ({ attr, op, values, pos: 0 }));
  });
});

// ---- printing an AST back to a filter string with random style ---------------------------------

interface Style {
  quote: boolean;
  dq: boolean;
  andCase: number;
  opUpper: boolean;
  gap: string;
  tight: boolean;
  parens: boolean;
}
const style: fc.Arbitrary<Style> = fc.record({
  quote: fc.boolean(),
  dq: fc.boolean(),
  andCase: fc.integer({ min: 0, max: 2 }),
  opUpper: fc.boolean(),
  gap: fc.constantFrom(' ', '  ', '\t', ' \n '),
  tight: fc.boolean(),
  parens: fc.boolean(),
});
const BARE = /^[^\s()'",]+$/;

function printLiteral(v: Literal, s: Style): string {
  const isNullWord = /^null$/i.test(v.text);
  const bareOk = BARE.test(v.text) && (!v.quoted || !isNullWord);
  if (!v.quoted || (bareOk && !s.quote)) return v.text;
  const q = s.dq ? '"' : "'";
  return q + v.text.replace(/\\/g, '\\\\').replace(new RegExp(q, 'g'), `\\${q}`) + q;
}

function printFilter(ast: Condition[], styles: Style[]): string {
  return ast
    .map((c, i) => {
      const s = styles[i % styles.length];
      const op = s.opUpper ? c.op.toUpperCase() : c.op;
      const sp = s.tight ? '' : s.gap;
      const value =
        (c.op === 'in' || c.op === 'notin') && (s.parens || c.values.length > 1)
          ? `(${sp}${c.values.map((v) => printLiteral(v, s)).join(`${sp},${sp}`)}${sp})`
          : printLiteral(c.values[0], s);
      const and = ['and', 'AND', 'And'][s.andCase];
      return `${i === 0 ? '' : `${s.gap}${and}${s.gap}`}${c.attr}${s.gap}${op}${s.gap}${value}`;
    })
    .join('');
}

/** Compiles, or returns the 400's message: both sides must agree either way. */
function outcome(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    if (e instanceof BadRequestError) return { error: e.errors[0].message.replace(/character \d+/g, 'character ?') };
    throw e;
  }
}

describe('filter grammar properties', () => {
  it('print → parse → compile equals compiling the AST directly', () => {
    fc.assert(
      fc.property(
        fc.array(condition, { minLength: 1, maxLength: 5 }),
        fc.array(style, { minLength: 1, maxLength: 3 }),
        (ast, styles) => {
          const printed = printFilter(ast, styles);
          const parsed = parseFilter(printed);
          expect(parsed.map((c) => [c.attr, c.op, c.values.map((v) => v.text)])).toEqual(
            ast.map((c) => [c.attr, c.op, c.values.map((v) => v.text)]),
          );
          expect(outcome(() => compileFilter(parsed, spec))).toEqual(outcome(() => compileFilter(ast, spec)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never throws anything but a 400 naming filter, whatever the input', () => {
    const tokenSoup = fc
      .array(
        fc.constantFrom(
          'name',
          'n',
          'at',
          'ok',
          'a.b',
          'eq',
          'like',
          'in',
          'notin',
          'bit',
          'and',
          'or',
          '(',
          ')',
          ',',
          '"',
          "'",
          '\\',
          'null',
          '1',
          '-2.5',
          '2019-03-01',
          '2019-03-01T02:12',
          '01:00',
          ' ',
          '%',
          'zz',
        ),
        { maxLength: 15 },
      )
      .map((a) => a.join(' '));
    const any = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: nasty, maxLength: 40 }),
      tokenSoup,
    );
    fc.assert(
      fc.property(any, (input) => {
        try {
          compileFilterString(input, spec);
        } catch (e) {
          expect(e).toBeInstanceOf(BadRequestError);
          expect((e as BadRequestError).errors[0].field).toBe('filter');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('every printed date form reads back as the same instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        fc.constantFrom('z', 'offset', 'none'),
        (d, offsetMin, form) => {
          const t = formatInstant(d, offsetMin, form);
          fc.pre(/^\d{4}-/.test(t)); // an offset may push the local time out of the four-digit years
          expect(parseInstant(t)?.getTime()).toBe(d.getTime());
        },
      ),
      { numRuns: 2000 },
    );
  });
});

// ---- LIKE against a reference matcher ------------------------------------------------------------

type Piece = { any: true } | { one: true } | { ch: string };
function likePieces(pattern: string): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) out.push({ ch: pattern[++i] });
    else out.push(c === '%' ? { any: true } : c === '_' ? { one: true } : { ch: c });
  }
  return out;
}
/** Textbook dynamic programming over pattern × subject (UTF-16 code units, as JavaScript counts). */
function referenceLike(pattern: string, subject: string, fold = false): boolean {
  const p = likePieces(fold ? pattern.toLowerCase() : pattern);
  const s = fold ? subject.toLowerCase() : subject;
  let row = [true, ...Array<boolean>(s.length).fill(false)];
  for (const piece of p) {
    const next = Array<boolean>(s.length + 1).fill(false);
    for (let j = 0; j <= s.length; j++) {
      if ('any' in piece) next[j] = row[j] || (j > 0 && next[j - 1]);
      else if (j > 0) next[j] = row[j - 1] && ('one' in piece || piece.ch === s[j - 1]);
    }
    row = next;
  }
  return row[s.length];
}

describe('like/ilike properties', () => {
  const unit = fc.constantFrom(
    'a',
    'b',
    'A',
    '%',
    '_',
    '\\',
    '.',
    '*',
    '(',
    ')',
    '[',
    '$',
    '^',
    '|',
    '?',
    '+',
    '{',
    '\n',
    '0',
    '1',
    'é',
  );
  const pattern = fc.string({ unit, maxLength: 10 });
  const subject = fc.string({
    unit: fc.constantFrom('a', 'b', 'A', '%', '_', '\\', '.', '*', '(', '$', '\n', '0', '1', 'é'),
    maxLength: 10,
  });
  /** A subject built to match: every % becomes some text, every _ one character. */
  const matching = pattern.chain((p) =>
    fc
      .tuple(
        fc.constant(p),
        fc.array(fc.tuple(subject, fc.constantFrom('a', '%', '\n', '(')), {
          minLength: likePieces(p).length,
          maxLength: likePieces(p).length,
        }),
      )
      .map(
        ([pt, fills]) =>
          [
            pt,
            likePieces(pt)
              .map((piece, i) => ('any' in piece ? fills[i][0] : 'one' in piece ? fills[i][1] : piece.ch))
              .join(''),
          ] as const,
      ),
  );

  it('like matches exactly what a reference LIKE matcher matches', () => {
    fc.assert(
      fc.property(pattern, subject, (p, s) => {
        expect(new RegExp(likeToRegex(p)).test(s)).toBe(referenceLike(p, s));
      }),
      { numRuns: 3000 },
    );
  });
  it('like matches every subject built from the pattern', () => {
    fc.assert(
      fc.property(matching, ([p, s]) => {
        expect(referenceLike(p, s)).toBe(true);
        expect(new RegExp(likeToRegex(p)).test(s)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
  it('ilike matches like on case-folded text', () => {
    fc.assert(
      fc.property(pattern, subject, (p, s) => {
        expect(new RegExp(likeToRegex(p), 'i').test(s)).toBe(referenceLike(p, s, true));
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * Turns a parsed filter into a MongoDB query document, reading each value by the attribute's
 * declared type. Output stays inside the doc-store port's operator subset, so it runs unchanged
 * on MongoDB and on the embedded store.
 */
import { fieldType, storeField, type FieldType, type ListSpec, type StoreFilter } from '../fields';
import { filterError } from './lexer';
import { parseFilter, type Condition, type FilterAst, type Literal, type Operator } from './parser';

const COMPARISON: Partial<Record<Operator, string>> = {
  eq: '$eq',
  ne: '$ne',
  lt: '$lt',
  le: '$lte',
  gt: '$gt',
  ge: '$gte',
};
const NULL_OPS: ReadonlySet<Operator> = new Set(['eq', 'ne', 'in', 'notin']);
const TEXT_TYPES: ReadonlySet<FieldType> = new Set(['string', 'uuid']);
/** MongoDB takes a numeric `$bitsAnySet` mask only as a non-negative 32-bit signed integer. */
const MAX_BITMASK = 2 ** 31 - 1;

/** Parses and compiles in one step; the empty string is the empty filter (`{}`). */
export function compileFilterString(input: string, spec: ListSpec): StoreFilter {
  return compileFilter(parseFilter(input), spec);
}

/**
 * Conditions on different paths share one document. When a path repeats, every clause goes into
 * `$and`: merging `{$gt, $lt}` under one key would, on an array path, mean "one element satisfies
 * both" in the embedded store but "any elements" in MongoDB.
 */
export function compileFilter(ast: FilterAst, spec: ListSpec): StoreFilter {
  const clauses = ast.map((c) => compileCondition(c, spec));
  const paths = clauses.map((c) => Object.keys(c)[0]);
  if (new Set(paths).size < paths.length) return { $and: clauses };
  return Object.fromEntries(clauses.flatMap((c) => Object.entries(c)));
}

function compileCondition(c: Condition, spec: ListSpec): StoreFilter {
  const type = fieldType(spec, c.attr);
  if (!type) throw filterError(`unknown attribute '${c.attr}' at character ${c.pos}`);
  const path = storeField(spec, c.attr);
  const where = `for '${c.attr}' at character ${c.values[0].pos}`;
  if (c.op === 'like' || c.op === 'ilike') {
    if (!TEXT_TYPES.has(type)) throw filterError(`'${c.op}' needs a text attribute; '${c.attr}' is ${type}`);
    const [v] = c.values;
    if (isNull(v)) throw filterError(`null cannot be used with '${c.op}' ${where}`);
    return {
      [path]: c.op === 'like' ? { $regex: likeToRegex(v.text) } : { $regex: likeToRegex(v.text), $options: 'i' },
    };
  }
  if (c.op === 'bit') {
    if (type !== 'integer') throw filterError(`'bit' needs an integer attribute; '${c.attr}' is ${type}`);
    const mask = coerce(c.values[0], type, where);
    if (mask === null || (mask as number) < 0 || (mask as number) > MAX_BITMASK) {
      throw filterError(`'bit' needs a mask between 0 and ${MAX_BITMASK} ${where}`);
    }
    return { [path]: { $bitsAnySet: mask } };
  }
  const values = c.values.map((v) => {
    if (isNull(v) && !NULL_OPS.has(c.op)) throw filterError(`null can only be used with eq, ne, in and notin ${where}`);
    return coerce(v, type, where);
  });
  if (c.op === 'in') return { [path]: { $in: values } };
  if (c.op === 'notin') return { [path]: { $nin: values } };
  return { [path]: { [COMPARISON[c.op] as string]: values[0] } };
}

const isNull = (v: Literal): boolean => !v.quoted && v.text.toLowerCase() === 'null';

/** Reads one literal as the attribute's type; an unreadable value is a 400 naming `filter`. */
function coerce(v: Literal, type: FieldType, where: string): unknown {
  if (isNull(v)) return null;
  const bad = (what: string): never => {
    throw filterError(`'${v.text}' is not ${what} ${where}`);
  };
  switch (type) {
    case 'string':
    case 'uuid':
      return v.text;
    case 'integer': {
      const n = /^[+-]?\d+$/.test(v.text) ? Number(v.text) : NaN;
      return Number.isSafeInteger(n) ? n : bad('an integer');
    }
    case 'number': {
      const n = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(v.text) ? Number(v.text) : NaN;
      return Number.isFinite(n) ? n : bad('a number');
    }
    case 'boolean':
      return /^(true|false)$/i.test(v.text) ? v.text.toLowerCase() === 'true' : bad('true or false');
    case 'date':
      return parseInstant(v.text) ?? bad('a date (ISO 8601, e.g. 2019-03-01 or 2019-03-01T02:12:30.250Z)');
  }
}

const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * An ISO 8601 date or date-time as an instant: a bare date is midnight UTC, no zone means UTC,
 * `Z` or `±HH[:MM]` offsets apply. Fractions beyond milliseconds are truncated (instants are
 * compared at millisecond precision). Impossible dates (2019-02-30) give null.
 */
export function parseInstant(text: string): Date | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m
    .slice(1, 7)
    .map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const daysInMonth = new Date(Date.UTC(2000, mo, 0)).getUTCDate() - (mo === 2 && !isLeap(y) ? 1 : 0);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59) return null;
  let offsetMin = 0;
  const zone = m[8]?.toUpperCase();
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d); // not Date.UTC: it maps years 0..99 to 1900..1999
  date.setUTCHours(h, mi, s, ms);
  return new Date(date.getTime() - offsetMin * 60_000);
}

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Regex metacharacters (escaped with `\`) and control characters (as `\xHH`: MongoDB refuses a NUL in a pattern). */
function escapeChar(c: string): string {
  if (/[\\^$.*+?()[\]{}|]/.test(c)) return `\\${c}`;
  const code = c.charCodeAt(0);
  return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : c;
}

/**
 * An SQL LIKE pattern as an anchored regex source valid in JavaScript and in MongoDB's PCRE:
 * `%` is any run of characters, `_` any one character, `\` makes the next character literal.
 *
 * `[\s\S]` is used instead of `.` so wildcards cross newlines, and `(?![\s\S])` instead of `$`,
 * which in PCRE also matches before a final newline. Each segment between two `%` is found by a
 * lookahead with a lazy gap and then consumed by backreference: lookaheads are atomic, so the
 * match is leftmost-first with no backtracking across segments (correct for LIKE, because a
 * leftmost occurrence never hurts later segments) and `%a%a%a%b` cannot blow up to O(n^k).
 */
export function likeToRegex(pattern: string): string {
  const segments: string[] = [''];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '%') segments.push('');
    else if (c === '_') segments[segments.length - 1] += '[\\s\\S]';
    else if (c === '\\' && i + 1 < pattern.length) segments[segments.length - 1] += escapeChar(pattern[++i]);
    else segments[segments.length - 1] += escapeChar(c);
  }
  const end = '(?![\\s\\S])';
  if (segments.length === 1) return `^${segments[0]}${end}`;
  let out = `^${segments[0]}`;
  let group = 0;
  for (const seg of segments.slice(1, -1)) {
    if (seg === '') continue;
    group++;
    out += `(?=([\\s\\S]*?${seg}))\\${group}(?:)`; // (?:) keeps a following digit out of the group number
  }
  return `${out}[\\s\\S]*${segments[segments.length - 1]}${end}`;
}

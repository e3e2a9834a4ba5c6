/**
 * MongoDB filter documents → a parameterised SQL condition over the collection's key columns, and
 * the rest of the filter (the residual), which SQLite evaluates through the `pb_match` function.
 *
 * A condition goes to SQL only where SQL is exactly MongoDB's meaning: a scalar operand
 * ($eq $ne $gt $gte $lt $lte $in $nin, `{f: v}`, `{f: null}`) compared with the path's key
 * (sqlite-keys.ts: one value per document, in MongoDB's order), ranges kept within the operand's
 * type. Over a key column (an index) where no document ever held an array on the path; elsewhere
 * over the key expression, with the documents that hold an array there matched by `pb_match`. `$and` splits; an `$or`
 * goes to SQL when every branch does, and the cursor shape
 * `{$or: [{f: {$gt: v}}, {f: v, g: {$gt: s}}]}` becomes the row-value range `(f, g) > (v, s)` an
 * index walks from the cursor. Everything else is residual, matched in JS (mingo) row by row, so
 * the answer is always MongoDB's and only the speed depends on what SQL could take.
 */
import { types } from 'node:util';
import type { Filter } from './port';
import { isPlainObject } from './doc-paths';
import { ARRAY_KEY_SQL, boundsOf, keyExpression, keyOf } from './sqlite-keys';

/**
 * What the compiler knows of a path: its key column and the WHERE terms of a partial index on it, repeated in
 * a query that implies them so SQLite uses that index.
 */
export interface KeyColumn {
  column: string;
  /** Holds for every row the compiler lets SQL answer (a unique index's "no array"). */
  partial?: string;
  /** Holds where the condition excludes null and missing (a sparse index's "field present"). */
  sparse?: string;
}

export interface CompiledFilter {
  /** A SQL condition (`1` when SQL checks nothing). */
  where: string;
  params: unknown[];
  /** What SQL does not check; undefined when SQL checks everything. */
  residual?: Filter;
}

type Part = { sql: string; params: unknown[] } | undefined;
type Key = NonNullable<ReturnType<typeof keyOf>>;

export function compileFilter(filter: Filter, columnOf: (path: string) => KeyColumn | undefined): CompiledFilter {
  const sql: string[] = [];
  const params: unknown[] = [];
  const residual: Filter[] = [];
  const add = (p: Part, rest: Filter): void => {
    if (!p) residual.push(rest);
    else {
      sql.push(p.sql);
      params.push(...p.params);
    }
  };
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const sub of value) {
        const c = compileFilter(sub, columnOf);
        if (c.where !== '1') add({ sql: c.where, params: c.params }, {});
        if (c.residual) residual.push(c.residual);
      }
    } else if (key === '$or' && Array.isArray(value)) add(orPart(value, columnOf), { $or: value });
    else if (key.startsWith('$')) residual.push({ [key]: value });
    else add(fieldPart(key, value, columnOf), { [key]: value });
  }
  return {
    where: sql.length === 0 ? '1' : sql.map((s) => `(${s})`).join(' AND '),
    params,
    residual: residual.length === 0 ? undefined : residual.length === 1 ? residual[0] : { $and: residual },
  };
}

function orPart(branches: Filter[], columnOf: (path: string) => KeyColumn | undefined): Part {
  if (branches.length === 0) return undefined;
  const parts: { sql: string; params: unknown[] }[] = [];
  let rest = branches;
  const cursor = rowValueRange(branches, columnOf);
  if (cursor) {
    parts.push(cursor);
    rest = branches.slice(2);
  }
  for (const b of rest) {
    const c = compileFilter(b, columnOf);
    if (c.residual) return undefined;
    parts.push({ sql: c.where, params: c.params });
  }
  return { sql: parts.map((p) => `(${p.sql})`).join(' OR '), params: parts.flatMap((p) => p.params) };
}

/** `[{f: {$gt: v}}, {f: v, g: {$gt: s}}]` (or `$lt` in both) → `(f, g) > (v, s)`, types kept apart. */
function rowValueRange(branches: Filter[], columnOf: (path: string) => KeyColumn | undefined): Part {
  const [first, second] = branches;
  if (!first || !second) return undefined;
  const f = Object.keys(first);
  const s = Object.keys(second);
  if (f.length !== 1 || s.length !== 2 || s[0] !== f[0]) return undefined;
  const op = soleOperator(first[f[0]]);
  const second1 = second[s[1]];
  if (!op || (op.op !== '$gt' && op.op !== '$lt') || soleOperator(second1)?.op !== op.op) return undefined;
  const eq = second[s[0]];
  const eqValue = isPlainObject(eq) && Object.keys(eq).length === 1 && '$eq' in eq ? eq.$eq : eq;
  if (!isScalar(eqValue) || !sameValue(eqValue, op.arg)) return undefined;
  const colF = columnOf(f[0]);
  const colG = columnOf(s[1]);
  const kf = keyOf(op.arg);
  const kg = keyOf(soleOperator(second1)?.arg);
  if (!colF || !colG || !kf || !kg || kf.kind === 'null' || kg.kind === 'null') return undefined;
  const cmp = op.op === '$gt' ? '>' : '<';
  const side = op.op === '$gt' ? 1 : 0;
  const fBound = boundsOf(kf.kind)[side];
  const gBound = boundsOf(kg.kind)[side];
  return {
    sql:
      `(${colF.column}, ${colG.column}) ${cmp} (?, ?) AND ${colF.column} ${fBound}` +
      ` AND (${colF.column} <> ? OR ${colG.column} ${gBound})`,
    params: [kf.key, kg.key, kf.key],
  };
}

/**
 * A residual filter bound as a parameter: the collection registers it with the matcher and binds its id
 * (`pb_match(doc, ?)`).
 */
export class ResidualParam {
  constructor(readonly filter: Filter) {}
}

/**
 * A condition on one path. With a key column that SQL may use: over the column (an index serves it).
 * Without one: over the key expression, row by row, and where the document holds an array on the path
 * (the key is the array marker) through `pb_match`, so array-any matching stays MongoDB's.
 */
function fieldPart(path: string, cond: unknown, columnOf: (path: string) => KeyColumn | undefined): Part {
  if (path.split('.').some((p) => p === '' || /^\d+$/.test(p) || p.startsWith('$'))) return undefined;
  const col = columnOf(path);
  if (col) return keyPart(col, cond);
  const expr = `(${keyExpression(path)})`;
  const p = keyPart({ column: expr }, cond);
  return (
    p && {
      sql: `CASE WHEN ${expr} = ${ARRAY_KEY_SQL} THEN pb_match(doc, ?) ELSE (${p.sql}) END`,
      params: [new ResidualParam({ [path]: cond }), ...p.params],
    }
  );
}

function keyPart(col: KeyColumn, cond: unknown): Part {
  const c = col.column;
  // Terms that exclude null and missing may repeat the sparse index's WHERE, so SQLite can use that index.
  const withPartial = (p: { sql: string; params: unknown[] }, excludesNull: boolean) => {
    const terms = [p.sql, ...(col.partial ? [col.partial] : []), ...(col.sparse && excludesNull ? [col.sparse] : [])];
    return { sql: terms.join(' AND '), params: p.params };
  };
  if (!isOperatorObject(cond)) {
    const k = scalarKey(cond);
    return k && withPartial({ sql: `${c} = ?`, params: [k.key] }, k.kind !== 'null');
  }
  const sql: string[] = [];
  const params: unknown[] = [];
  let excludesNull = false;
  for (const [op, arg] of Object.entries(cond)) {
    if (op === '$eq' || op === '$ne') {
      const k = scalarKey(arg);
      if (!k) return undefined;
      sql.push(`${c} ${op === '$eq' ? '=' : '<>'} ?`);
      params.push(k.key);
      excludesNull ||= op === '$eq' && k.kind !== 'null';
    } else if (op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte') {
      const k = scalarKey(arg);
      if (!k || k.kind === 'null') return undefined;
      const [low, high] = boundsOf(k.kind);
      const cmp = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op];
      sql.push(`${c} ${cmp} ? AND ${c} ${op.startsWith('$g') ? high : low}`);
      params.push(k.key);
      excludesNull = true;
    } else if (op === '$in' || op === '$nin') {
      if (!Array.isArray(arg)) return undefined;
      const keys = arg.map(scalarKey).filter((k): k is Key => k !== undefined);
      if (keys.length !== arg.length) return undefined;
      const list = keys.map((k) => k.key);
      if (list.length === 0) sql.push(op === '$in' ? '0' : '1');
      else sql.push(`${c} ${op === '$in' ? 'IN' : 'NOT IN'} (${list.map(() => '?').join(', ')})`);
      params.push(...list);
      excludesNull ||= op === '$in' && keys.every((k) => k.kind !== 'null');
    } else return undefined;
  }
  return withPartial({ sql: sql.join(' AND '), params }, excludesNull);
}

function scalarKey(v: unknown): Key | undefined {
  return isScalar(v) ? keyOf(v) : undefined;
}

function isScalar(v: unknown): boolean {
  return v === null || v === undefined || ['string', 'number', 'boolean'].includes(typeof v) || types.isDate(v);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (types.isDate(a) && types.isDate(b)) return a.getTime() === b.getTime();
  return a === b;
}

function soleOperator(v: unknown): { op: string; arg: unknown } | undefined {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0].startsWith('$') ? { op: keys[0], arg: v[keys[0]] } : undefined;
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  return isPlainObject(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k.startsWith('$'));
}

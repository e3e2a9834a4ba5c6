import { BadRequestError } from '@patchbay/contracts';
import { isSelectable, isSortable, type ListSpec, type StoreFilter } from './fields';
import { compileFilterString } from './filter/compile';
import type { Order } from './order';
import { SEED_PATTERN } from './shuffle';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;
const SECURE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A validated list request. `filter` is already compiled (`{}` when absent). */
export interface ListParams {
  limit: number;
  /** Always 0 with after/before. */
  offset: number;
  order: Order;
  after?: string;
  before?: string;
  filter: StoreFilter;
  include?: string[];
  exclude?: string[];
}

/** Field selection for lists and GET by SID. */
export interface FieldParams {
  include?: string[];
  exclude?: string[];
}

type Problems = BadRequestError['errors'];
type Bad = (field: string, message: string) => undefined;

/** Collects problems instead of throwing at the first, so one 400 names every bad parameter. */
function collector(problems: Problems): Bad {
  return (field, message) => {
    problems.push(...BadRequestError.field(field, message).errors);
    return undefined;
  };
}

/**
 * Validates the list parameters of a raw query object (values already URL-decoded, so `+` is a
 * space). Unknown parameters are ignored. Every invalid parameter is reported in one 400, each
 * error naming its parameter, in the order after, before, limit, offset, order, seed, filter,
 * include_fields, exclude_fields (so `errors[0].field` is the first bad one of these). `seed` is
 * read only with `order=shuffle` (and ignored otherwise, like an unknown parameter). Without
 * `limit`, `defaultLimit` applies (10, or a list's compatibility setting such as CDR_DEFAULT_LIMIT).
 */
export function parseListParams(
  query: Record<string, unknown>,
  spec: ListSpec,
  defaultLimit: number = DEFAULT_LIMIT,
): ListParams {
  const problems: Problems = [];
  const bad = collector(problems);
  const raw = (name: string): string | undefined => readSingle(query, name, bad);

  const after = secureId('after', raw('after'), spec, bad);
  const before = secureId('before', raw('before'), spec, bad);
  const cursorMode = after !== undefined || before !== undefined;

  const limitRaw = raw('limit');
  let limit = defaultLimit;
  if (limitRaw !== undefined) {
    const n = /^\d+$/.test(limitRaw) ? Number(limitRaw) : NaN;
    if (Number.isInteger(n) && n >= 1 && n <= MAX_LIMIT) limit = n;
    else bad('limit', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  }

  const offsetRaw = raw('offset');
  let offset = 0;
  if (offsetRaw !== undefined) {
    const n = /^\d+$/.test(offsetRaw) ? Number(offsetRaw) : NaN;
    if (!Number.isSafeInteger(n)) bad('offset', 'offset must be a non-negative integer');
    else if (cursorMode && n !== 0) bad('offset', 'offset cannot be used with after or before (only 0 is accepted)');
    else offset = n;
  }

  let order = parseOrder(raw('order'), spec, cursorMode, bad);
  if (order.kind === 'shuffle') {
    const seed = raw('seed');
    if (seed !== undefined && !SEED_PATTERN.test(seed)) bad('seed', 'seed must be 1 to 64 letters, digits, - or _');
    else if (seed !== undefined) order = { kind: 'shuffle', seed };
  }

  let filter: StoreFilter = {};
  const filterRaw = raw('filter');
  if (filterRaw !== undefined) {
    try {
      filter = compileFilterString(filterRaw, spec);
    } catch (e) {
      if (!(e instanceof BadRequestError)) throw e;
      problems.push(...e.errors);
    }
  }
  const fields = collectFieldParams(query, spec, bad);
  if (problems.length > 0) throw new BadRequestError({ message: 'validation error', errors: problems });
  return {
    limit,
    offset,
    order,
    filter,
    ...fields,
    ...(after !== undefined && { after }),
    ...(before !== undefined && { before }),
  };
}

/** Validates `include_fields` / `exclude_fields` alone (GET by SID). */
export function parseFieldParams(query: Record<string, unknown>, spec: ListSpec): FieldParams {
  const problems: Problems = [];
  const fields = collectFieldParams(query, spec, collector(problems));
  if (problems.length > 0) throw new BadRequestError({ message: 'validation error', errors: problems });
  return fields;
}

/** A known parameter given twice (`?limit=1&limit=2`) or as a nested object is invalid, not "the last one". */
function readSingle(query: Record<string, unknown>, name: string, bad: Bad): string | undefined {
  const v = Object.hasOwn(query, name) ? query[name] : undefined;
  if (v === undefined || typeof v === 'string') return v;
  return bad(name, `${name} must be given once, as a single value`);
}

function secureId(name: 'after' | 'before', v: string | undefined, spec: ListSpec, bad: Bad): string | undefined {
  if (v === undefined) return undefined;
  if (!spec.cursor) return bad(name, `${name} is not supported on this list; use offset`);
  if (!SECURE_ID.test(v)) return bad(name, `${name} must be a secure ID`);
  return v;
}

/**
 * `attr`, `attr asc|desc` (space or a literal `+`; direction case-insensitive) or `shuffle`.
 * With after/before only the spec's cursor order fields are allowed, and the default order falls
 * back to the first of them when the spec's default is not one.
 */
function parseOrder(v: string | undefined, spec: ListSpec, cursorMode: boolean, bad: Bad): Order {
  const cursorFields = spec.cursor?.orderFields ?? [];
  if (v === undefined) {
    const d = spec.defaultOrder;
    if (cursorMode && !cursorFields.includes(d.field)) return { kind: 'field', field: cursorFields[0], dir: 'asc' };
    return { kind: 'field', field: d.field, dir: d.dir };
  }
  const parts = v.trim().split(/[\s+]+/);
  const fallback: Order = { kind: 'field', field: spec.defaultOrder.field, dir: spec.defaultOrder.dir };
  if (parts.length === 1 && parts[0].toLowerCase() === 'shuffle') {
    if (!cursorMode) return { kind: 'shuffle' };
    bad('order', 'shuffle cannot be used with after or before');
    return fallback;
  }
  const [field, dirRaw = 'asc'] = parts;
  const dir = dirRaw.toLowerCase();
  if (parts.length > 2 || (dir !== 'asc' && dir !== 'desc')) {
    bad('order', "order must be '<attribute>', '<attribute> asc', '<attribute> desc' or 'shuffle'");
  } else if (!isSortable(spec, field)) {
    bad('order', `cannot order by '${field}'`);
  } else if (cursorMode && !cursorFields.includes(field)) {
    bad('order', `with after or before, order must be on ${cursorFields.join(' or ')}`);
  } else {
    return { kind: 'field', field, dir };
  }
  return fallback;
}

/** Comma-separated dot paths; blanks are skipped, so an empty value means "not given". */
function collectFieldParams(query: Record<string, unknown>, spec: ListSpec, bad: Bad): FieldParams {
  const out: FieldParams = {};
  for (const [name, key] of [
    ['include_fields', 'include'],
    ['exclude_fields', 'exclude'],
  ] as const) {
    const v = readSingle(query, name, bad);
    if (v === undefined) continue;
    const paths = v
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const unknown = paths.filter((p) => !isSelectable(spec, p));
    if (unknown.length > 0)
      bad(name, `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((p) => `'${p}'`).join(', ')}`);
    else if (paths.length > 0) out[key] = paths;
  }
  return out;
}

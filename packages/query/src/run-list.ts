import { BadRequestError, type ListEnvelope } from '@patchbay/contracts';
import { cursorFilter, getPath, type CursorPosition } from './cursor';
import { buildEnvelope, cursorPagination, offsetPagination, type Pagination } from './envelope';
import {
  storeField,
  type ListSpec,
  type SortDir,
  type StoreFilter,
  type StoreProjection,
  type StoreSort,
} from './fields';
import { buildSort, reverseSort } from './order';
import { parseListParams, type ListParams } from './params';
import { applyFieldFilter } from './projection';
import { newShuffleSeed, shuffleSids } from './shuffle';

/** A stored document: any object type (a typed collection's documents need no index signature). */
type StoredDoc = object;

/**
 * The part of the doc-store `Collection` a list needs, declared structurally so this package does
 * not import `@patchbay/platform` (which may depend on it). Any platform `Collection` fits.
 */
export interface ListSource<D extends StoredDoc = StoredDoc> {
  find(
    filter: StoreFilter,
    opts?: { sort?: StoreSort; skip?: number; limit?: number; projection?: StoreProjection },
  ): Promise<D[]>;
  countDocuments(filter: StoreFilter): Promise<number>;
  findOne(filter: StoreFilter, opts?: { projection?: StoreProjection; sort?: StoreSort }): Promise<D | null>;
}

export interface RunListOptions<D extends StoredDoc, T extends object> {
  collection: ListSource<D>;
  /** What the caller may see at all (e.g. `{partner_sid}`); cursors are looked up inside it. */
  baseFilter?: StoreFilter;
  /** The raw query-string object (values URL-decoded). */
  query: Record<string, unknown>;
  spec: ListSpec;
  /** The request's absolute public URL; pagination URLs are built from it. */
  url: string | URL;
  /** Stored document → public object; field filtering is applied to its result. */
  serialize: (doc: D) => T | Promise<T>;
  /** The `limit` when the request gives none (default 10; at most MAX_LIMIT). */
  defaultLimit?: number;
  /** Source of randomness for a new `order=shuffle` seed (tests pass a seeded one). */
  random?: () => number;
}

interface Page<D> {
  docs: D[];
  hasMore: boolean;
  offset: number;
  total: number | null;
  pagination: Pagination;
}

/**
 * Every non-empty filter must hold. Filters whose keys do not collide are merged into one
 * top-level document (earlier filters' keys first): the embedded store picks indexes only from
 * top-level conditions, so `{partner_sid, 'addresses.ip'}` can use an index where
 * `{$and: [...]}` would scan. Colliding keys go into `$and`, which means the same in both stores.
 */
export function andFilters(...filters: StoreFilter[]): StoreFilter {
  const parts = filters.filter((f) => Object.keys(f).length > 0);
  if (parts.length <= 1) return parts[0] ?? {};
  const merged: StoreFilter = {};
  const rest: StoreFilter[] = [];
  for (const part of parts) {
    if (Object.keys(part).some((k) => Object.hasOwn(merged, k))) rest.push(part);
    else Object.assign(merged, part);
  }
  return rest.length === 0
    ? merged
    : { ...merged, $and: [...(Array.isArray(merged.$and) ? merged.$and : []), ...rest] };
}

/**
 * Runs a list request end to end: validates the parameters (400s name the parameter), queries
 * the collection and returns the envelope with serialized, field-filtered items.
 *
 * - offset mode: sort/skip/limit+1 (the extra record tells `has_more`), plus a count when the
 *   spec is countable.
 * - after/before: the cursor records are looked up by sid within `baseFilter` only, so a sid works
 *   with or without the filter that produced it; an unknown sid is a 400 naming after/before.
 *   Pages never skip: they start strictly after (or before) the cursor in the total order, so
 *   `after=<last sid>` is an empty page, never a restart. An empty page has pagination `{}`; on a
 *   list that is not counted, a full page always has `next` (it may lead to that empty page).
 *   `has_more` says more records lie beyond the page in the direction it was read (within an
 *   after+before window); `total` counts every match of the filter, ignoring after/before.
 * - shuffle: reads the sids of every match, orders them by the seeded hash of shuffle.ts and
 *   fetches one page by offset; meant for small lists. A request without `seed` draws one; the
 *   next/previous URLs carry it, so following them visits every record once.
 */
export async function runList<D extends StoredDoc, T extends object>(
  opts: RunListOptions<D, T>,
): Promise<ListEnvelope<Record<string, unknown>>> {
  const { spec } = opts;
  const params = parseListParams(opts.query, spec, opts.defaultLimit);
  const matching = andFilters(opts.baseFilter ?? {}, params.filter);
  const page =
    params.order.kind === 'shuffle'
      ? await shufflePage(opts, params, matching)
      : params.after !== undefined || params.before !== undefined
        ? await cursorPage(opts, params, matching, params.order.field, params.order.dir)
        : await offsetPage(opts, params, matching);
  const serialized = await Promise.all(page.docs.map(async (d) => opts.serialize(d)));
  return buildEnvelope({
    items: serialized.map((item) => applyFieldFilter(item, params.include, params.exclude)),
    limit: params.limit,
    offset: page.offset,
    hasMore: page.hasMore,
    total: page.total,
    pagination: page.pagination,
  });
}

const countable = (spec: ListSpec): boolean => spec.countable !== false;

async function offsetPage<D extends StoredDoc>(
  opts: RunListOptions<D, object>,
  p: ListParams,
  matching: StoreFilter,
): Promise<Page<D>> {
  const { field, dir } = p.order.kind === 'field' ? p.order : opts.spec.defaultOrder;
  const [found, total] = await Promise.all([
    opts.collection.find(matching, { sort: buildSort(opts.spec, field, dir), skip: p.offset, limit: p.limit + 1 }),
    countable(opts.spec) ? opts.collection.countDocuments(matching) : Promise.resolve(null),
  ]);
  const hasMore = found.length > p.limit;
  const pagination = offsetPagination(opts.url, { offset: p.offset, limit: p.limit, hasMore });
  return { docs: found.slice(0, p.limit), hasMore, offset: p.offset, total, pagination };
}

async function cursorPage<D extends StoredDoc>(
  opts: RunListOptions<D, object>,
  p: ListParams,
  matching: StoreFilter,
  field: string,
  dir: SortDir,
): Promise<Page<D>> {
  const { collection, spec } = opts;
  const sidPath = storeField(spec, spec.sidField);
  const position = (doc: D): CursorPosition => ({
    value: getPath(doc, storeField(spec, field)),
    sid: String(getPath(doc, sidPath)),
  });
  const load = async (name: 'after' | 'before', sid: string): Promise<CursorPosition> => {
    const doc = await collection.findOne(andFilters(opts.baseFilter ?? {}, { [sidPath]: sid }));
    if (!doc) throw BadRequestError.field(name, `${name} names no record of this list: '${sid}'`);
    return position(doc);
  };
  const [afterPos, beforePos] = await Promise.all([
    p.after !== undefined ? load('after', p.after) : undefined,
    p.before !== undefined ? load('before', p.before) : undefined,
  ]);
  const bounds = [
    afterPos ? cursorFilter(spec, field, dir, 'after', afterPos) : {},
    beforePos ? cursorFilter(spec, field, dir, 'before', beforePos) : {},
  ];
  const forward = afterPos !== undefined;
  const sort = buildSort(spec, field, dir);
  const [found, total] = await Promise.all([
    collection.find(andFilters(matching, ...bounds), { sort: forward ? sort : reverseSort(sort), limit: p.limit + 1 }),
    countable(spec) ? collection.countDocuments(matching) : Promise.resolve(null),
  ]);
  const hasMore = found.length > p.limit;
  const docs = forward ? found.slice(0, p.limit) : found.slice(0, p.limit).reverse();
  if (docs.length === 0) return { docs, hasMore: false, offset: 0, total, pagination: {} };

  const first = position(docs[0]);
  const last = position(docs[docs.length - 1]);
  const exists = async (f: StoreFilter): Promise<boolean> =>
    (await collection.find(andFilters(matching, f), { limit: 1, projection: { [sidPath]: 1 } })).length > 0;
  // Forward: "more" is what follows; whether anything precedes the page needs one probe. Backward: mirrored.
  // A list that does not count (`total` null) gives a full page `next` even when nothing follows:
  // clients that page while `count == limit` and stop at an empty page (the publisher's record
  // downloader) need it (docs/interface-notes.md, section 5).
  const fullUncounted = !countable(spec) && docs.length === p.limit;
  const hasNext = (forward ? hasMore : await exists(cursorFilter(spec, field, dir, 'after', last))) || fullUncounted;
  const hasPrevious = forward ? await exists(cursorFilter(spec, field, dir, 'before', first)) : hasMore;
  const pagination = cursorPagination(opts.url, {
    ...(hasNext && { nextAfter: last.sid }),
    ...(hasPrevious && { previousBefore: first.sid }),
    keepBeforeOnNext: forward,
  });
  return { docs, hasMore, offset: 0, total, pagination };
}

async function shufflePage<D extends StoredDoc>(
  opts: RunListOptions<D, object>,
  p: ListParams,
  matching: StoreFilter,
): Promise<Page<D>> {
  const { collection, spec } = opts;
  const sidPath = storeField(spec, spec.sidField);
  const seed = (p.order.kind === 'shuffle' ? p.order.seed : undefined) ?? newShuffleSeed(opts.random);
  const all = (await collection.find(matching, { projection: { [sidPath]: 1 } })).map((d) =>
    String(getPath(d, sidPath)),
  );
  const chosen = shuffleSids(all, seed).slice(p.offset, p.offset + p.limit);
  const rank = new Map(chosen.map((sid, i) => [sid, i]));
  const docs = chosen.length === 0 ? [] : await collection.find(andFilters(matching, { [sidPath]: { $in: chosen } }));
  docs.sort((a, b) => (rank.get(String(getPath(a, sidPath))) ?? 0) - (rank.get(String(getPath(b, sidPath))) ?? 0));
  const hasMore = p.offset + chosen.length < all.length;
  const pagination = offsetPagination(opts.url, { offset: p.offset, limit: p.limit, hasMore, set: { seed } });
  return { docs, hasMore, offset: p.offset, total: countable(spec) ? all.length : null, pagination };
}

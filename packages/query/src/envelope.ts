/**
 * The list response envelope and its `pagination` URLs.
 *
 * URLs are absolute, built from the request's absolute public URL, and keep every other query
 * parameter (unknown ones too) in place; only the paging parameters change. They are re-encoded
 * by `URLSearchParams` (a space becomes `+`), which reads back to the same values.
 */
import type { ListEnvelope } from '@patchbay/contracts';

/** `{}` when nothing is before or after the page; keys in alphabetical order. */
export type Pagination = ListEnvelope<unknown>['pagination'];

export interface EnvelopeInput<T> {
  items: T[];
  limit: number;
  offset: number;
  hasMore: boolean;
  total: number | null;
  pagination: Pagination;
}

/** The envelope with exactly the public keys, in alphabetical order (contracts' `ListEnvelope`). */
export function buildEnvelope<T>(input: EnvelopeInput<T>): ListEnvelope<T> {
  const pagination: Pagination = {};
  if (input.pagination.next !== undefined) pagination.next = input.pagination.next;
  if (input.pagination.previous !== undefined) pagination.previous = input.pagination.previous;
  return {
    count: input.items.length,
    has_more: input.hasMore,
    items: input.items,
    limit: input.limit,
    offset: input.offset,
    pagination,
    total: input.total,
  };
}

function withParams(url: string | URL, set: Record<string, string>, remove: readonly string[]): string {
  const u = new URL(url);
  for (const name of remove) u.searchParams.delete(name);
  for (const [name, value] of Object.entries(set)) u.searchParams.set(name, value);
  return u.toString();
}

/**
 * Offset mode: `next` (offset+limit) only when more records follow; `previous`
 * (max(offset−limit, 0)) whenever offset > 0. Any after/before in the URL is dropped: in offset
 * mode there is none that was used. `set` adds parameters both URLs must carry (the shuffle seed).
 */
export function offsetPagination(
  url: string | URL,
  p: { offset: number; limit: number; hasMore: boolean; set?: Record<string, string> },
): Pagination {
  const out: Pagination = {};
  if (p.hasMore) out.next = withParams(url, { ...p.set, offset: String(p.offset + p.limit) }, ['after', 'before']);
  if (p.offset > 0)
    out.previous = withParams(url, { ...p.set, offset: String(Math.max(p.offset - p.limit, 0)) }, ['after', 'before']);
  return out;
}

export interface CursorLinks {
  /** Sid of the last item, when records follow it. */
  nextAfter?: string;
  /** Sid of the first item, when records precede it. */
  previousBefore?: string;
  /**
   * True when the page was read forward from `after` inside an after+before window: `next`
   * keeps `before` so the window goes on. When the page was read backward from `before` alone,
   * keeping it would make `next` an empty window, so it is dropped.
   */
  keepBeforeOnNext: boolean;
}

/**
 * after/before mode: `next` is `after=<last sid>`, `previous` is `before=<first sid>` (dropping
 * `after`, which would bound it to an empty window). `offset` never appears.
 */
export function cursorPagination(url: string | URL, links: CursorLinks): Pagination {
  const out: Pagination = {};
  if (links.nextAfter !== undefined) {
    const remove = links.keepBeforeOnNext ? ['offset'] : ['offset', 'before'];
    out.next = withParams(url, { after: links.nextAfter }, remove);
  }
  if (links.previousBefore !== undefined)
    out.previous = withParams(url, { before: links.previousBefore }, ['offset', 'after']);
  return out;
}

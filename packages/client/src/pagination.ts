import type { Client } from 'openapi-fetch';
import { data } from './data';
import { PatchbayApiError } from './errors';
import type { ListEnvelope, ListItem, ListPath, ListQuery, paths } from './types';

/** Which links to follow: `next` (forward; offset or `after` pages) or `previous` (backward; `before` pages). */
export interface PaginateOptions {
  direction?: 'next' | 'previous';
}

/** Reads one page by its absolute link, with the client's credentials. */
export type FetchPage = (url: string) => Promise<unknown>;

/** A GET of an absolute URL as JSON, with `headers`; non-2xx → PatchbayApiError. */
export function pageFetcher(fetchImpl: typeof fetch, headers: Record<string, string>): FetchPage {
  return async (url) => {
    const response = await fetchImpl(url, { headers: { Accept: 'application/json', ...headers } });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: kept as text for the error */
    }
    if (!response.ok) throw PatchbayApiError.from(response, body);
    return body;
  };
}

/**
 * The pages of a list, first to last: the first as `query` asks (offset mode, or cursor mode with
 * `after`/`before` on the record lists), then each `pagination.next` link (or `previous`) exactly
 * as the API wrote it — the links keep every other parameter (filter, order, limit) and carry the
 * offset or the cursor themselves, so one walk serves both modes. Ends when there is no link.
 */
export async function* pages<P extends ListPath>(
  api: Client<paths>,
  fetchPage: FetchPage,
  path: P,
  query?: ListQuery<P>,
  opts: PaginateOptions = {},
): AsyncGenerator<ListEnvelope<P>> {
  const direction = opts.direction ?? 'next';
  // why: openapi-fetch types each path's init exactly; a path chosen at run time needs this one cast.
  let page = (await data(api.GET(path as '/countries', { params: { query: query as never } }))) as ListEnvelope<P>;
  for (;;) {
    yield page;
    const link = linkOf(page, direction);
    if (!link) return;
    // why: the link is the API's own, to the next page of the same list.
    page = (await fetchPage(link)) as ListEnvelope<P>;
  }
}

/** The items of a list, one by one, across every page (see `pages`). */
export async function* paginate<P extends ListPath>(
  api: Client<paths>,
  fetchPage: FetchPage,
  path: P,
  query?: ListQuery<P>,
  opts: PaginateOptions = {},
): AsyncGenerator<ListItem<P>> {
  for await (const page of pages(api, fetchPage, path, query, opts)) {
    // why: ListEnvelope<P> is a union over list paths; P's envelope holds ListItem<P>s.
    const items = (page as { items: Array<ListItem<P>> }).items;
    // Walking backward, a page's items are still in ascending order: yield them last to first.
    if ((opts.direction ?? 'next') === 'previous') yield* [...items].reverse();
    else yield* items;
  }
}

/** The page's `pagination.next` (or `previous`) link, when it has one. */
function linkOf(page: unknown, direction: 'next' | 'previous'): string | undefined {
  if (typeof page !== 'object' || page === null || !('pagination' in page)) return undefined;
  const { pagination } = page;
  if (typeof pagination !== 'object' || pagination === null || !(direction in pagination)) return undefined;
  const link: unknown = Reflect.get(pagination, direction);
  return typeof link === 'string' ? link : undefined;
}

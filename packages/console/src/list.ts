import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { PatchbayApiError } from '@patchbay/client';
import { problemOf, type Problem } from './errors';

/** A page of any list of the API (offset or cursor): its items and the links to its neighbours. */
export interface Envelope<T> {
  items: T[];
  count: number;
  total: number | null;
  offset: number;
  limit: number;
  pagination: { next?: string; previous?: string };
}

/** GETs a pagination link exactly as the API wrote it, with the session's token. */
export async function fetchLink<T>(token: string, link: string): Promise<Envelope<T>> {
  const response = await fetch(link, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: kept as text for the error */
  }
  if (!response.ok) throw PatchbayApiError.from(response, body);
  // why: the link is the API's own, to a neighbour page of the same list.
  return body as Envelope<T>;
}

/**
 * One page of a list at a time — never the whole list: `first()` loads the first page (again
 * whenever `key` changes: a new filter), `next()`/`previous()` follow the page's own links
 * (as `adapt` leaves them).
 */
export function usePagedList<T>(
  token: string,
  key: string,
  first: () => Promise<Envelope<T>>,
  adapt: (page: Envelope<T>) => Envelope<T> = (p) => p,
) {
  const [page, setPage] = useState<Envelope<T> | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const current = useRef<() => Promise<Envelope<T>>>(first);
  // Only the latest request's answer is shown (an older one may arrive after it).
  const latest = useRef(0);
  const run = useCallback(async (load: () => Promise<Envelope<T>>) => {
    const seq = ++latest.current;
    current.current = load;
    setBusy(true);
    try {
      const loaded = adapt(await load());
      if (seq !== latest.current) return;
      setPage(loaded);
      setProblem(null);
    } catch (err) {
      if (seq === latest.current) setProblem(problemOf(err));
    } finally {
      if (seq === latest.current) setBusy(false);
    }
  }, []);
  // Loaded again when the query (`key`) changes, not whenever the caller makes a new `first` closure.
  useEffect(() => {
    void run(first);
  }, [key]);
  const follow = (link: string | undefined) => {
    if (link) void run(() => fetchLink<T>(token, link));
  };
  return {
    page,
    problem,
    busy,
    next: () => follow(page?.pagination.next),
    previous: () => follow(page?.pagination.previous),
    /** Loads the page shown again (after an upload or a delete). */
    reload: () => run(current.current),
  };
}

/**
 * Turns a first page's offset link into a cursor one (`after=<sid of its last item>`): the record
 * lists answer a page without `after`/`before` in offset mode, and only a cursor walk stays exact
 * while records keep arriving. Pages already in cursor mode are left as the API wrote them.
 */
export function cursorLinks<T>(sidOf: (item: T) => string): (page: Envelope<T>) => Envelope<T> {
  return (page) => {
    const next = page.pagination.next;
    if (!next || page.items.length === 0) return page;
    const url = new URL(next);
    if (!url.searchParams.has('offset')) return page;
    url.searchParams.delete('offset');
    url.searchParams.set('after', sidOf(page.items[page.items.length - 1]));
    return { ...page, pagination: { ...page.pagination, next: url.toString() } };
  };
}

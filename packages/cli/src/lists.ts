import type { ListEnvelope, ListPath, ListQuery, PatchbayClient } from '@patchbay/client';
import { numberOption } from './client';
import type { ListFlags, Page } from './output';

/** The page size a list asks for: --limit, else the API's default (10) for one page and 1000 with --all. */
export function pageSize(o: ListFlags): number | undefined {
  return numberOption(o.limit) ?? (o.all ? 1000 : undefined);
}

/** One page of an object list, or with --all every page, following `pagination.next`. */
export async function* objectPages<P extends ListPath>(
  pb: PatchbayClient,
  path: P,
  query: ListQuery<P>,
  all: boolean,
): AsyncGenerator<Page<object>> {
  for await (const page of pb.pages(path, query)) {
    // why: every list envelope is a Page (items, count, total, pagination); ListEnvelope<P> is their union.
    yield page as ListEnvelope<P> & Page<object>;
    if (!all) return;
  }
}

import { until } from '../support/poll';
import type { PatchbayInstance } from './patchbay';

interface ContainerList {
  items?: Array<{ container_sid?: string }>;
}

/**
 * The bootstrap partner's default container on `inst`, once storage has made it (it is made as the
 * partner is, a moment after the start). Polls the container list; a refused connection, a 503
 * while the services start and an empty list are all "not yet". Fails naming it after `timeoutMs`.
 * Used by the API tests that start an instance of their own and by the benchmarks.
 */
export function defaultContainer(
  inst: Pick<PatchbayInstance, 'baseUrl' | 'token'>,
  timeoutMs = 20_000,
): Promise<string> {
  return until(
    'the default container',
    timeoutMs,
    async () => {
      const res = await fetch(`${inst.baseUrl}/storage/containers?filter=${encodeURIComponent('is_default eq true')}`, {
        headers: { authorization: `Bearer ${inst.token}` },
      });
      if (!res.ok) return undefined;
      // A JSON body of the list route (checked against the document by the API tests of that route).
      const list = (await res.json()) as ContainerList;
      return list.items?.[0]?.container_sid;
    },
    { ignoreErrors: true, everyMs: 200 },
  );
}

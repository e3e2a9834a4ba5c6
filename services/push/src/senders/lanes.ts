import type { Logger } from '@patchbay/platform';
import type { JobResult } from './job-result';

/** Fewest devices worth a lane of their own: a smaller send stays on one. */
export const MIN_SLICE = 25;

let senders = 0;

/**
 * A new sender's home lane (a counter; taken modulo the lanes where used): its sends start there,
 * so a small send always takes the same lane and an application keeps one connection per lane it
 * has needed — one, unless its sends are large.
 */
export function nextHome(): number {
  return senders++;
}

/**
 * `items` cut into contiguous slices, one per lane from the home lane on, none smaller than
 * MIN_SLICE (but the only one): a send of 100 on 4 lanes is 4 slices of 25, on lanes home … home+3.
 */
export function planLanes<T>(items: T[], lanes: number, home: number): Array<{ lane: number; items: T[] }> {
  const count = Math.max(1, Math.min(lanes, Math.floor(items.length / MIN_SLICE)));
  const size = Math.ceil(items.length / count);
  const out: Array<{ lane: number; items: T[] }> = [];
  for (let i = 0; i < count && i * size < items.length; i++)
    out.push({ lane: (home + i) % lanes, items: items.slice(i * size, (i + 1) * size) });
  return out;
}

/** Logs what a job reports: its retries, and the devices that ended as provider_error (first 10 SIDs). */
export function logJob(
  log: Logger,
  provider: 'FCM' | 'APNs',
  fields: Record<string, unknown>,
  r: JobResult,
  sidsAt: (index: number) => string[],
): void {
  for (const retry of r.retries)
    log.warn(
      { ...fields, retry: retry.n, devices: retry.devices, detail: retry.detail },
      `${provider} transient failure, retrying`,
    );
  if (r.failed)
    log.warn(
      {
        ...fields,
        devices: r.failed.indexes.length,
        device_sids: r.failed.indexes.flatMap(sidsAt).slice(0, 10),
        detail: r.failed.detail,
      },
      `${provider} delivery failed`,
    );
}

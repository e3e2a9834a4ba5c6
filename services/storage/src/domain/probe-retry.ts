import type { FileDoc } from './documents';

/** How a media probe that failed is retried (STORAGE_PROBE_RETRY_MS, STORAGE_PROBE_RETRY_MAX_MS). */
export interface ProbeRetry {
  /** Wait before the first retry; each later one waits twice the one before. */
  firstMs: number;
  /** The longest wait between two attempts. */
  maxMs: number;
}

/** Milliseconds to wait after the `failures`-th failed attempt (1 for the first): first, doubling, capped. */
export function probeRetryDelayMs(failures: number, r: ProbeRetry): number {
  const n = Math.max(1, Math.floor(failures));
  // 2 ** 40 ms is decades: capping the exponent keeps the product finite.
  return Math.min(r.firstMs * 2 ** Math.min(n - 1, 40), r.maxMs);
}

/** A file of a type worth probing for its duration. */
export function isMediaMime(mime: string): boolean {
  return mime.startsWith('audio/') || mime.startsWith('video/');
}

/**
 * Nothing left to probe: the file has its duration, or a probe showed it is not media (either way a queued probe
 * of it is done).
 */
export function probeSettled(f: Pick<FileDoc, 'content_duration' | 'media_probe' | 'mime_type'>): boolean {
  return typeof f.content_duration === 'number' || f.media_probe === 'not_media' || !isMediaMime(f.mime_type);
}

import { CopyCacheClient, COPY_RENEW_MS, UnavailableError, type TranscodeRequest } from '@patchbay/contracts';
import type { Bus, Logger } from '@patchbay/platform';
import { convert, type JobDeps } from './convert';
import { LimiterFullError } from './limiter';
import type { RunKind } from './metrics';

export interface DownloadCopyDeps {
  /** Download-time work's own limiter (slots and a bounded queue) and CPU priority. */
  jobs: JobDeps;
  bus: Bus;
  log: Logger;
  /** Aborted when the replica stops (see service.ts). */
  stopping: AbortSignal;
  measured: <T>(kind: RunKind, work: () => Promise<T>) => Promise<T>;
  /** Counts a request that joined a run already going for the same copy. */
  onCoalesced: () => void;
}

/**
 * Download-time copies (`svc.transcoder.media.transcode`). Identical requests (same output key: same
 * file, format and bitrate) share one ffmpeg run in this replica; across replicas storage's claims
 * see to it that only one replica is asked (messages/copies.ts). While a request waits for a slot or
 * runs, its claim is renewed, so the file server asking knows this transcoder is alive; the stored
 * copy is reported under the claim (storage counts it against the cache's budget). When the
 * replica's queue of waiting download-time runs is full the request is refused at once: 503 with a
 * Retry-After from the recent run time, never an unbounded wait.
 */
export function downloadCopies(deps: DownloadCopyDeps): (req: TranscodeRequest) => Promise<number> {
  const flights = new Map<string, Promise<number>>();
  const storage = new CopyCacheClient(deps.bus, { timeoutMs: 5000 });
  /** Recent seconds per run (moving average), for Retry-After. */
  let meanSeconds = 2;

  const run = (req: TranscodeRequest): Promise<number> => {
    const started = Date.now();
    const flight = deps
      .measured('download', () => convert(deps.jobs, req, { cacheCopy: true, signal: deps.stopping }))
      .then(({ size }) => {
        meanSeconds = 0.8 * meanSeconds + 0.2 * ((Date.now() - started) / 1000);
        return size;
      })
      .finally(() => flights.delete(req.output_key));
    flights.set(req.output_key, flight);
    return flight;
  };

  return async (req) => {
    const token = req.claim_token;
    const renew = token
      ? setInterval(() => {
          storage.renew({ key: req.output_key, token }).catch((err: unknown) => {
            deps.log.warn(
              { key: req.output_key, err: err instanceof Error ? err.message : String(err) },
              'claim of a copy not renewed',
            );
          });
        }, COPY_RENEW_MS)
      : undefined;
    try {
      const joined = flights.get(req.output_key);
      if (joined) deps.onCoalesced();
      const size = await (joined ?? run(req));
      if (token)
        await storage.stored({ key: req.output_key, token, size }).catch((err: unknown) => {
          deps.log.warn(
            { key: req.output_key, err: err instanceof Error ? err.message : String(err) },
            'stored copy not reported to storage',
          );
        });
      return size;
    } catch (err) {
      if (!(err instanceof LimiterFullError)) throw err;
      const slots = Math.max(1, deps.jobs.limiter.active);
      const retryAfterSeconds = Math.min(60, Math.max(1, Math.ceil((meanSeconds * (err.waiting + 1)) / slots)));
      throw new UnavailableError({
        message: 'too many download-time transcodes are waiting; try again shortly',
        retryAfterSeconds,
      });
    } finally {
      clearInterval(renew);
    }
  };
}

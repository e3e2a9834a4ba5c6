import {
  CopyCacheClient,
  type LiveStartReply,
  COPY_RENEW_MS,
  COPY_USE_MS,
  TranscoderClient,
  UnavailableError,
  type CopyClaimReply,
  type TranscodeRequest,
} from '@patchbay/contracts';
import { randomUUID } from 'node:crypto';
import type { Bus, Logger } from '@patchbay/platform';
import { LiveReader } from './live-reader';

export interface CopyMakerDeps {
  bus: Bus;
  /** How long a download waits for its copy (TRANSCODE_TIMEOUT_MS). */
  transcodeTimeoutMs: number;
  log: Logger;
}

/** What the transcoder is asked for (the claim is added here). */
export type CopyRequest = Omit<TranscodeRequest, 'claim_token'>;

/** A transcoder that answers 503 is stopping, or its queue is full: that many more asks (another may take it). */
const TRANSCODE_RETRIES = 2;
/** How often a download waiting for a copy another is making asks whether it is ready. */
const BUSY_POLL_MS = 400;

type Outcome = { size: number } | { claim: CopyClaimReply };

/**
 * Download-time copies, made once: identical requests in this replica share one wait, and storage's
 * claims (messages/copies.ts) let one caller across every replica have the copy made while the
 * others wait for it. While its transcoder works, the claim's lease is watched: a lease that runs
 * out means that transcoder died, and the copy is asked of another at once (docs/security.md, "Transcoding capacity")
 * instead of waiting out TRANSCODE_TIMEOUT_MS for an answer that cannot come.
 */
export class CopyMaker {
  private readonly flights = new Map<string, Promise<number>>();
  private readonly touched = new Map<string, number>();
  private readonly storage: CopyCacheClient;

  constructor(private readonly deps: CopyMakerDeps) {
    this.storage = new CopyCacheClient(deps.bus);
  }

  /** The size of the copy at `req.output_key` once it is in the blob store, having it made if need be. */
  copy(req: CopyRequest, fileSid: string, requestId: string): Promise<number> {
    const key = req.output_key;
    let flight = this.flights.get(key);
    if (!flight) {
      flight = this.make(req, fileSid, requestId).finally(() => this.flights.delete(key));
      this.flights.set(key, flight);
    }
    return flight;
  }

  /**
   * A copy to send as it is made (decisions §53): its size when it is stored already (send it as a
   * stored copy), or its bytes as the transcoder makes them — joining the run another download
   * started, in this replica or any other, where there is one: one ffmpeg per copy, however many
   * listen.
   */
  async live(req: CopyRequest, fileSid: string, requestId: string): Promise<{ size: number } | { stream: LiveReader }> {
    const deadline = Date.now() + this.deps.transcodeTimeoutMs;
    const transcoders = new TranscoderClient(this.deps.bus, { requestId });
    const claimIt = () => this.storage.claim({ key: req.output_key, file_sid: fileSid }, { requestId });
    const listener = randomUUID();
    const join = async (subject: string) => {
      const reader = new LiveReader(this.deps.bus, subject, req.output_key, listener, requestId);
      return (await reader.open(deadline)) ? reader : null;
    };
    let claim = await claimIt().catch((err: unknown) => {
      if (err instanceof UnavailableError) return null;
      throw err;
    });
    // No storage that keeps the cache (an older one during an upgrade): made whole, as before.
    if (!claim) return { size: await this.copy(req, fileSid, requestId) };
    let refused = 0;
    for (;;) {
      if (claim.state === 'ready') return { size: claim.size };
      if (Date.now() >= deadline)
        throw new UnavailableError({
          message: 'the transcoded copy is not ready yet; try again shortly',
          retryAfterSeconds: 5,
        });
      if (claim.state === 'busy') {
        const joined = claim.live ? await join(claim.live) : null;
        if (joined) return { stream: joined };
        await sleep(BUSY_POLL_MS);
        claim = await claimIt();
        continue;
      }
      const token = claim.token;
      let started: LiveStartReply;
      try {
        started = await transcoders.stream(
          { ...req, claim_token: token, listener },
          { timeoutMs: Math.max(1000, deadline - Date.now()) },
        );
      } catch (err) {
        await this.storage.release({ key: req.output_key, token }).catch(() => undefined);
        if (!(err instanceof UnavailableError) || refused++ >= TRANSCODE_RETRIES) throw err;
        await sleep(50 * refused);
        claim = await claimIt();
        continue;
      }
      if ('size' in started) return { size: started.size };
      const joined = await join(started.live);
      if (joined) return { stream: joined };
      // The run went between its start and the first pull (its transcoder died): asked again.
      claim = await claimIt();
    }
  }

  /**
   * A copy is being read: storage does not evict it for COPY_USE_MS. Said at most every third of
   * that per copy (a player's many ranges are one use); a long download says it again (serve-file).
   */
  used(key: string): void {
    const now = Date.now();
    if ((this.touched.get(key) ?? 0) > now - COPY_USE_MS / 3) return;
    if (this.touched.size >= 10_000) this.touched.clear();
    this.touched.set(key, now);
    this.storage.used({ keys: [key] }).catch((err: unknown) => {
      this.deps.log.debug({ key, err: err instanceof Error ? err.message : String(err) }, 'use of a copy not recorded');
    });
  }

  private async make(req: CopyRequest, fileSid: string, requestId: string): Promise<number> {
    const deadline = Date.now() + this.deps.transcodeTimeoutMs;
    const transcoders = new TranscoderClient(this.deps.bus, { requestId });
    const claimIt = () => this.storage.claim({ key: req.output_key, file_sid: fileSid }, { requestId });
    let claim: CopyClaimReply;
    try {
      claim = await claimIt();
    } catch (err) {
      // No storage that keeps the cache (an older one during an upgrade): made as before, uncoordinated.
      if (!(err instanceof UnavailableError)) throw err;
      return this.unclaimed(transcoders, req, deadline);
    }
    let refused = 0;
    for (;;) {
      if (claim.state === 'ready') return claim.size;
      if (Date.now() >= deadline)
        throw new UnavailableError({
          message: 'the transcoded copy is not ready yet; try again shortly',
          retryAfterSeconds: 5,
        });
      if (claim.state === 'busy') {
        await sleep(BUSY_POLL_MS);
        claim = await claimIt();
        continue;
      }
      const token = claim.token;
      const answer = transcoders.transcode({ ...req, claim_token: token }, { timeoutMs: deadline - Date.now() });
      const outcome = await this.watch(answer, claimIt, req.output_key);
      if ('size' in outcome) return outcome.size;
      if ('claim' in outcome) {
        claim = outcome.claim;
        continue;
      }
      // The transcoder said no: the lease goes back, then another replica may be asked.
      await this.storage.release({ key: req.output_key, token }).catch(() => undefined);
      const err = outcome.err;
      if (!(err instanceof UnavailableError) || refused++ >= TRANSCODE_RETRIES) throw err;
      await sleep(50 * refused);
      claim = await claimIt();
    }
  }

  /**
   * Waits for the transcoder's answer, asking storage every COPY_RENEW_MS meanwhile: `busy` is the
   * lease still renewed (the transcoder is alive), `yours` a lease that ran out and is now this
   * caller's again (the transcoder died: ask another), `ready` the copy stored (its answer lost).
   */
  private async watch(
    answer: Promise<{ size: number }>,
    claimIt: () => Promise<CopyClaimReply>,
    key: string,
  ): Promise<Outcome | { err: unknown }> {
    const settled = answer.then(
      ({ size }) => ({ size }),
      (err: unknown) => ({ err }),
    );
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const tick = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), COPY_RENEW_MS);
      });
      const first = await Promise.race([settled, tick]);
      clearTimeout(timer);
      if (first) return first;
      const claim = await claimIt().catch(() => ({ state: 'busy' }) as const);
      if (claim.state === 'busy') continue;
      if (claim.state === 'yours')
        this.deps.log.warn({ key }, 'the transcoder making a copy stopped answering: asking another');
      return { claim };
    }
  }

  /** Without storage's claims: one transcoder asked, another on a 503 (stopping, or a full queue). */
  private async unclaimed(transcoders: TranscoderClient, req: CopyRequest, deadline: number): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await transcoders.transcode(req, { timeoutMs: Math.max(1000, deadline - Date.now()) })).size;
      } catch (err) {
        if (!(err instanceof UnavailableError) || attempt >= TRANSCODE_RETRIES) throw err;
        await sleep(50 * (attempt + 1));
      }
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Blob store on Google Cloud Storage (`@google-cloud/storage` 7).
 *
 * A put is one resumable upload: the library opens the session (authentication, retries), then the
 * body streams in one PUT (session-upload.ts says why that PUT is ours). GCS creates the object only
 * when that PUT completes, so readers see the old object or the new one, never a part; a failed put
 * aborts its PUT and cancels its session, so nothing of it survives. The CRC32C GCS computed for the
 * new object is compared with the bytes sent, and full reads are checked against it too.
 * Ranged reads send the range to GCS; a 416 is followed by a metadata read for the size the port's
 * RangeNotSatisfiableError carries.
 */
import type { Readable } from 'node:stream';
import { Storage, type Bucket } from '@google-cloud/storage';
import { RangeNotSatisfiableError } from '@patchbay/contracts';
import {
  assertKey,
  normalizeKeyPrefix,
  BlobStoreUnavailableError,
  fieldOf,
  resolveRange,
  type BlobStat,
  type BlobStore,
  type ByteRange,
  type OutboundAgents,
} from '@patchbay/platform';
import { GOOGLE_ENDPOINT, storageOptions, type GcsBlobStoreOptions } from './gcs-options';
import { readGcsError, translateGcsError, type GcsTarget } from './gcs-errors';
import { guardedTransport } from './guarded-transport';
import { openedStream } from './opened-stream';
import { cancelSession, putToSession, type SessionResult } from './session-upload';
import { SourceFailure } from './source-failure';

type InterceptedRequest = ReturnType<Storage['interceptors'][number]['request']>;

export class GcsBlobStore implements BlobStore {
  private readonly bucket: Bucket;
  private readonly prefix: string;
  private readonly target: GcsTarget;
  private readonly pageSize: number;
  private readonly timeoutMs: number;
  private readonly agents: OutboundAgents;

  /** Throws BlobStoreUnavailableError('invalid_config') for options that cannot work; makes no request. */
  constructor(opts: GcsBlobStoreOptions) {
    const storage = new Storage(storageOptions(opts));
    const timeout = opts.timeoutMs ?? 30_000;
    const endpoint = opts.endpoint?.replace(/\/+$/, '') ?? GOOGLE_ENDPOINT;
    this.agents = guardedTransport(endpoint, opts.allowPrivateAddresses ?? false);
    const agent = endpoint.startsWith('https:') ? this.agents.https : this.agents.http;
    // The Storage `timeout` reaches JSON API calls only; resumable session requests (gaxios) take it
    // from request interceptors, or have none and hang on a silent server. gaxios also takes the
    // guarded agent and follows no redirect from here (teeny-request ignores both: guarded-transport.ts).
    storage.interceptors.push({
      // why: the library's own typing says the options change type here; they are the same object.
      request: (reqOpts) =>
        Object.assign(reqOpts, {
          timeout: reqOpts.timeout || timeout,
          agent,
          maxRedirects: 0,
        }) as unknown as InterceptedRequest,
    });
    this.bucket = storage.bucket(opts.bucket);
    this.prefix = normalizeKeyPrefix(opts.prefix);
    this.target = { bucket: opts.bucket, endpoint };
    this.pageSize = Math.min(opts.pageSize ?? 1000, 1000);
    this.timeoutMs = timeout;
  }

  /** Errors of `body` itself reject the put unchanged; storage errors are translated. */
  async put(key: string, body: Readable): Promise<{ size: number }> {
    assertKey(key);
    const file = this.bucket.file(this.prefix + key);
    let session: string;
    try {
      [session] = await file.createResumableUpload({ metadata: { contentType: 'application/octet-stream' } });
    } catch (err) {
      throw translateGcsError(err, this.target);
    }
    let sent: SessionResult;
    try {
      sent = await putToSession(session, body, this.timeoutMs, this.agents);
    } catch (err) {
      await cancelSession(session, this.agents);
      throw err instanceof SourceFailure ? err.err : translateGcsError(err, this.target);
    }
    if (sent.status >= 300) {
      await cancelSession(session, this.agents);
      throw translateGcsError({ code: sent.status, response: { status: sent.status, data: sent.body } }, this.target);
    }
    if (fieldOf(sent.body, 'crc32c') !== sent.crc32c) {
      // GCS stored other bytes than were sent: remove them rather than serve them.
      await file.delete({ ifGenerationMatch: Number(fieldOf(sent.body, 'generation')) }).catch(() => undefined);
      throw new BlobStoreUnavailableError({
        reason: 'provider_error',
        message: 'the storage returned data that does not match its checksum',
      });
    }
    return { size: sent.size };
  }

  /** The caller must read the stream to its end or destroy it: it holds an HTTP response. */
  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertKey(key);
    if (range) resolveRange(range, Infinity); // a malformed range is a BadRequestError before any request
    const file = this.bucket.file(this.prefix + key);
    // A range is checked by CRC32C only as a whole object: the library refuses validation on ranges.
    const src = file.createReadStream(
      range ? { start: range.start, end: range.end, validation: false } : { validation: 'crc32c' },
    );
    const unsatisfiable = (err: unknown) => range !== undefined && readGcsError(err).status === 416;
    try {
      return await openedStream(
        src,
        (err) => (unsatisfiable(err) ? err : translateGcsError(err, this.target, key)),
        this.timeoutMs,
      );
    } catch (err) {
      if (unsatisfiable(err)) throw new RangeNotSatisfiableError({ size: (await this.stat(key)).size });
      throw err;
    }
  }

  async stat(key: string): Promise<BlobStat> {
    assertKey(key);
    try {
      const [meta] = await this.bucket.file(this.prefix + key).getMetadata();
      return { size: Number(meta.size ?? 0), modified: new Date(meta.updated ?? meta.timeCreated ?? 0) };
    } catch (err) {
      throw translateGcsError(err, this.target, key);
    }
  }

  /** Idempotent: a 404 for the object (not for the bucket) is success. */
  async delete(key: string): Promise<void> {
    assertKey(key);
    try {
      await this.bucket.file(this.prefix + key).delete();
    } catch (err) {
      const translated = translateGcsError(err, this.target, key);
      if (translated.status !== 404) throw translated;
    }
  }

  /** Keys under `prefix`, in GCS's (byte) order, a page (default 1000) at a time. */
  async *list(prefix: string): AsyncIterable<string> {
    if (prefix !== '') assertKey(prefix.replace(/\/$/, ''));
    let pageToken: string | undefined;
    do {
      const [files, next] = await this.bucket
        .getFiles({ prefix: this.prefix + prefix, autoPaginate: false, maxResults: this.pageSize, pageToken })
        .catch((err: unknown) => {
          throw translateGcsError(err, this.target);
        });
      for (const f of files) yield f.name.slice(this.prefix.length);
      const token = fieldOf(next, 'pageToken');
      pageToken = typeof token === 'string' ? token : undefined;
    } while (pageToken);
  }
}

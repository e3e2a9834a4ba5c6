/**
 * Blob store on Azure Blob Storage (`@azure/storage-blob` 12.32), block blobs.
 *
 * A put stages the body as blocks (`concurrency` at a time, bounded buffers) and commits the block
 * list at the end: Azure makes the new blob visible only at that commit, so readers see the old blob
 * or the new one, never a part. A failed put never commits; its staged blocks are invisible and
 * Azure discards uncommitted blocks by itself (after a week). putFile stages blocks read straight
 * from the file, in parallel. Ranges are sent to Azure; a 416 is followed by a properties read for
 * the size the port's RangeNotSatisfiableError carries. Every request has a client-side time limit
 * until its answer begins (azure-options.ts).
 */
import { stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ContainerClient } from '@azure/storage-blob';
import { RangeNotSatisfiableError } from '@patchbay/contracts';
import {
  assertKey,
  normalizeKeyPrefix,
  resolveRange,
  type BlobStat,
  type BlobStore,
  type ByteRange,
} from '@patchbay/platform';
import { containerClient, type AzureBlobStoreOptions } from './azure-options';
import { httpStatus, translateAzureError, type AzureTarget } from './azure-errors';
import { translatedStream } from './translated-stream';

const MiB = 1024 * 1024;
const CONTENT_TYPE = { blobContentType: 'application/octet-stream' };

export class AzureBlobStore implements BlobStore {
  private readonly container: ContainerClient;
  private readonly prefix: string;
  private readonly target: AzureTarget;
  private readonly blockSize: number;
  private readonly concurrency: number;
  private readonly pageSize: number;

  /** Throws BlobStoreUnavailableError('invalid_config') for options that cannot work; makes no request. */
  constructor(opts: AzureBlobStoreOptions) {
    const { client, endpoint } = containerClient(opts);
    this.container = client;
    this.prefix = normalizeKeyPrefix(opts.prefix);
    this.target = { container: opts.container, endpoint };
    this.blockSize = opts.blockSize ?? 4 * MiB;
    this.concurrency = opts.concurrency ?? 2;
    this.pageSize = Math.min(opts.pageSize ?? 5000, 5000);
  }

  /** Errors of `body` itself reject the put unchanged; storage errors are translated. */
  async put(key: string, body: Readable): Promise<{ size: number }> {
    assertKey(key);
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const abort = new AbortController(); // cancels blocks in flight once the put has failed
    // The first failure is the put's error: the body's own (unchanged), or the storage's (translated).
    let sourceFailure: { err: unknown } | undefined;
    let storageFailure: { err: unknown } | undefined;
    body.once('error', (err) => {
      if (!storageFailure) sourceFailure ??= { err };
    });
    body.once('close', () => {
      if (!storageFailure && !body.readableEnded)
        sourceFailure ??= { err: new Error('the body stream closed before its end') };
    });
    const pumping = pipeline(body, counted);
    const uploading = this.container
      .getBlockBlobClient(this.prefix + key)
      .uploadStream(counted, this.blockSize, this.concurrency, {
        abortSignal: abort.signal,
        blobHTTPHeaders: CONTENT_TYPE,
      })
      .catch((err: unknown) => {
        storageFailure ??= { err };
        counted.destroy(); // stops the pump, and with it the caller's body
        throw err;
      });
    const [pumped] = await Promise.allSettled([
      pumping.catch((err: unknown) => {
        abort.abort();
        throw err;
      }),
      uploading,
    ]);
    if (sourceFailure) throw sourceFailure.err;
    if (storageFailure) throw translateAzureError(storageFailure.err, this.target);
    if (pumped.status === 'rejected') throw pumped.reason;
    return { size };
  }

  /**
   * Blocks read straight from the file, `concurrency` at a time. A missing or unreadable file
   * rejects with the file system's error and leaves nothing.
   */
  async putFile(key: string, file: string): Promise<{ size: number }> {
    assertKey(key);
    const blob = this.container.getBlockBlobClient(this.prefix + key);
    const { size } = await stat(file);
    try {
      await blob.uploadFile(file, {
        blockSize: this.blockSize,
        concurrency: this.concurrency,
        maxSingleShotSize: this.blockSize,
        blobHTTPHeaders: CONTENT_TYPE,
      });
    } catch (err) {
      throw translateAzureError(err, this.target);
    }
    return { size };
  }

  /** The caller must read the stream to its end or destroy it: it holds an HTTP response. */
  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertKey(key);
    if (range) resolveRange(range, Infinity); // a malformed range is a BadRequestError before any request
    const blob = this.container.getBlobClient(this.prefix + key);
    try {
      const res = await blob.download(range?.start ?? 0, range ? range.end - range.start + 1 : undefined, {
        maxRetryRequests: 3,
      });
      const body = res.readableStreamBody!;
      // Azure answers a range at or past the end with 416; Azurite with an empty 206 ("bytes 1000-999/1000",
      // "bytes 0--1/0"). Either way the size is in Content-Range.
      const served = /^bytes (\d+)-(-?\d+)\/(\d+)$/.exec(res.contentRange ?? '');
      if (range && served && (Number(served[2]) < Number(served[1]) || Number(served[1]) >= Number(served[3]))) {
        if (body instanceof Readable) body.destroy();
        throw new RangeNotSatisfiableError({ size: Number(served[3]) });
      }
      return translatedStream(body, (err) => translateAzureError(err, this.target));
    } catch (err) {
      if (range && httpStatus(err) === 416) throw new RangeNotSatisfiableError({ size: (await this.stat(key)).size });
      throw translateAzureError(err, this.target, key);
    }
  }

  async stat(key: string): Promise<BlobStat> {
    assertKey(key);
    try {
      const props = await this.container.getBlobClient(this.prefix + key).getProperties();
      return { size: props.contentLength ?? 0, modified: props.lastModified ?? new Date(0) };
    } catch (err) {
      throw translateAzureError(err, this.target, key);
    }
  }

  /** Idempotent: a missing blob (not a missing container) is success. */
  async delete(key: string): Promise<void> {
    assertKey(key);
    try {
      await this.container.getBlobClient(this.prefix + key).deleteIfExists({ deleteSnapshots: 'include' });
    } catch (err) {
      throw translateAzureError(err, this.target);
    }
  }

  /** Keys under `prefix`, in Azure's (name) order, a page (default 5000) at a time. */
  async *list(prefix: string): AsyncIterable<string> {
    if (prefix !== '') assertKey(prefix.replace(/\/$/, ''));
    const pages = this.container.listBlobsFlat({ prefix: this.prefix + prefix }).byPage({ maxPageSize: this.pageSize });
    for (;;) {
      let page: Awaited<ReturnType<typeof pages.next>>;
      try {
        page = await pages.next();
      } catch (err) {
        throw translateAzureError(err, this.target);
      }
      if (page.done) return;
      for (const item of page.value.segment.blobItems) yield item.name.slice(this.prefix.length);
    }
  }
}

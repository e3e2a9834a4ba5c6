/**
 * Blob store on Amazon S3 or an S3-compatible server (AWS SDK v3).
 *
 * A put streams through `@aws-sdk/lib-storage`: a body smaller than one part is a single PutObject,
 * a larger one a multipart upload holding at most `queueSize + 1` parts in memory. S3 makes an object
 * visible only when its PutObject or CompleteMultipartUpload succeeds, so readers see the old object
 * or the new one, never a part; a failed put aborts its multipart upload (a bucket lifecycle rule
 * "abort incomplete multipart uploads" cleans up after a crash, which this store cannot see).
 * A ranged read is one GET with the range: S3 answers an unsatisfiable range with 416 and the
 * object's size, a satisfiable one with the size in Content-Range.
 */
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
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
} from '@patchbay/platform';
import { s3ClientConfig, type S3BlobStoreOptions } from './s3-options';
import { bucketMissing, translateS3Error, type S3Target } from './s3-errors';
import { translatedStream, type Window } from './translated-stream';

const MiB = 1024 * 1024;

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly target: S3Target;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly pageSize: number;

  /** Throws BlobStoreUnavailableError('invalid_config') for options that cannot work; makes no request. */
  constructor(opts: S3BlobStoreOptions) {
    const config = s3ClientConfig(opts);
    this.client = new S3Client(config);
    this.bucket = opts.bucket;
    this.prefix = normalizeKeyPrefix(opts.prefix);
    const region = config.region as string;
    this.target = { bucket: opts.bucket, region, endpoint: opts.endpoint ?? `https://s3.${region}.amazonaws.com` };
    this.partSize = Math.max(opts.partSize ?? 8 * MiB, 5 * MiB); // S3's minimum part size
    this.queueSize = opts.queueSize ?? 2;
    this.pageSize = Math.min(opts.pageSize ?? 1000, 1000);
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
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.prefix + key, Body: counted, ContentType: 'application/octet-stream' },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false, // abort the multipart upload on any failure
    });
    // Whichever fails first is the put's error: the body (its own error, unchanged) or the storage
    // (translated). The other side then fails too, as a consequence; lib-storage may even report its
    // abort instead of the body's error.
    let storageFailure: { err: unknown } | undefined;
    let sourceFailure: { err: unknown } | undefined;
    body.once('error', (err) => {
      if (!storageFailure) sourceFailure ??= { err };
    });
    body.once('close', () => {
      if (!storageFailure && !body.readableEnded)
        sourceFailure ??= { err: new Error('the body stream closed before its end') };
    });
    const pumping = pipeline(body, counted);
    const uploading = upload.done().catch((err: unknown) => {
      storageFailure ??= { err };
      counted.destroy(); // stops the pump, and with it the caller's body
      throw err;
    });
    const [pumped] = await Promise.allSettled([pumping, uploading]);
    if (sourceFailure) throw sourceFailure.err;
    if (storageFailure) throw translateS3Error(storageFailure.err, this.target);
    if (pumped.status === 'rejected') throw pumped.reason;
    return { size };
  }

  /** The caller must read the stream to its end or destroy it: it holds an HTTP response. */
  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertKey(key);
    if (range) resolveRange(range, Infinity); // a malformed range is a BadRequestError before any request
    let out: GetObjectCommandOutput;
    try {
      out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.prefix + key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
    } catch (err) {
      if (fieldOf(err, 'name') === 'InvalidRange') {
        // S3 says how big the object is; a server that does not gets a HEAD.
        const actual = Number(fieldOf(err, 'ActualObjectSize'));
        throw new RangeNotSatisfiableError({
          size: Number.isSafeInteger(actual) ? actual : (await this.stat(key)).size,
        });
      }
      throw translateS3Error(err, this.target, key);
    }
    const body = out.Body;
    // In Node the SDK's body is the HTTP response, a Readable; anything else is a broken answer.
    if (!(body instanceof Readable))
      throw translateS3Error(new Error('the storage sent no readable body'), this.target);
    try {
      return translatedStream(body, (err) => translateS3Error(err, this.target), range && this.window(range, out));
    } catch (err) {
      body.destroy();
      throw err;
    }
  }

  async stat(key: string): Promise<BlobStat> {
    assertKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
      return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
    } catch (err) {
      if (fieldOf(err, 'name') === 'NotFound') await this.assertBucket();
      throw translateS3Error(err, this.target, key);
    }
  }

  /** Idempotent: S3 answers 204 for a missing key. */
  async delete(key: string): Promise<void> {
    assertKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
    } catch (err) {
      throw translateS3Error(err, this.target);
    }
  }

  /** Keys under `prefix`, in S3's (byte) order, a page (default 1000) at a time. */
  async *list(prefix: string): AsyncIterable<string> {
    if (prefix !== '') assertKey(prefix.replace(/\/$/, ''));
    let token: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + prefix,
            ContinuationToken: token,
            MaxKeys: this.pageSize,
          }),
        )
        .catch((err: unknown) => {
          throw translateS3Error(err, this.target);
        });
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key.slice(this.prefix.length);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's sockets. */
  async close(): Promise<void> {
    this.client.destroy();
  }

  /**
   * The port's range within what the server sent, or undefined when it sent exactly that. The
   * object's size comes with the answer (after the slash of a 206's Content-Range; a 200 is the
   * whole object), so the port's rules apply without a HEAD. A server may send more than asked:
   * HTTP lets it ignore Range (a 200), and s3rver 3.7 reads `bytes=0-0` as "from 0 to the end".
   */
  private window(range: ByteRange, out: GetObjectCommandOutput): Window | undefined {
    const partial = out.$metadata.httpStatusCode === 206;
    const served = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(out.ContentRange ?? '');
    if (partial && !served)
      throw new BlobStoreUnavailableError({
        reason: 'provider_error',
        message: `the storage sent an unreadable Content-Range '${out.ContentRange ?? ''}'`,
      });
    const size = served ? Number(served[3]) : (out.ContentLength ?? 0);
    const r = resolveRange(range, size)!; // RangeNotSatisfiableError(size) when the range starts at or past the end
    const [from, to] = served ? [Number(served[1]), Number(served[2])] : [0, size - 1];
    if (from === r.start && to === r.end) return undefined;
    if (from > r.start || to < r.end) {
      throw new BlobStoreUnavailableError({
        reason: 'provider_error',
        message: `the storage sent bytes ${from}-${to} for a request of bytes ${r.start}-${r.end}`,
      });
    }
    return { skip: r.start - from, take: r.end - r.start + 1 };
  }

  /**
   * A HEAD of a missing object and of an object in a missing bucket are the same bodiless 404;
   * HeadBucket tells them apart. Anything but "no such bucket" leaves the 404 an object's.
   */
  private async assertBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const name = fieldOf(err, 'name');
      if (name === 'NotFound' || name === 'NoSuchBucket') throw bucketMissing(this.target, err);
    }
  }
}

/**
 * Blob store in MongoDB GridFS: each put is a new GridFS file (a "revision") named by the key.
 *
 * Atomicity comes from GridFS itself: chunks are written first and the files-document last, and
 * readers only look at files-documents, so a put becomes visible whole or not at all. Readers always
 * take the newest revision. Older revisions are deleted after the put, once a grace period has let
 * readers that opened them finish (deleting a revision mid-read would cut that reader's stream).
 * A failed put aborts its upload, deleting the chunks already written.
 */
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import {
  GridFSBucket,
  MongoError,
  ObjectId,
  type Collection,
  type Db,
  type Document,
  type Filter,
  type GridFSBucketWriteStream,
  type GridFSFile,
} from 'mongodb';
import { NotFoundError, errorItem } from '@patchbay/contracts';
import type { BlobStat, BlobStore, ByteRange } from './port';
import { assertKey, resolveRange } from './blob-checks';
import { translateMongoError } from '../doc-store/mongo-errors';
import { byteChunks } from './byte-chunks';

export interface GridfsBlobStoreOptions {
  /** The database holding the bucket; its client stays the caller's to close. */
  db: Db;
  /** Bucket name: collections `<bucketName>.files` and `<bucketName>.chunks`. Default `fs`. */
  bucketName?: string;
  /** How long an overwritten revision survives for readers already streaming it. Default 60 s. */
  revisionGraceMs?: number;
}

export class GridfsBlobStore implements BlobStore {
  private readonly bucket: GridFSBucket;
  private readonly files: Collection<GridFSFile>;
  private readonly chunks: Collection<Document>;
  private readonly graceMs: number;
  /** Scheduled deletions of overwritten revisions; run at once on close. */
  private readonly retiring = new Map<NodeJS.Timeout, () => Promise<void>>();

  constructor(opts: GridfsBlobStoreOptions) {
    const bucketName = opts.bucketName ?? 'fs';
    this.bucket = new GridFSBucket(opts.db, { bucketName });
    this.files = opts.db.collection<GridFSFile>(`${bucketName}.files`);
    this.chunks = opts.db.collection(`${bucketName}.chunks`);
    this.graceMs = opts.revisionGraceMs ?? 60_000;
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    assertKey(key);
    return guard(async () => {
      const upload = this.bucket.openUploadStream(key);
      upload.on('error', () => undefined); // seen through the write callbacks; never an unhandled 'error'
      let draining: Promise<void> | undefined;
      try {
        await pipeline(body, (source: AsyncIterable<Buffer | string>) => (draining = drain(source, upload)));
      } catch (err) {
        // Only abort once no chunk insert is in flight, or a late chunk would outlive the abort.
        await draining?.catch(() => undefined);
        await upload.abort().catch(() => undefined);
        throw err;
      }
      const file = upload.gridFSFile;
      if (!file) throw new Error('GridFS upload finished without a files document');
      await this.retire(key, file);
      return { size: file.length };
    });
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = await this.newest(key);
    const r = resolveRange(range, file.length);
    // GridFS `end` is exclusive; the port's (HTTP's) is inclusive.
    const src = this.bucket.openDownloadStream(file._id, r ? { start: r.start, end: r.end + 1 } : {});
    return Readable.from(translated(src), { objectMode: false });
  }

  async stat(key: string): Promise<BlobStat> {
    const file = await this.newest(key);
    return { size: file.length, modified: file.uploadDate };
  }

  /** Removes every revision at once. */
  async delete(key: string): Promise<void> {
    assertKey(key);
    await guard(() => this.deleteRevisions({ filename: key }));
  }

  async *list(prefix: string): AsyncIterable<string> {
    const cursor = this.files.find(
      { filename: { $regex: `^${prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}` } },
      { projection: { filename: 1 }, sort: { filename: 1 } },
    );
    let last: string | undefined;
    try {
      for await (const f of cursor) {
        if (f.filename !== last) yield f.filename;
        last = f.filename;
      }
    } catch (err) {
      throw toPortError(err);
    }
  }

  /**
   * Deletes chunks older than `maxAgeMs` that belong to no files-document (an upload cut short by a
   * crash, which never got to abort). Returns how many uploads were cleaned. Run at start-up.
   */
  /** Port name of sweepOrphans. */
  sweepIncomplete(olderThanMs: number): Promise<number> {
    return this.sweepOrphans(olderThanMs);
  }

  async sweepOrphans(maxAgeMs: number): Promise<number> {
    return guard(async () => {
      const cutoff = ObjectId.createFromTime(Math.floor((Date.now() - maxAgeMs) / 1000));
      const orphans = await this.chunks
        .aggregate<{ _id: ObjectId }>([
          { $match: { files_id: { $lt: cutoff } } },
          { $group: { _id: '$files_id' } },
          { $lookup: { from: this.files.collectionName, localField: '_id', foreignField: '_id', as: 'file' } },
          { $match: { file: { $size: 0 } } },
          { $project: { _id: 1 } },
        ])
        .toArray();
      if (orphans.length > 0) await this.chunks.deleteMany({ files_id: { $in: orphans.map((o) => o._id) } });
      return orphans.length;
    });
  }

  /** Runs the pending revision deletions now. The database connection is not closed. */
  async close(): Promise<void> {
    const runs = [...this.retiring.entries()];
    this.retiring.clear();
    for (const [timer] of runs) clearTimeout(timer);
    await Promise.all(runs.map(([, run]) => run().catch(() => undefined)));
  }

  private async newest(key: string): Promise<GridFSFile> {
    assertKey(key);
    const file = await guard(() => this.files.findOne({ filename: key }, { sort: { uploadDate: -1, _id: -1 } }));
    if (!file) throw new NotFoundError({ code: 'blob_not_found', errors: [errorItem(`no blob '${key}'`, 'key')] });
    return file;
  }

  /** Deletes the revisions older than `file` now, or after the grace period. */
  private async retire(key: string, file: GridFSFile): Promise<void> {
    const older: Filter<GridFSFile> = {
      filename: key,
      $or: [{ uploadDate: { $lt: file.uploadDate } }, { uploadDate: file.uploadDate, _id: { $lt: file._id } }],
    };
    const run = () => this.deleteRevisions(older);
    if (this.graceMs <= 0) return run();
    const timer = setTimeout(() => {
      this.retiring.delete(timer);
      run().catch(() => undefined); // the next put or delete of this key removes them anyway
    }, this.graceMs);
    timer.unref();
    this.retiring.set(timer, run);
  }

  /** Files-documents first (readers stop seeing them), then their chunks. */
  private async deleteRevisions(filter: Filter<GridFSFile>): Promise<void> {
    const ids = (await this.files.find(filter, { projection: { _id: 1 } }).toArray()).map((f) => f._id);
    if (ids.length === 0) return;
    await this.files.deleteMany({ _id: { $in: ids } });
    await this.chunks.deleteMany({ files_id: { $in: ids } });
  }
}

/** Writes one chunk at a time, awaiting each: when this settles, no chunk insert is in flight. */
async function drain(source: AsyncIterable<Buffer | string>, upload: GridFSBucketWriteStream): Promise<void> {
  for await (const chunk of source) {
    await new Promise<void>((resolve, reject) => upload.write(chunk, (err) => (err ? reject(err) : resolve())));
  }
  upload.end();
  await finished(upload); // the files-document is written before 'finish'
}

async function* translated(src: Readable): AsyncGenerator<Buffer> {
  try {
    yield* byteChunks(src);
  } catch (err) {
    throw toPortError(err);
  }
}

/** Driver errors are translated; anything else (the caller's own body stream failing) passes through. */
function toPortError(err: unknown): unknown {
  return err instanceof MongoError ? translateMongoError(err, 'blob store') : err;
}

async function guard<R>(op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (err) {
    throw toPortError(err);
  }
}

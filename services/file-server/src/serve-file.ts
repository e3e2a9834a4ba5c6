import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  BITRATE_FORMATS,
  cacheBlobKey,
  isExternalBlobKey,
  mimeOfFormat,
  COPY_USE_MS,
  ConflictError,
  errorItem,
  NotFoundError,
  UnprocessableError,
  safeContentType,
  streamsWhileEncoded,
} from '@patchbay/contracts';
import { sendBlob, strongEtag, type BlobStore, type Bus } from '@patchbay/platform';
import { ACTIVE_CONTENT_HEADERS, effectiveDisposition } from './domain/active-content';
import { FILE_CORS_HEADERS } from './domain/cors';
import { contentDisposition, parseDownloadOptions, type DownloadOptions } from './domain/download-options';
import type { CopyMaker } from './copy-maker';
import type { LiveReader } from './live-reader';
import { sendLive } from './send-live';
import type { PublicFile, Resolver } from './resolver';

export interface ServeDeps {
  bus: Bus;
  blobs: BlobStore;
  resolver: Resolver;
  /** Download-time copies: made once across replicas, counted and kept by storage (copy-maker.ts). */
  copies: CopyMaker;
  /** How long a blob read for a small reply may stay open (see sendBlob). */
  keepOpenMs: number;
  /** The nginx edge's internal location for the directory blob store (`/…/`), or undefined: bytes sent from here. */
  accelPrefix?: string;
}

/**
 * The copy to serve: the stored file, or a transcoded copy when `f`/`br` ask for a change. `br` is
 * ignored unless lower than the stored file's bitrate (docs/interface-notes.md, File server and
 * ranges), and for targets whose rate is fixed or lossless (a wav at any `br` is the same wav). mp4
 * can be a target only: transcoding an mp4 file is a 422 naming the parameter that asked for it.
 */
function target(file: PublicFile, opts: DownloadOptions): { format: string; bitrate: number | null } | null {
  if (file.encrypted && (opts.format !== null || opts.bitrate !== null)) {
    // Patchbay cannot read an encrypted file: it is served only as stored (decisions §43).
    throw new ConflictError({ errors: [errorItem('the file is encrypted', 'f')] });
  }
  const format = opts.format ?? file.content_format;
  if (!format) return null;
  const lowers = opts.bitrate !== null && file.content_bitrate !== null && opts.bitrate * 1000 < file.content_bitrate;
  const bitrate = lowers && (BITRATE_FORMATS as readonly string[]).includes(format) ? opts.bitrate : null;
  if (format === file.content_format && bitrate === null) return null;
  if (file.content_format === 'mp4') {
    throw UnprocessableError.field(
      format === 'mp4' ? 'br' : 'f',
      'mp4 can be a transcoding target only: this file is mp4, so it cannot be transcoded',
    );
  }
  return { format, bitrate };
}

/**
 * `GET|HEAD {storage_url}/f/<id>`: the published file (or its transcoded copy) straight from the
 * blob store, with the headers of docs/interface-notes.md, File server and ranges. Ranges only on a
 * stored object: a transcoding request without a cached copy gets the whole result with 200.
 */
export function serveFile(deps: ServeDeps) {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
    query: Record<string, unknown>,
  ): Promise<number> => {
    const opts = parseDownloadOptions(query);
    const requestId = String(req.headers['x-request-id'] ?? '');
    const file = await deps.resolver.resolve(id, requestId);
    const want = target(file, opts);
    try {
      return await send(req, res, file, opts, want, requestId, false);
    } catch (err) {
      if (!(err instanceof NotFoundError) || res.headersSent) throw err;
      // A cached copy evicted between its stat and its read: made again, once (headers not sent yet).
      if (want) return send(req, res, file, opts, want, requestId, true);
      // The stored blob was replaced (an upload-time transcode, new data) after this replica cached the
      // answer, before the file's event reached it: send() dropped the entry; resolved afresh, once.
      const fresh = await deps.resolver.resolve(id, requestId);
      if (fresh.blob_key === file.blob_key) throw err;
      return send(req, res, fresh, opts, target(fresh, opts), requestId, false);
    }
  };

  async function send(
    req: IncomingMessage,
    res: ServerResponse,
    file: PublicFile,
    opts: DownloadOptions,
    want: { format: string; bitrate: number | null } | null,
    requestId: string,
    remake: boolean,
  ): Promise<number> {
    let key = file.blob_key;
    let size = file.file_bytes;
    let mime = safeContentType(file.mime_type);
    let rangeAllowed = true;
    let live: LiveReader | null = null;
    if (want) {
      key = cacheBlobKey(file.file_sid, want.format, want.bitrate);
      mime = mimeOfFormat(want.format) ?? mime;
      // Cached copies are stored without fsync (they can be made again); an empty one is what a
      // machine crash can leave of such a write, so it is made again rather than served.
      const cached = remake ? undefined : await deps.blobs.stat(key).catch(() => undefined);
      if (cached && cached.size > 0) {
        size = cached.size;
        keepInUse(deps.copies, key, res);
      } else {
        rangeAllowed = false;
        const copy = {
          blob_key: file.blob_key,
          source_format: file.content_format,
          target: want.format,
          bitrate: want.bitrate,
          output_key: key,
        };
        // A GET of a format that streams is sent as the copy is made; the rest (and HEAD) wait for it.
        const made =
          req.method === 'GET' && streamsWhileEncoded(want.format)
            ? await deps.copies.live(copy, file.file_sid, requestId)
            : { size: await deps.copies.copy(copy, file.file_sid, requestId) };
        if ('stream' in made) live = made.stream;
        else size = made.size;
      }
    }
    const contentType = opts.contentType ?? mime;
    const modified = new Date(file.last_modified ?? file.date_modified);
    // Given to nginx too on the X-Accel-Redirect path (its location copies them: docs/operations.md).
    const headers = {
      ...FILE_CORS_HEADERS,
      'Cache-Control': opts.cacheControl,
      'Content-Disposition': contentDisposition(
        effectiveDisposition(opts.disposition, contentType),
        opts.dispositionName,
      ),
      ...ACTIVE_CONTENT_HEADERS,
    };
    if (live)
      return sendLive(res, live, { ...headers, 'Content-Type': contentType, 'Last-Modified': modified.toUTCString() });
    return sendBlob(req, res, deps.blobs, {
      key,
      size,
      contentType,
      lastModified: modified.toUTCString(),
      // The stored bytes only: a transcoded copy made again may differ byte for byte (decisions §41).
      etag: want ? undefined : strongEtag(file.file_sid, file.blob_key, size, modified.getTime()),
      ranges: rangeAllowed,
      keepOpenMs: deps.keepOpenMs,
      // A file of an external container is not in the directory nginx reads: sent from here.
      accelRedirect: deps.accelPrefix && !isExternalBlobKey(key) ? `${deps.accelPrefix}${key}` : undefined,
      headers,
    }).catch((err: unknown) => {
      // The blob went between resolve and read (deleted): same answer as an unknown id.
      if (err instanceof NotFoundError) {
        deps.resolver.forget(file.file_sid);
        throw new NotFoundError({ message: 'Not Found' });
      }
      throw err;
    });
  }
}

/**
 * Tells storage a cached copy is being read, and again while a long reply is still being sent, so
 * the cache's eviction never takes it from under the download (storage's copy-cache.ts).
 */
function keepInUse(copies: CopyMaker, key: string, res: ServerResponse): void {
  copies.used(key);
  const again = setInterval(() => copies.used(key), COPY_USE_MS / 3);
  again.unref();
  res.once('close', () => clearInterval(again));
}

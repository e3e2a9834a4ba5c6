import { isJsonObject } from '@patchbay/platform';
import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { ApiError, BadRequestError, assertJsonDepth } from '@patchbay/contracts';
import { abortUpload, prepareUpload, reserveUpload, streamToBlob, type Streamed, type UploadDeps } from './upload-flow';
import { MULTIPART_SLACK, answerBeforeBody, refuseDeclaredOversize } from './declared-size';
import { callerOf } from '../auth/caller';
import { runningKeyOf } from '../idempotency/running-key';

/**
 * What the engine hands back to the route for the `data` part. `deferred`: the part came before
 * `file_object`, so its upload is only reserved and the route prepares it once the form is read.
 */
export interface StreamedPart extends Streamed {
  file_sid: string;
  deferred: boolean;
}

declare global {
  /* eslint-disable @typescript-eslint/no-namespace -- multer's global Express.Multer types are augmented so */
  namespace Express {
    namespace Multer {
      /** What this engine hands multer for the `data` part (multer's own fields stay unset): see StreamedPart. */
      interface File {
        file_sid?: string;
        head?: Buffer;
        deferred?: boolean;
        encryption?: Streamed['encryption'];
      }
    }
  }
  /* eslint-enable @typescript-eslint/no-namespace */
}

/** The part this engine stored, as multer hands it back on `req.file` (null: none was). */
export function streamedPart(file: Partial<Express.Multer.File> | undefined): StreamedPart | null {
  if (!file?.file_sid || !file.head || file.size === undefined) return null;
  return {
    file_sid: file.file_sid,
    size: file.size,
    head: file.head,
    deferred: file.deferred ?? false,
    ...(file.encryption ? { encryption: file.encryption } : {}),
  };
}

/** The `file_object` form field as the File fields; 400 naming it when missing or not a JSON object. */
export function parseFileObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string')
    throw BadRequestError.field('file_object', 'file_object (the File fields as JSON) is required');
  try {
    const value: unknown = JSON.parse(raw);
    if (isJsonObject(value)) {
      assertJsonDepth(value, 'file_object');
      return value;
    }
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
  }
  throw BadRequestError.field('file_object', 'file_object must be a JSON object');
}

/**
 * A multer storage engine that streams the `data` part straight into the blob store, never
 * buffered. When `file_object` came first (the usual order) it is parsed and storage prepares the
 * upload before a byte moves; when `data` comes first (curl -F keeps the order typed), the upload
 * is reserved, the bytes stream in, and the route prepares it from `file_object` afterwards —
 * refused then, the bytes are removed before anything is committed.
 */
export function blobStorageEngine(deps: UploadDeps): StorageEngine {
  return {
    _handleFile(req: Request, file, cb) {
      const requestId = String(req.headers['x-request-id'] ?? '');
      (async () => {
        const principal = callerOf(req.res);
        const body: unknown = req.body;
        const raw = isJsonObject(body) ? body.file_object : undefined;
        const deferred = raw === undefined;
        const prepared = deferred
          ? await reserveUpload(deps, principal, requestId)
          : await prepareUpload(deps, principal, parseFileObject(raw), 'json', requestId, {
              idempotency_key: runningKeyOf(req.res)?.key,
            });
        try {
          refuseDeclaredOversize(req, prepared.max_bytes, MULTIPART_SLACK);
        } catch (err) {
          await abortUpload(deps, principal, prepared.file_sid, requestId);
          // multer answers an error only once it has read the whole body: answered here instead.
          if (err instanceof ApiError && req.res) answerBeforeBody(req, req.res, err);
          throw err;
        }
        const streamed = await streamToBlob(deps, principal, prepared, file.stream, requestId);
        const part: StreamedPart = { ...streamed, file_sid: prepared.file_sid, deferred };
        return part;
      })().then(
        (part) => cb(null, part),
        (err: unknown) => {
          file.stream.resume();
          cb(err instanceof Error ? err : new Error(String(err)));
        },
      );
    },
    _removeFile(req: Request, file, cb) {
      const part = streamedPart(file);
      if (!part) return cb(null);
      abortUpload(deps, callerOf(req.res), part.file_sid, String(req.headers['x-request-id'] ?? '')).then(
        () => cb(null),
        cb,
      );
    },
  };
}

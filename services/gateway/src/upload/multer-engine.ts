import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { BadRequestError, assertJsonDepth, type Principal } from '@patchbay/contracts';
import { abortUpload, prepareUpload, streamToBlob, type UploadDeps } from './upload-flow';

/** What the engine hands back to the route for the `data` part. */
export interface StreamedPart { file_sid: string; size: number; head: Buffer }

function parseFileObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') throw BadRequestError.field('file_object', 'file_object (the File fields as JSON) must come before data');
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      assertJsonDepth(value, 'file_object');
      return value as Record<string, unknown>;
    }
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
  }
  throw BadRequestError.field('file_object', 'file_object must be a JSON object');
}

/**
 * A multer storage engine that streams the `data` part straight into the blob store: when the part
 * starts, `file_object` (which must precede it) is parsed and storage prepares the upload; the part
 * is then piped, never buffered.
 */
export function blobStorageEngine(deps: UploadDeps): StorageEngine {
  return {
    _handleFile(req: Request, file, cb) {
      const principal = req.res?.locals.principal as Principal;
      const requestId = String(req.headers['x-request-id'] ?? '');
      (async () => {
        const fields = parseFileObject((req.body as Record<string, unknown> | undefined)?.file_object);
        const prepared = await prepareUpload(deps, principal, fields, 'json', requestId);
        const { size, head } = await streamToBlob(deps, principal, prepared, file.stream, requestId);
        const part: StreamedPart = { file_sid: prepared.file_sid, size, head };
        return part;
      })().then((part) => cb(null, part as unknown as Partial<Express.Multer.File>), (err: unknown) => {
        file.stream.resume();
        cb(err as Error);
      });
    },
    _removeFile(req: Request, file, cb) {
      const part = file as unknown as Partial<StreamedPart>;
      const principal = req.res?.locals.principal as Principal;
      if (!part.file_sid) return cb(null);
      abortUpload(deps, principal, part.file_sid, String(req.headers['x-request-id'] ?? '')).then(() => cb(null), cb);
    },
  };
}

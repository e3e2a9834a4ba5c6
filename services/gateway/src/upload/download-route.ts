import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import contentDisposition from 'content-disposition';
import { safeContentType } from '@patchbay/contracts';
import type { StreamDeps } from '../http/route-def';
import { storageOf } from './upload-flow';
import { callerOf } from '../auth/caller';

/**
 * `GET /storage/files/{file_sid}/data`: the bytes, streamed from the blob store, with Content-Type,
 * Content-Length and Content-Disposition; no range support (docs/interface-notes.md, Download Data); storage bumps
 * `date_last_accessed` when it opens the file (the only thing that does).
 */
export function downloadRoute(deps: StreamDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    const principal = callerOf(res);
    const opened = await storageOf(deps, String(req.headers['x-request-id'] ?? '')).open(
      principal,
      String(req.params.file_sid),
    );
    const body = await deps.blobs.get(opened.blob_key);
    const filename = opened.name && opened.name !== 'N/A' ? opened.name : opened.file_access_name;
    // setHeader for the type: express's res.set would append a charset the file never declared.
    res.setHeader('Content-Type', safeContentType(opened.mime_type));
    res.status(200).set({
      'Content-Length': String(opened.file_bytes),
      'Content-Disposition': contentDisposition(filename, { type: 'attachment' }),
    });
    await pipeline(body, res);
  };
}

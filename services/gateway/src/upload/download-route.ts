import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import contentDisposition from 'content-disposition';
import { Subjects, safeContentType, unwrapReply, type Principal } from '@patchbay/contracts';
import type { StreamDeps } from '../routes/route-def';

interface Opened { blob_key: string; file_bytes: number; mime_type: string; name: string; file_access_name: string }

/**
 * `GET /storage/files/{file_sid}/data`: the bytes, streamed from the blob store, with Content-Type,
 * Content-Length and Content-Disposition; no range support (interface.md); storage bumps
 * `date_last_accessed` when it opens the file (the only thing that does).
 */
export function downloadRoute(deps: StreamDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    const principal = res.locals.principal as Principal;
    const opened = unwrapReply<Opened>(await deps.bus.request(Subjects.storage.fileOpen, { principal, params: { file_sid: req.params.file_sid }, query: {}, body: null, url: '' }, { timeoutMs: deps.timeoutMs, requestId: String(req.headers['x-request-id'] ?? '') }));
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

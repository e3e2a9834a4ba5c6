import type { Request, RequestHandler, Response } from 'express';
import contentDisposition from 'content-disposition';
import { safeContentType } from '@patchbay/contracts';
import { sendBlob } from '@patchbay/platform';
import type { StreamDeps } from '../http/route-def';
import { storageOf } from '../upload/upload-flow';
import { callerOf } from '../auth/caller';

/**
 * `GET /media/playback?endpoint_sid=…&(file_sid=… | uri=<publish_uri>)` (operator only): the bytes
 * of a file the endpoint may play (storage applies the rules: 403 naming the one that forbids it),
 * with Range → 206 as on the public file server. Playback never touches `date_last_accessed`.
 */
export function playbackRoute(deps: StreamDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    const principal = callerOf(res);
    const requestId = String(req.headers['x-request-id'] ?? '');
    const query: Record<string, unknown> = { ...req.query };
    const file = await storageOf(deps, requestId).playbackOpen({ principal, query });
    await sendBlob(req, res, deps.blobs, {
      key: file.blob_key,
      size: file.file_bytes,
      contentType: safeContentType(file.mime_type),
      ranges: true,
      lastModified: new Date(file.date_modified).toUTCString(),
      headers: {
        'Content-Disposition': contentDisposition(file.name, { type: 'inline' }),
        'Cache-Control': 'no-store',
      },
    });
  };
}

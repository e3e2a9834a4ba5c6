import type { Request, RequestHandler, Response } from 'express';
import { UnsupportedMediaTypeError } from '@patchbay/contracts';
import type { StreamDeps } from '../http/route-def';
import { storageOf, streamedUpload } from '../upload/upload-flow';
import { callerOf } from '../auth/caller';
import { runningKeyOf } from '../idempotency/running-key';

/**
 * `POST /media/recordings?endpoint_sid=…[&container_sid=…][&name=…][&call_sid=…]` (operator only):
 * a recording from a media server, streamed in as the raw body (`audio/*` or
 * `application/octet-stream`). Storage picks the container by the endpoint rules and prepares; the
 * body goes to the blob store through the same path as an upload, and is committed as one (201
 * with the File), so every upload rule — and crash safety — holds for recordings too.
 */
export function recordingRoute(deps: StreamDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    const principal = callerOf(res);
    const requestId = String(req.headers['x-request-id'] ?? '');
    res.setHeader('Connection', 'close');
    if (!req.is(['audio/*', 'application/octet-stream'])) {
      req.resume();
      throw new UnsupportedMediaTypeError({
        message: 'send the recording as the raw body, with an audio/* or application/octet-stream Content-Type',
      });
    }
    const query: Record<string, unknown> = { ...req.query };
    const key = runningKeyOf(res)?.key;
    await streamedUpload(deps, req, res, () =>
      storageOf(deps, requestId).recordingPrepare({ principal, query, ...(key ? { idempotency_key: key } : {}) }),
    );
  };
}

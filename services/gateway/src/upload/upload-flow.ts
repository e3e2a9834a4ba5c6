import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import { encryptStream } from '@patchbay/age';
import {
  StorageClient,
  type BusReply,
  type Prepared,
  type Principal,
  type UploadCommitRequest,
  type UploadIdempotency,
} from '@patchbay/contracts';
import { decodedBody, decoderFor } from '../http/content-encoding';
import { sendReply } from '../http/respond';
import type { StreamDeps } from '../http/route-def';
import { UploadTap } from './stream-taps';
import { dropUnreadBody } from '../http/unread-body';
import { refuseDeclaredOversize } from './declared-size';
import { callerOf } from '../auth/caller';
import { runningKeyOf } from '../idempotency/running-key';

export type { Prepared };

export type UploadDeps = StreamDeps;

/** Storage as the upload steps ask it: this call's request ID, the gateway's bus timeout. */
export function storageOf(deps: Pick<UploadDeps, 'bus' | 'timeoutMs'>, requestId: string): StorageClient {
  return new StorageClient(deps.bus, { timeoutMs: deps.timeoutMs, requestId });
}

/**
 * A raw body (octet-stream upload, media-plane recording) through the three steps: `prepare`
 * (storage refuses before a byte moves; a Content-Length larger than the room left is refused then too), the body into
 * the blob store (decoded as its
 * Content-Encoding says), commit; the answer is the commit's. Any failure leaves nothing behind.
 */
export async function streamedUpload(
  deps: UploadDeps,
  req: Request,
  res: Response,
  prepare: () => Promise<Prepared>,
): Promise<void> {
  const principal = callerOf(res);
  const requestId = String(req.headers['x-request-id'] ?? '');
  let prepared: Prepared;
  try {
    decoderFor(req);
    prepared = await prepare();
  } catch (err) {
    dropUnreadBody(req, res);
    throw err;
  }
  try {
    refuseDeclaredOversize(req, prepared.max_bytes);
  } catch (err) {
    dropUnreadBody(req, res);
    await abortUpload(deps, principal, prepared.file_sid, requestId);
    throw err;
  }
  let streamed;
  try {
    streamed = await streamToBlob(deps, principal, prepared, decodedBody(req), requestId);
  } catch (err) {
    req.resume();
    throw err;
  }
  const idempotency = await runningKeyOf(res)?.uploadIdempotency();
  const reply = await commitUpload(deps, principal, prepared.file_sid, streamed, requestId, idempotency).catch(
    async (err: unknown) => {
      await abortUpload(deps, principal, prepared.file_sid, requestId);
      throw err;
    },
  );
  sendReply(res, reply);
}

/**
 * Step 1: storage refuses what the request alone breaks, before any byte moves — or, for bytes that
 * came before their fields (`reserved`: multipart with `data` first), right after, before commit.
 */
export async function prepareUpload(
  deps: UploadDeps,
  principal: Principal,
  fields: Record<string, unknown>,
  source: 'json' | 'query',
  requestId: string,
  extra: { reserved?: { file_sid: string; size: number }; idempotency_key?: string } = {},
): Promise<Prepared> {
  const { reserved, idempotency_key: key } = extra;
  return storageOf(deps, requestId).prepare({
    principal,
    fields,
    source,
    ...(reserved ? { reserved } : {}),
    ...(key ? { idempotency_key: key } : {}),
  });
}

/** Step 1 for bytes whose fields come later: a pending upload with only its blob key (swept if never completed). */
export async function reserveUpload(deps: UploadDeps, principal: Principal, requestId: string): Promise<Prepared> {
  return storageOf(deps, requestId).reserve(principal);
}

/**
 * What step 2 stored: `size` bytes in the blob store; `head`, the first bytes as uploaded (for
 * sniffing); for an encrypted upload, the age layout and the file's key (for the probe within commit).
 */
export interface Streamed {
  size: number;
  head: Buffer;
  encryption?: UploadCommitRequest['encryption'];
}

/**
 * Step 2: the body streams straight into the blob store (never buffered whole), counted and capped
 * at the room left in the container. When the container has keys (`encrypt_to`), the bytes pass
 * through an age encrypter on the way, so only the age file is stored (decisions §43). On any
 * failure the pending upload is aborted (blob removed).
 */
export async function streamToBlob(
  deps: UploadDeps,
  principal: Principal,
  prepared: Prepared,
  body: Readable,
  requestId: string,
): Promise<Streamed> {
  const tap = new UploadTap(prepared.max_bytes);
  try {
    const enc = prepared.encrypt_to?.length ? encryptStream(prepared.encrypt_to) : null;
    const stored = enc ?? tap;
    const done = deps.blobs.put(prepared.blob_key, stored);
    await Promise.all([
      (enc ? pipeline(body, tap, enc) : pipeline(body, tap)).catch((err: unknown) => {
        stored.destroy(err instanceof Error ? err : new Error(String(err)));
        throw err;
      }),
      done,
    ]);
    if (!enc) return { size: tap.size, head: tap.head() };
    const summary = enc.summary;
    if (!summary) throw new Error('the age encrypter ended without a summary'); // unreachable after the pipeline
    return {
      size: summary.file_bytes,
      head: tap.head(),
      encryption: {
        header_bytes: summary.header_bytes,
        plaintext_bytes: summary.plaintext_bytes,
        file_key: enc.fileKey.toString('base64'),
      },
    };
  } catch (err) {
    await abortUpload(deps, principal, prepared.file_sid, requestId);
    throw err;
  }
}

/**
 * Step 3: storage re-checks atomically and records the File (201) or removes the blob. With the
 * request's Idempotency-Key, a file committed under it before is the answer instead (decisions §48).
 */
export async function commitUpload(
  deps: UploadDeps,
  principal: Principal,
  fileSid: string,
  streamed: Streamed,
  requestId: string,
  idempotency?: UploadIdempotency,
): Promise<BusReply> {
  const { size, head, encryption } = streamed;
  return storageOf(deps, requestId).commit(
    {
      principal,
      file_sid: fileSid,
      size,
      head: head.toString('base64'),
      ...(encryption ? { encryption } : {}),
      ...(idempotency ? { idempotency } : {}),
    },
    { timeoutMs: Math.max(deps.timeoutMs, encryption ? 150000 : 30000) },
  );
}

export async function abortUpload(
  deps: UploadDeps,
  principal: Principal,
  fileSid: string,
  requestId: string,
): Promise<void> {
  await storageOf(deps, requestId)
    .abort(principal, fileSid)
    .catch((err: unknown) => deps.aborts.add(principal, fileSid, requestId, err));
}

import { finished } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { IDEMPOTENT_REPLAYED_HEADER, type IdempotentAnswer } from '@patchbay/contracts';
import type { BodyDigest } from './body-digest';
import { openBody } from './answer-seal';

/** Sends a kept answer again as it was (its body opened with the key), marked `Idempotent-Replayed: true`. */
export function replayAnswer(
  res: Response,
  answer: IdempotentAnswer,
  owner: { partner_sid: string; key: string },
): void {
  const body = openBody(answer.sealed_body, owner.partner_sid, owner.key);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.status(answer.status);
  if (body.length === 0) res.end();
  else res.end(body);
}

/**
 * Whether a repeat's streamed body is the one the key was used for: a declared length that differs
 * says no before a byte is read; otherwise the body is read (and dropped) while the digest hashes it.
 * Rejects when the client goes away before the end.
 */
export async function sameStreamedBody(
  req: Request,
  digest: BodyDigest,
  kept: { body_hash: string | null; body_bytes: number | null },
): Promise<boolean> {
  const declared = Number(req.headers['content-length']);
  if (kept.body_bytes !== null && Number.isSafeInteger(declared) && declared !== kept.body_bytes) return false;
  req.resume();
  await finished(req);
  return digest.digest() === kept.body_hash;
}

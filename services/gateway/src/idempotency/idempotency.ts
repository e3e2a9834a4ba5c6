import type { Request, RequestHandler, Response } from 'express';
import { IdentityClient, idempotencyKeyInProgress, idempotencyKeyMismatch, type Principal } from '@patchbay/contracts';
import type { Bus, Logger } from '@patchbay/platform';
import { callerOf } from '../auth/caller';
import { clientGone } from '../http/client-gone';
import { dropUnreadBody } from '../http/unread-body';
import { multipartBoundary } from '../http/multipart-boundary';
import { bodyKind, takesIdempotencyKey, type RouteDef } from '../http/route-def';
import { BodyDigest } from './body-digest';
import { sameStreamedBody, replayAnswer } from './replay';
import { idempotencyKeyOf, parsedBodyHash, requestHashOf } from './request-fingerprint';
import { LEASE_MS, RunningKey, type ClaimedKey } from './running-key';
import { keyHashOf } from './answer-seal';

export interface IdempotencyDeps {
  bus: Bus;
  logger: Logger;
  /** How long a call to identity may take (ms). */
  timeoutMs: number;
}

/**
 * Idempotency keys (docs/interface-notes.md, Idempotency keys; decisions §48), mounted by app.ts on
 * every write behind authentication, after the body is parsed (a streamed body: before the route
 * reads it). A request without `Idempotency-Key` passes as it is. With one, identity is asked to
 * claim the key for this partner and request: the first runs (running-key.ts keeps its answer); a
 * repeat gets the kept answer again (a streamed body is read first and must be the same bytes),
 * with `Idempotent-Replayed: true`, and nothing runs; a repeat while the first runs is a 409 with
 * Retry-After; the key with another request is a 422. Both name Idempotency-Key.
 */
export function idempotencyKeys(route: RouteDef, deps: IdempotencyDeps): RequestHandler[] {
  if (!takesIdempotencyKey(route)) return [];
  const streamed = bodyKind(route) === 'stream';
  const identity = new IdentityClient(deps.bus, { timeoutMs: deps.timeoutMs });
  const log = deps.logger.child({ mod: 'idempotency' });

  const handle = async (req: Request, res: Response, principal: Principal, key: string, digest: BodyDigest | null) => {
    const requestHash = requestHashOf(req);
    const body: ClaimedKey['body'] = digest ? { digest } : { hash: parsedBodyHash(route, req.body) };
    const requestId = String(req.headers['x-request-id'] ?? '');
    const begun = await identity.idempotencyBegin(
      {
        partner_sid: principal.partner_sid,
        key_hash: keyHashOf(key),
        request_hash: requestHash,
        body_hash: 'hash' in body ? body.hash : null,
        lease_ms: LEASE_MS,
      },
      { requestId },
    );
    switch (begun.outcome) {
      case 'run': {
        const claim = {
          partner_sid: principal.partner_sid,
          key,
          lease_id: begun.lease_id,
          expires_at: begun.expires_at,
          request_hash: requestHash,
          body,
        };
        new RunningKey(claim, identity, log).attach(res);
        return true;
      }
      case 'in_progress':
        throw idempotencyKeyInProgress(begun.retry_after);
      case 'mismatch':
        throw idempotencyKeyMismatch();
      case 'replay':
        if (digest && !(await sameStreamedBody(req, digest, begun))) throw idempotencyKeyMismatch();
        log.info({ requestId, partner_sid: principal.partner_sid, route: route.path }, 'idempotent replay');
        replayAnswer(res, begun.answer, { partner_sid: principal.partner_sid, key });
        return false;
    }
  };

  return [
    (req, res, next) => {
      let key: string | null;
      try {
        key = idempotencyKeyOf(req);
      } catch (err) {
        if (streamed) refuseBody(req, res);
        throw err;
      }
      if (key === null) return next();
      // A request whose client is gone before its key is claimed is not run: nothing can answer it,
      // and its body may never have been read (body-parser skips a closed connection's body). A retry
      // with the key then finds it free instead of claimed by a request the client never saw.
      if (clientGone(req)) {
        log.info({ route: route.path }, 'client gone before its Idempotency-Key was claimed; not run');
        return;
      }
      // Watching from before anything reads the body: the digest sees every byte the route reads.
      const boundary = req.is('multipart/form-data') ? multipartBoundary(req.headers['content-type']) : null;
      const digest = streamed ? new BodyDigest(req, boundary) : null;
      handle(req, res, callerOf(res), key, digest).then(
        (run) => (run ? next() : undefined),
        (err: unknown) => {
          if (streamed) refuseBody(req, res);
          next(err);
        },
      );
    },
  ];
}

/** A streamed body refused before the route read it: read and dropped for a moment, then the connection closes. */
function refuseBody(req: Request, res: Response): void {
  res.setHeader('Connection', 'close');
  dropUnreadBody(req, res);
}

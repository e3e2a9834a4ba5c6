import {
  Subjects,
  type CopyLeaseRequest,
  type CopyRenewRequest,
  type CopyStoredRequest,
  type CopyUsedRequest,
} from '@patchbay/contracts';
import type { CopyCache } from '../copy-cache';

/** The cache of transcoded copies (messages/copies.ts), for the file servers and the transcoders. */
export function copyHandlers(cache: CopyCache) {
  return {
    [Subjects.storage.copyClaim]: (req: { key: string; file_sid: string }) => cache.claim(req.key, req.file_sid),
    [Subjects.storage.copyRenew]: async (req: CopyRenewRequest) => ({
      held: await cache.renew(req.key, req.token, req.live),
    }),
    [Subjects.storage.copyStored]: async (req: CopyStoredRequest) => {
      await cache.stored(req.key, req.token, req.size);
      return {};
    },
    [Subjects.storage.copyRelease]: async (req: CopyLeaseRequest) => {
      await cache.release(req.key, req.token);
      return {};
    },
    [Subjects.storage.copyUsed]: async (req: CopyUsedRequest) => {
      await cache.used(req.keys);
      return {};
    },
  };
}

import { isDeepStrictEqual } from 'node:util';
import { ConflictError, NotFoundError, errorItem } from '@patchbay/contracts';
import type { Collection, Filter, Update } from './port';

/** The field every document updated through `compareAndSet` carries: bumped by each write. */
export const REVISION_FIELD = 'revision';

export interface CompareAndSetOptions {
  /**
   * Lost races before giving up with a 409 (default 40: a few dozen concurrent writers of one document all get
   * through).
   */
  attempts?: number;
}

/**
 * What `decide` wants written, computed from the document as read: an update (its `$set` holding
 * only the fields that change), or null when nothing changes (then nothing is written).
 */
export type Decision = Update | null;

/**
 * Read → decide → write of one document, without lost updates, on every document-store adapter.
 *
 * `decide` receives the document as it is now and returns the change (it may throw: a validation
 * error ends the call). The change is written with a conditional find-and-modify that matches only
 * while the document's `revision` is still the one read, and bumps it; when another writer got there
 * first, the document is read again and `decide` runs again on the new state. So a rule that spans
 * fields (threshold ≤ quota, credentials and their digest) is checked against exactly the state it
 * is written over, and two writers of different fields both land.
 *
 * Resolves with the document before and after (the same object when nothing changed).
 * NotFoundError when nothing matches `filter` (also when it was deleted between attempts);
 * ConflictError after `attempts` lost races.
 */
export async function compareAndSet<T extends object>(
  coll: Collection<T>,
  filter: Filter<T>,
  decide: (current: T) => Decision | Promise<Decision>,
  opts: CompareAndSetOptions = {},
): Promise<{ before: T; after: T }> {
  const attempts = opts.attempts ?? 40;
  for (let attempt = 1; ; attempt++) {
    const current = await coll.findOne(filter);
    if (!current) throw new NotFoundError();
    const decision = await decide(current);
    if (!decision) return { before: current, after: current };
    // A missing revision (a document written before revisions existed) matches `null` in both stores.
    const revision = REVISION_FIELD in current ? current[REVISION_FIELD] : undefined;
    const guard = { ...filter, [REVISION_FIELD]: revision ?? null };
    const after = await coll.findOneAndUpdate(guard, { ...decision, $inc: { ...decision.$inc, [REVISION_FIELD]: 1 } });
    if (after) return { before: current, after };
    if (attempt >= attempts)
      throw new ConflictError({
        errors: [errorItem('the object is being changed by other requests at the same time; try again')],
      });
    // Spread the losers out a little so they do not collide again in lockstep.
    await new Promise((r) => setTimeout(r, Math.random() * Math.min(attempt, 10)));
  }
}

/**
 * The `$set`/`$unset` that turns `current` into `next` for the fields listed (all of `next`'s by
 * default): only what differs (deep equality), an `undefined` in `next` unsets. Null when nothing
 * differs.
 */
export function changedFields(
  current: object,
  next: object,
  keys: readonly string[] = Object.keys(next),
): Update | null {
  const was = new Map<string, unknown>(Object.entries(current));
  const will = new Map<string, unknown>(Object.entries(next));
  const $set: Record<string, unknown> = {};
  const $unset: Record<string, unknown> = {};
  for (const key of keys) {
    const value = will.get(key);
    if (isDeepStrictEqual(was.get(key), value)) continue;
    if (value === undefined) $unset[key] = '';
    else $set[key] = value;
  }
  const update: Update = {};
  if (Object.keys($set).length > 0) update.$set = $set;
  if (Object.keys($unset).length > 0) update.$unset = $unset;
  return update.$set || update.$unset ? update : null;
}

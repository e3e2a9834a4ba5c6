import { DuplicateKeyError, UnprocessableError, type Container, type ContainerPatch } from '@patchbay/contracts';
import { changedFields, compareAndSet } from '@patchbay/platform';
import type { StorageContext } from '../context';
import {
  CONTAINER_CREATE_ONLY,
  CONTAINER_DEFAULTS,
  CONTAINER_SETTINGS,
  checkContainerRules,
  uniqueConflict,
  uniqueKey,
} from '../domain/container-rules';
import type { ContainerDoc, ContainerSettings } from '../domain/documents';
import { keepMaskedCredentials, locationOf, sameLocation } from '../domain/external-attributes';
import { checkLimitSettings, withoutNullLimits } from '../domain/external-limits';
import { probeFailure } from '../domain/probe-failure';
import { serializeContainer } from '../domain/serialize';
import { syncExceeded } from '../counters';
import { Deadline } from '../external-deadline';
import { sameAttributes, sentAttributes, sentSettings, sortedAttributes } from './container-settings';
import { checkContainerKeys } from './encryption-keys';
import { checkExternalInTime, saveStore, sealContainerAttributes, unsealContainerAttributes } from './external-stores';

/**
 * PATCH (`whole` false) or PUT of a container. A compare-and-set on the container's revision: the
 * cross-field rules are checked against exactly the settings the change is written over, and only
 * the settings that change are written, so concurrent updates of different fields all land.
 */
export async function updateContainer(
  ctx: StorageContext,
  partnerSid: string,
  containerSid: string,
  sentBody: ContainerPatch,
  whole: boolean,
): Promise<Container> {
  const { repo } = ctx;
  const body = sentSettings(sentBody);
  const deadline = new Deadline(ctx.externalDeadlineMs);
  const filter = { container_sid: String(containerSid), partner_sid: partnerSid };
  let uniqueKeyWritten: string | undefined;
  // The attributes last probed: a retried compare-and-set does not probe the same ones again.
  let probed: string | undefined;
  try {
    const { after } = await compareAndSet(repo.containers, filter, async (current) => {
      for (const field of CONTAINER_CREATE_ONLY) {
        if (body[field] !== undefined && body[field] !== current[field])
          throw UnprocessableError.field(field, `${field} cannot be changed after creation`);
      }
      const type = current.type;
      checkLimitSettings(type !== 'internal', body);
      const base: ContainerSettings = whole
        ? {
            ...CONTAINER_DEFAULTS,
            unique: current.unique,
            type,
            // A PUT without it keeps the keys (decisions §43): leaving them out never stops encryption.
            encryption_key_sids: current.encryption_key_sids ?? [],
          }
        : current;
      const next: ContainerSettings = { ...base, ...(type !== 'internal' ? withoutNullLimits(body) : body) };
      // A PATCH that leaves external_attributes out leaves them (sealed, as stored) unchecked.
      const touched = body.external_attributes !== undefined;
      const stored = touched ? unsealContainerAttributes(ctx.keys, current) : null;
      const sent = touched ? keepMaskedCredentials(sentAttributes(next), stored?.credentials ?? null) : null;
      if (touched) next.external_attributes = sent;
      checkContainerRules(next);
      if (body.encryption_key_sids !== undefined)
        await checkContainerKeys(ctx, current.partner_sid, next.encryption_key_sids);
      let store: Partial<Pick<ContainerDoc, 'external_store_id' | 'external_store_seq'>> = {};
      if (type !== 'internal' && sent) {
        if (sameAttributes(sent, stored)) {
          next.external_attributes = current.external_attributes;
        } else {
          const key = JSON.stringify(sortedAttributes(sent));
          if (probed !== key) {
            await checkExternalInTime(ctx, type, sent, deadline);
            probed = key;
          } else if (deadline.expired) {
            throw new UnprocessableError({ errors: [probeFailure('timeout', type)] });
          }
          const storeId = current.external_store_id;
          const moved = !storeId || !sameLocation(locationOf(sent), locationOf(stored ?? {}));
          const seq = (current.external_store_seq ?? 1) + (moved && storeId ? 1 : 0);
          const nextStoreId = moved || !storeId ? `${current.container_sid}.${seq}` : storeId;
          await saveStore(ctx, current, nextStoreId, type, sent);
          next.external_attributes = sealContainerAttributes(ctx.keys, current.container_sid, sent);
          store = { external_store_id: nextStoreId, external_store_seq: seq };
        }
      }
      const change = changedFields(current, next, CONTAINER_SETTINGS);
      if (!change) return null;
      const $set: Record<string, unknown> = { ...change.$set, ...store, date_modified: new Date() };
      if (current.unique) uniqueKeyWritten = $set.unique_key = uniqueKey(current.partner_sid, next);
      return { ...change, $set };
    });
    // Thresholds moved: the grace period starts (or ends) by the counters as they are now.
    await syncExceeded(repo, after);
    return serializeContainer(after);
  } catch (err) {
    if (err instanceof DuplicateKeyError && uniqueKeyWritten !== undefined) {
      const other = await repo.containers.findOne({
        unique_key: uniqueKeyWritten,
        container_sid: { $ne: filter.container_sid },
      });
      if (other) throw uniqueConflict(other.container_sid, 'container');
    }
    throw err;
  }
}

import {
  DuplicateKeyError,
  NotFoundError,
  Subjects,
  UnprocessableError,
  errorItem,
  type BlobStoreOpenReply,
  type ExternalStoreType,
} from '@patchbay/contracts';
import { isSealedSecret, openSecret, probeBlobStore, sealSecret, type KeyRing } from '@patchbay/platform';
import { openExternalStore } from '@patchbay/blob-routing';
import { checkExternalAttributes, locationOf, type PlainAttributes } from './domain/external-attributes';
import type { BlobStoreDoc, ContainerDoc } from './repo';
import type { StorageContext } from './handlers/context';

/** A probe that has not finished by then fails the create or update: never a hang. */
export const PROBE_TIMEOUT_MS = 20_000;

/** Sealed credentials are bound to their record and field (GCM additional data). */
const containerContext = (containerSid: string, field: string) =>
  `storage_containers/${containerSid}/credentials.${field}`;
const storeContext = (storeId: string, field: string) => `storage_blob_stores/${storeId}/credentials.${field}`;

function seal(
  keys: KeyRing,
  creds: Record<string, string> | null | undefined,
  context: (field: string) => string,
): Record<string, unknown> | null {
  if (!creds) return null;
  return Object.fromEntries(Object.entries(creds).map(([k, v]) => [k, sealSecret(keys, v, context(k))]));
}

/** Opens sealed credentials; a plain string (stored before they were sealed) is read as is. */
function open(keys: KeyRing, stored: unknown, context: (field: string) => string): Record<string, string> | null {
  if (!stored || typeof stored !== 'object') return null;
  return Object.fromEntries(
    Object.entries(stored as Record<string, unknown>).map(([k, v]) => [
      k,
      isSealedSecret(v) ? openSecret(keys, v, context(k)) : String(v),
    ]),
  );
}

/** A container's attributes as stored: credentials sealed for that container. */
export function sealContainerAttributes(
  keys: KeyRing,
  containerSid: string,
  attrs: PlainAttributes,
): Record<string, unknown> {
  const { credentials, ...location } = attrs;
  return credentials
    ? { ...location, credentials: seal(keys, credentials, (f) => containerContext(containerSid, f)) }
    : { ...location };
}

/** A container's attributes in plaintext (for a probe, or to keep credentials a client sent back masked). */
export function openContainerAttributes(
  keys: KeyRing,
  c: Pick<ContainerDoc, 'container_sid' | 'external_attributes'>,
): PlainAttributes | null {
  if (!c.external_attributes) return null;
  const { credentials, ...location } = c.external_attributes;
  const opened = open(keys, credentials, (f) => containerContext(c.container_sid, f));
  return opened ? { ...location, credentials: opened } : { ...location };
}

/**
 * Checks the attributes of an external container: their fields for its type, then a probe object
 * written, read back and deleted in the storage itself. Any failure is a 422 naming
 * `external_attributes` with the provider's reason in plain words (never a credential).
 */
export async function checkExternalStorage(
  type: ExternalStoreType,
  attrs: PlainAttributes,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<void> {
  const errors = checkExternalAttributes(type, attrs);
  if (errors.length > 0) throw new UnprocessableError(errors);
  let timer: NodeJS.Timeout | undefined;
  const { credentials, ...location } = attrs;
  const store = await openExternalStore(type, { ...location, ...(credentials ? { credentials } : {}) }).catch(
    (err: unknown) => {
      throw refused(err);
    },
  );
  try {
    await Promise.race([
      probeBlobStore(store),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the storage did not answer within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (err) {
    throw refused(err);
  } finally {
    clearTimeout(timer);
    await store.close?.().catch(() => undefined);
  }
}

function refused(err: unknown): UnprocessableError {
  const reason = err instanceof Error ? err.message : 'the storage cannot be used';
  return new UnprocessableError([errorItem(`the storage cannot be used: ${reason}`, 'external_attributes')]);
}

/**
 * Records where blobs of `container` go from now on (idempotent for one store id): a new location
 * gets a new store id; the same location keeps its id and takes the new credentials, so files
 * already there are read with them too.
 */
export async function saveStore(
  ctx: StorageContext,
  container: Pick<ContainerDoc, 'container_sid' | 'partner_sid'>,
  storeId: string,
  type: ExternalStoreType,
  attrs: PlainAttributes,
): Promise<void> {
  const now = new Date();
  const fields = {
    container_sid: container.container_sid,
    partner_sid: container.partner_sid,
    type,
    location: locationOf(attrs),
    credentials: seal(ctx.keys, attrs.credentials, (f) => storeContext(storeId, f)),
    date_modified: now,
  };
  if (!(await ctx.repo.blobStores.findOneAndUpdate({ store_id: storeId }, { $set: fields }))) {
    try {
      await ctx.repo.blobStores.insertOne({ store_id: storeId, ...fields, date_created: now });
    } catch (err) {
      // Written at the same moment by a retried update: the same id is the same place.
      if (!(err instanceof DuplicateKeyError)) throw err;
      await ctx.repo.blobStores.findOneAndUpdate({ store_id: storeId }, { $set: fields });
    }
  }
}

/** The store new blobs of an external container go to; made from its attributes for a container older than stores. */
export async function currentStoreId(ctx: StorageContext, c: ContainerDoc): Promise<string> {
  if (c.external_store_id) return c.external_store_id;
  const storeId = `${c.container_sid}.1`;
  const attrs = openContainerAttributes(ctx.keys, c) ?? {};
  await saveStore(ctx, c, storeId, c.type as ExternalStoreType, attrs);
  await ctx.repo.containers.updateOne(
    { container_sid: c.container_sid },
    { $set: { external_store_id: storeId, external_store_seq: 1 } },
  );
  return storeId;
}

/** Internal: the external store a blob key names, credentials opened, for the blob routing of every service. */
export function externalStoreHandlers(ctx: StorageContext) {
  return {
    [Subjects.storage.blobStoreOpen]: async ({
      store_id: storeId,
    }: {
      store_id: string;
    }): Promise<BlobStoreOpenReply> => {
      const doc: BlobStoreDoc | null = await ctx.repo.blobStores.findOne({ store_id: storeId });
      if (!doc) throw new NotFoundError('no such blob store');
      const credentials = open(ctx.keys, doc.credentials, (f) => storeContext(storeId, f));
      return {
        store_id: storeId,
        type: doc.type,
        attributes: { ...doc.location, ...(credentials ? { credentials } : {}) },
      };
    },
  };
}

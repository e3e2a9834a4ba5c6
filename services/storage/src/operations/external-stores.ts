import {
  DuplicateKeyError,
  NotFoundError,
  UnprocessableError,
  errorItem,
  type BlobStoreOpenReply,
  type ExternalStoreType,
} from '@patchbay/contracts';
import {
  AddressNotAllowedError,
  BlobStoreUnavailableError,
  assertPublicUrl,
  isSealedSecret,
  openSecret,
  probeBlobStore,
  sealSecret,
  type KeyRing,
  type Logger,
} from '@patchbay/platform';
import { openExternalStore } from '@patchbay/blob-routing';
import type { StorageContext } from '../context';
import type { BlobStoreDoc, ContainerDoc } from '../domain/documents';
import { checkExternalAttributes, locationOf, type PlainAttributes } from '../domain/external-attributes';
import { probeFailure } from '../domain/probe-failure';
import { storageNameViolations } from '../domain/storage-names';
import type { Deadline } from '../external-deadline';

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

/** Unseals sealed credentials; a plain string (stored before they were sealed) is read as is. */
function unseal(keys: KeyRing, stored: unknown, context: (field: string) => string): Record<string, string> | null {
  if (!stored || typeof stored !== 'object') return null;
  return Object.fromEntries(
    Object.entries(stored).map(([k, v]: [string, unknown]) => [
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
export function unsealContainerAttributes(
  keys: KeyRing,
  c: Pick<ContainerDoc, 'container_sid' | 'external_attributes'>,
): PlainAttributes | null {
  if (!c.external_attributes) return null;
  const { credentials, ...location } = c.external_attributes;
  const plain = unseal(keys, credentials, (f) => containerContext(c.container_sid, f));
  return plain ? { ...location, credentials: plain } : { ...location };
}

/**
 * Checks an external storage within `deadline` (checkExternalStorage); then, should the deadline
 * have passed meanwhile, refuses as the check would have: nothing is written after the caller may
 * have stopped waiting.
 */
export async function checkExternalInTime(
  ctx: StorageContext,
  type: ExternalStoreType,
  attrs: PlainAttributes,
  deadline: Deadline,
): Promise<void> {
  await checkExternalStorage(type, attrs, { allowPrivate: ctx.allowPrivateExternalStorage, deadline, log: ctx.log });
  if (deadline.expired) throw new UnprocessableError({ errors: [probeFailure('timeout', type)] });
}

/** How a create or update checks an external storage. */
export interface ExternalCheckOptions {
  /** EXTERNAL_STORAGE_ALLOW_PRIVATE: the endpoint may be a loopback, private, link-local… address. */
  allowPrivate: boolean;
  /** The request's deadline for external calls (external-deadline.ts): the probe ends inside it. */
  deadline: Deadline;
  log?: Logger;
}

/**
 * Checks the attributes of an external container: their fields for its type and the provider's
 * naming rules; then, unless private addresses are allowed, that the endpoint is not (and does not
 * resolve to) a forbidden address, refused before any connection; then a probe object written, read
 * back and deleted in the storage itself, every socket of it through the same guard. Any failure is
 * a 422 naming `external_attributes` (the endpoint's refusal `external_attributes.endpoint`), in a few
 * fixed plain reasons (domain/probe-failure.ts), never the provider's text or a credential. It
 * answers by the deadline, whatever the storage does: the probe's own limits end it inside the time
 * left, and a probe still running then is given up (it removes its object when it ends).
 */
export async function checkExternalStorage(
  type: ExternalStoreType,
  attrs: PlainAttributes,
  opts: ExternalCheckOptions,
): Promise<void> {
  const errors = [...checkExternalAttributes(type, attrs), ...storageNameViolations(type, attrs)];
  if (errors.length > 0) throw new UnprocessableError({ errors });
  const { credentials, ...location } = attrs;
  const third = Math.max(100, Math.floor(opts.deadline.remainingMs() / 3));
  const store = await openExternalStore(
    type,
    { ...location, ...(credentials ? { credentials } : {}) },
    // Three calls (put, get, delete), each ending within a third of the time left.
    {
      connectTimeoutMs: Math.min(3000, third),
      requestTimeoutMs: third,
      retries: 0,
      allowPrivateAddresses: opts.allowPrivate,
    },
  ).catch((err: unknown) => {
    // The adapter's own check of the options (no request made): its words are about the client's input.
    const reason = err instanceof Error ? err.message : 'the storage cannot be used';
    throw new UnprocessableError({
      errors: [errorItem(`the storage cannot be used: ${reason}`, 'external_attributes')],
    });
  });
  let probing: Promise<void> | undefined;
  try {
    if (!opts.allowPrivate && typeof location.endpoint === 'string')
      await opts.deadline.race(assertPublicUrl(location.endpoint));
    probing = probeBlobStore(store);
    await opts.deadline.race(probing);
  } catch (err) {
    const reason = AddressNotAllowedError.within(err)
      ? 'address_not_allowed'
      : err instanceof BlobStoreUnavailableError
        ? err.reason
        : undefined;
    opts.log?.info({ type, reason: reason ?? 'unreachable' }, 'external storage check failed');
    throw new UnprocessableError({ errors: [probeFailure(reason, type)] });
  } finally {
    // Closed once the probe has ended, so one given up at the deadline still removes its object.
    void (probing ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => store.close?.())
      .catch(() => undefined);
  }
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
export async function currentStoreId(ctx: StorageContext, c: ContainerDoc, type: ExternalStoreType): Promise<string> {
  if (c.external_store_id) return c.external_store_id;
  const storeId = `${c.container_sid}.1`;
  const attrs = unsealContainerAttributes(ctx.keys, c) ?? {};
  await saveStore(ctx, c, storeId, type, attrs);
  await ctx.repo.containers.updateOne(
    { container_sid: c.container_sid },
    { $set: { external_store_id: storeId, external_store_seq: 1 } },
  );
  return storeId;
}

/**
 * Internal: the external store a blob key names, credentials unsealed, for the blob routing of every
 * service (`svc.storage.blob-stores.open`).
 */
export async function blobStoreForRouting(ctx: StorageContext, storeId: string): Promise<BlobStoreOpenReply> {
  const doc: BlobStoreDoc | null = await ctx.repo.blobStores.findOne({ store_id: storeId });
  if (!doc) throw new NotFoundError({ message: 'no such blob store' });
  const credentials = unseal(ctx.keys, doc.credentials, (f) => storeContext(storeId, f));
  return {
    store_id: storeId,
    type: doc.type,
    attributes: { ...doc.location, ...(credentials ? { credentials } : {}) },
  };
}

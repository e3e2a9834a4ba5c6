import { randomUUID } from 'node:crypto';
import { AgeKeyError, parseRecipient } from '@patchbay/age';
import {
  ConflictError,
  NotFoundError,
  UnprocessableError,
  errorItem,
  MAX_CONTAINER_KEYS,
  type EncryptionKey,
  type EncryptionKeyCreate,
  type EncryptionKeyPatch,
  type GatewayRequest,
} from '@patchbay/contracts';
import { reply } from '@patchbay/platform';
import { applyFieldFilter, parseFieldParams, runList } from '@patchbay/query';
import type { StorageContext } from '../context';
import type { EncryptionKeyDoc } from '../domain/documents';
import { ENCRYPTION_KEY_LIST_SPEC } from '../domain/list-specs';
import { serializeEncryptionKey } from '../domain/serialize';

/** A key of the caller's partner, or 404 (another partner's is a 404 too). */
async function ownedKey(ctx: StorageContext, partnerSid: string, sid: unknown): Promise<EncryptionKeyDoc> {
  const k = await ctx.repo.encryptionKeys.findOne({ encryption_key_sid: String(sid), partner_sid: partnerSid });
  if (!k) throw new NotFoundError();
  return k;
}

/**
 * The keys a container is to name: each one of the partner's own (another partner's key, or one
 * that does not exist, is the same 422 naming `encryption_key_sids`, with the SID that failed).
 */
export async function checkContainerKeys(
  ctx: StorageContext,
  partnerSid: string,
  sids: readonly string[],
): Promise<void> {
  if (sids.length > MAX_CONTAINER_KEYS)
    throw UnprocessableError.field('encryption_key_sids', `at most ${MAX_CONTAINER_KEYS} keys`);
  for (const sid of sids) {
    const k = await ctx.repo.encryptionKeys.findOne({ encryption_key_sid: sid, partner_sid: partnerSid });
    if (!k) throw UnprocessableError.field('encryption_key_sids', 'encryption key does not exist', sid);
    refuseUnusableKey(k);
  }
}

/**
 * A key registered before registration checked it (an all-zero X25519 key, an even RSA modulus) can
 * never encrypt: a container naming it is refused, and so is an upload into one (422 naming the key
 * by its SID, never a 500 from the encrypter). The partner replaces the key on the container.
 */
function refuseUnusableKey(k: Pick<EncryptionKeyDoc, 'encryption_key_sid' | 'public_key'>): void {
  try {
    parseRecipient(k.public_key);
  } catch (err) {
    if (!(err instanceof AgeKeyError)) throw err;
    throw UnprocessableError.field(
      'encryption_key_sids',
      `encryption key ${k.encryption_key_sid} can never encrypt (${err.message}); name another key`,
      k.encryption_key_sid,
    );
  }
}

/** The public keys files of a container are encrypted to, in the container's order (empty: stored as uploaded). */
export async function containerRecipients(
  ctx: StorageContext,
  c: { partner_sid: string; encryption_key_sids?: string[] },
): Promise<{ sids: string[]; public_keys: string[] }> {
  const sids = c.encryption_key_sids ?? [];
  if (sids.length === 0) return { sids: [], public_keys: [] };
  const keys = await ctx.repo.encryptionKeys.find({ encryption_key_sid: { $in: sids }, partner_sid: c.partner_sid });
  const bySid = new Map(keys.map((k) => [k.encryption_key_sid, k.public_key]));
  // A key cannot be deleted while a container names it; one missing anyway must not mean "stored in clear".
  const missing = sids.find((s) => !bySid.has(s));
  if (missing) throw UnprocessableError.field('encryption_key_sids', 'encryption key does not exist', missing);
  for (const k of keys) refuseUnusableKey(k);
  return { sids, public_keys: sids.map((s) => bySid.get(s)!) };
}

// `/storage/encryption_keys`: a partner's public keys (docs/interface-notes.md §20).

/** POST: a public key checked, fingerprinted and registered (public material only). */
export async function registerKey(ctx: StorageContext, partnerSid: string, body: EncryptionKeyCreate) {
  let parsed;
  try {
    parsed = parseRecipient(body.public_key);
  } catch (err) {
    if (err instanceof AgeKeyError) throw UnprocessableError.field('public_key', err.message);
    throw err;
  }
  const doc: EncryptionKeyDoc = {
    encryption_key_sid: randomUUID(),
    partner_sid: partnerSid,
    name: body.name ?? 'N/A',
    key_type: parsed.key_type,
    public_key: parsed.public_key,
    fingerprint: parsed.fingerprint,
    date_created: new Date(),
  };
  await ctx.repo.encryptionKeys.insertOne(doc);
  ctx.log.info(
    { encryption_key_sid: doc.encryption_key_sid, partner_sid: doc.partner_sid, fingerprint: doc.fingerprint },
    'encryption key registered',
  );
  return reply(201, serializeEncryptionKey(doc));
}

export function listKeys(ctx: StorageContext, req: GatewayRequest) {
  return runList({
    collection: ctx.repo.encryptionKeys,
    baseFilter: { partner_sid: req.principal.partner_sid },
    query: req.query,
    spec: ENCRYPTION_KEY_LIST_SPEC,
    url: req.url,
    serialize: serializeEncryptionKey,
  });
}

export async function getKey(ctx: StorageContext, req: GatewayRequest): Promise<Record<string, unknown>> {
  const fields = parseFieldParams(req.query, ENCRYPTION_KEY_LIST_SPEC);
  const k = await ownedKey(ctx, req.principal.partner_sid, req.params.encryption_key_sid);
  return applyFieldFilter(serializeEncryptionKey(k), fields.include, fields.exclude);
}

/** PATCH: only the name changes; a different public_key is a 422 (register a new key instead). */
export async function renameKey(
  ctx: StorageContext,
  partnerSid: string,
  keySid: string,
  body: EncryptionKeyPatch,
): Promise<EncryptionKey> {
  const k = await ownedKey(ctx, partnerSid, keySid);
  if (body.public_key !== undefined && body.public_key !== k.public_key)
    throw UnprocessableError.field('public_key', 'public_key cannot be changed; register a new key instead');
  if (body.name === undefined || body.name === k.name) return serializeEncryptionKey(k);
  const updated = await ctx.repo.encryptionKeys.findOneAndUpdate(
    { encryption_key_sid: k.encryption_key_sid },
    { $set: { name: body.name } },
  );
  if (!updated) throw new NotFoundError();
  return serializeEncryptionKey(updated);
}

/** DELETE: refused (409) while a container names the key. */
export async function deleteKey(ctx: StorageContext, partnerSid: string, keySid: string) {
  const k = await ownedKey(ctx, partnerSid, keySid);
  const user = await ctx.repo.containers.findOne({ encryption_key_sids: k.encryption_key_sid });
  if (user)
    throw new ConflictError({
      errors: [
        errorItem('a container names this key in encryption_key_sids', 'encryption_key_sid', user.container_sid),
      ],
    });
  await ctx.repo.encryptionKeys.deleteOne({ encryption_key_sid: k.encryption_key_sid });
  return reply(204, null);
}

/**
 * An upload whose answer was lost after storage committed it (the gateway's wait timed out, or it
 * died), sent again with its Idempotency-Key: the second prepare is not refused for the file's own
 * unique keys or quota, the second commit answers the file committed first and removes its own
 * bytes — one file, counted once — also when the two commits race. The same key with another
 * request is a 422 naming Idempotency-Key; an expired key is new again.
 */
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  Subjects,
  unwrapReply,
  type BusReply,
  type Container,
  type Prepared,
  type Principal,
  type StoredFile,
} from '@patchbay/contracts';
import { blobExists, principalOf, startStorageKit, type StorageKit } from '../support/storage-kit';

let kit: StorageKit;

beforeAll(async () => {
  kit = await startStorageKit({ name: 'upload-idempotency' });
});

afterAll(async () => {
  await kit.stop();
});

const FINGERPRINT = 'f'.repeat(64);
const inADay = () => new Date(Date.now() + 86_400_000).toISOString();
const BYTES = Buffer.alloc(4096, 5);

/** One upload as the gateway makes it: prepare (with the key), the bytes into the blob store, commit. */
async function upload(
  principal: Principal,
  fields: Record<string, unknown>,
  idem: { key: string; fingerprint?: string; expires_at?: string },
): Promise<{ prepared: Prepared; reply: BusReply }> {
  const prepared = unwrapReply<Prepared>(
    await kit.bus.request(Subjects.storage.uploadPrepare, {
      principal,
      fields,
      source: 'json',
      idempotency_key: idem.key,
    }),
  );
  await kit.blobs.put(prepared.blob_key, Readable.from([BYTES]));
  const reply = await kit.bus.request(Subjects.storage.uploadCommit, {
    principal,
    file_sid: prepared.file_sid,
    size: BYTES.length,
    head: BYTES.subarray(0, 512).toString('base64'),
    idempotency: {
      key: idem.key,
      fingerprint: idem.fingerprint ?? FINGERPRINT,
      expires_at: idem.expires_at ?? inADay(),
    },
  });
  return { prepared, reply };
}

const exists = (key: string) => blobExists(kit, key);

/** A partner of its own with a container that has room for exactly one upload of BYTES. */
async function tightContainer(): Promise<{ principal: Principal; container: Container }> {
  const principal = principalOf(`P-${randomUUID()}`);
  const c = unwrapReply<Container>(
    await kit.bus.request(Subjects.storage.containerDefault, { partner_sid: principal.partner_sid }),
  );
  const container = unwrapReply<Container>(
    await kit.bus.request(Subjects.storage.containerUpdate, {
      principal,
      params: { container_sid: c.container_sid },
      query: {},
      body: { quota_bytes: BYTES.length },
      url: 'http://api.test/core/v2/storage/containers',
    }),
  );
  return { principal, container };
}

async function containerNow(principal: Principal, sid: string): Promise<Container> {
  return unwrapReply<Container>(
    await kit.bus.request(Subjects.storage.containerGet, {
      principal,
      params: { container_sid: sid },
      query: {},
      url: 'http://api.test/core/v2/storage/containers',
    }),
  );
}

test('a commit repeated under its key answers the file committed first and removes its own bytes', async () => {
  const { principal, container } = await tightContainer();
  // Unique keys and a full container would refuse a second upload of the same file: not its retry.
  const fields = { container_sid: container.container_sid, name: 'a.bin', unique: true, string_key_1: 'x' };
  const first = await upload(principal, fields, { key: 'K1' });
  expect(first.reply.status).toBe(201);
  const file = unwrapReply<StoredFile>(first.reply);
  const retry = await upload(principal, fields, { key: 'K1' });
  expect(retry.reply).toEqual({ status: 201, body: file });
  expect(await exists(retry.prepared.blob_key)).toBe(false);
  expect(await exists(first.prepared.blob_key)).toBe(true);
  expect(await containerNow(principal, container.container_sid)).toMatchObject({
    total_files: 1,
    total_bytes: BYTES.length,
  });

  // The key with another request: a 422 naming it, and these bytes removed too.
  const other = await upload(principal, fields, { key: 'K1', fingerprint: 'e'.repeat(64) });
  expect(other.reply).toMatchObject({ status: 422, error: { errors: [{ field: 'Idempotency-Key' }] } });
  expect(await exists(other.prepared.blob_key)).toBe(false);
  // Without the key the same upload is refused as before: its unique keys are taken.
  expect(await kit.bus.request(Subjects.storage.uploadPrepare, { principal, fields, source: 'json' })).toMatchObject({
    status: 422,
    error: { errors: [{ field: 'unique' }] },
  });
});

test("two commits of one key racing: one file, counted once; another partner's same key is its own", async () => {
  const principal = principalOf(`P-${randomUUID()}`);
  const c = unwrapReply<Container>(
    await kit.bus.request(Subjects.storage.containerDefault, { partner_sid: principal.partner_sid }),
  );
  const fields = { container_sid: c.container_sid, name: 'raced.bin' };
  const [a, b] = await Promise.all([
    upload(principal, fields, { key: 'K2' }),
    upload(principal, fields, { key: 'K2' }),
  ]);
  expect(a.reply.status).toBe(201);
  expect(b.reply).toEqual(a.reply);
  expect((await containerNow(principal, c.container_sid)).total_files).toBe(1);
  expect([await exists(a.prepared.blob_key), await exists(b.prepared.blob_key)].filter(Boolean)).toHaveLength(1);

  const stranger = principalOf(`P-${randomUUID()}`);
  const theirs = unwrapReply<Container>(
    await kit.bus.request(Subjects.storage.containerDefault, { partner_sid: stranger.partner_sid }),
  );
  const own = await upload(stranger, { container_sid: theirs.container_sid, name: 'raced.bin' }, { key: 'K2' });
  expect(own.reply.status).toBe(201);
  expect(unwrapReply<StoredFile>(own.reply).file_sid).not.toBe(unwrapReply<StoredFile>(a.reply).file_sid);
});

test('a key past its expiry is new again: the next commit with it records a file of its own', async () => {
  const principal = principalOf(`P-${randomUUID()}`);
  const c = unwrapReply<Container>(
    await kit.bus.request(Subjects.storage.containerDefault, { partner_sid: principal.partner_sid }),
  );
  const fields = { container_sid: c.container_sid, name: 'old.bin' };
  const past = new Date(Date.now() - 1000).toISOString();
  const old = await upload(principal, fields, { key: 'K3', expires_at: past });
  const fresh = await upload(principal, fields, { key: 'K3' });
  expect([old.reply.status, fresh.reply.status]).toEqual([201, 201]);
  expect(unwrapReply<StoredFile>(fresh.reply).file_sid).not.toBe(unwrapReply<StoredFile>(old.reply).file_sid);
  expect((await containerNow(principal, c.container_sid)).total_files).toBe(2);
});

/**
 * A commit and the faults around it (issue 40; found by bench/chaos.ts): the gateway gives up on a
 * slow commit and aborts the upload while storage still commits it — the abort must leave the upload
 * to its commit, which records the file with its bytes; and a step after the File is recorded that
 * fails (the bus down for the file's event) is answered as an error without removing the bytes, and
 * the client's retry with its Idempotency-Key answers that file, readable.
 */
import { Readable } from 'node:stream';
import {
  Subjects,
  UnavailableError,
  unwrapReply,
  type BusReply,
  type Prepared,
  type Principal,
  type StoredFile,
} from '@patchbay/contracts';
import { reply } from '@patchbay/platform';
import { blobExists, newPartner, startStorageKit, type StorageKit } from '../support/storage-kit';

let kit: StorageKit;
/** While set, the storage service's publish of file events fails as a bus that lost NATS does. */
let eventsDown = false;
/** The transcoder's probe answers only once this is resolved (a frozen transcoder). */
let releaseProbe: () => void = () => undefined;
let probeAsked: Promise<void>;

beforeAll(async () => {
  let asked: () => void = () => undefined;
  probeAsked = new Promise((r) => (asked = r));
  kit = await startStorageKit({
    name: 'commit-faults',
    beforeStart: async ({ bus, storageBus }) => {
      const publish = storageBus.publish.bind(storageBus);
      storageBus.publish = async (subject, payload, opts) => {
        if (eventsDown && subject === Subjects.events.fileCreated)
          throw new UnavailableError({ message: 'bus connection lost' });
        return publish(subject, payload, opts);
      };
      await bus.serve(Subjects.transcoder.probe, 'transcoder', async () => {
        asked();
        await new Promise<void>((r) => (releaseProbe = r));
        return reply(200, { format: 'wav', duration: 1, bitrate: 128 });
      });
    },
  });
});

afterAll(async () => {
  releaseProbe();
  await kit.stop();
});

const BYTES = Buffer.alloc(4096, 7);
const exists = (key: string) => blobExists(kit, key);

async function partner(): Promise<{ principal: Principal; containerSid: string }> {
  const { principal, container } = await newPartner(kit);
  return { principal, containerSid: container.container_sid };
}

async function prepare(principal: Principal, fields: Record<string, unknown>, key?: string): Promise<Prepared> {
  const prepared = unwrapReply<Prepared>(
    await kit.bus.request(Subjects.storage.uploadPrepare, {
      principal,
      fields,
      source: 'json',
      ...(key ? { idempotency_key: key } : {}),
    }),
  );
  await kit.blobs.put(prepared.blob_key, Readable.from([BYTES]));
  return prepared;
}

const commit = (principal: Principal, fileSid: string, key?: string): Promise<BusReply> =>
  kit.bus.request(
    Subjects.storage.uploadCommit,
    {
      principal,
      file_sid: fileSid,
      size: BYTES.length,
      head: BYTES.subarray(0, 512).toString('base64'),
      ...(key
        ? { idempotency: { key, fingerprint: 'f'.repeat(64), expires_at: new Date(Date.now() + 3.6e6).toISOString() } }
        : {}),
    },
    { timeoutMs: 30_000 },
  );

test('an abort that arrives while the commit runs leaves the upload to it: the file keeps its bytes', async () => {
  const { principal, containerSid } = await partner();
  // Upload-time transcoding is planned from a probe within the commit: the frozen transcoder holds it there.
  const prepared = await prepare(principal, {
    container_sid: containerSid,
    name: 'slow.wav',
    type: 'audio',
    desired_format: 'mp3',
  });
  const committing = commit(principal, prepared.file_sid);
  await probeAsked;
  const aborted = unwrapReply<{ aborted: boolean }>(
    await kit.bus.request(Subjects.storage.uploadAbort, { principal, file_sid: prepared.file_sid }),
  );
  expect(aborted).toEqual({ aborted: false });
  expect(await exists(prepared.blob_key)).toBe(true);
  releaseProbe();
  const file = unwrapReply<StoredFile>(await committing);
  expect(file.file_sid).toBe(prepared.file_sid);
  expect(await exists(prepared.blob_key)).toBe(true);
});

test('an abort before any commit still removes the upload and its bytes', async () => {
  const { principal, containerSid } = await partner();
  const prepared = await prepare(principal, { container_sid: containerSid, name: 'gone.bin' });
  const aborted = unwrapReply<{ aborted: boolean }>(
    await kit.bus.request(Subjects.storage.uploadAbort, { principal, file_sid: prepared.file_sid }),
  );
  expect(aborted).toEqual({ aborted: true });
  expect(await exists(prepared.blob_key)).toBe(false);
  expect((await commit(principal, prepared.file_sid)).status).toBe(404);
});

test('a step after the File is recorded fails: an error, the bytes kept; a retry with the key answers it', async () => {
  const { principal, containerSid } = await partner();
  const fields = { container_sid: containerSid, name: 'kept.bin' };
  const first = await prepare(principal, fields, 'K-kept');
  eventsDown = true;
  let failed: BusReply;
  try {
    failed = await commit(principal, first.file_sid, 'K-kept');
  } finally {
    eventsDown = false;
  }
  expect(failed.status).toBe(503);
  expect(await exists(first.blob_key)).toBe(true);
  const retry = await prepare(principal, fields, 'K-kept');
  const file = unwrapReply<StoredFile>(await commit(principal, retry.file_sid, 'K-kept'));
  expect(file.file_sid).toBe(first.file_sid);
  expect(await exists(first.blob_key)).toBe(true);
  expect(await exists(retry.blob_key)).toBe(false);
});

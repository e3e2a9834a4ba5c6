/**
 * Lifecycle expiry (operations/file-expiry.ts) as the threshold-worker drives it on the storage
 * subjects: `sweepExpired` lists the files whose `expires_at` has passed, oldest first, and no other;
 * `sweepDelete` with reason `lifecycle` deletes such a file with its bytes, once, and leaves a file
 * that has not expired.
 */
import {
  Subjects,
  unwrapReply,
  type StoredFile,
  type SweepDeleteReply,
  type SweepExpiredReply,
} from '@patchbay/contracts';
import {
  blobExists,
  gatewayRequest,
  newPartner,
  startStorageKit,
  uploadFile,
  type StorageKit,
} from '../support/storage-kit';

let kit: StorageKit;

beforeAll(async () => {
  kit = await startStorageKit({ name: 'op-file-expiry' });
});

afterAll(async () => {
  await kit.stop();
});

/** A file to be deleted an hour after its upload. */
async function expiringFile(name: string): Promise<StoredFile> {
  const { principal, container } = await newPartner(kit);
  return uploadFile(kit, principal, {
    container_sid: container.container_sid,
    name,
    lifecycle_action: 'delete',
    lifecycle_ttl: 3600,
  });
}

/** Moves a file's expiry (the clock is the store's: the test sets the date rather than waiting for it). */
const expireAt = (file: StoredFile, at: Date) =>
  kit.docs.collection('files').updateOne({ file_sid: file.file_sid }, { $set: { expires_at: at } });

const expired = async (): Promise<string[]> =>
  unwrapReply<SweepExpiredReply>(await kit.bus.request(Subjects.storage.sweepExpired, { limit: 100 })).files.map(
    (f) => f.file_sid,
  );

const sweepDelete = async (file: StoredFile): Promise<SweepDeleteReply> =>
  unwrapReply<SweepDeleteReply>(
    await kit.bus.request(Subjects.storage.sweepDelete, { file_sid: file.file_sid, reason: 'lifecycle' }),
  );

test('only files whose expiry has passed are listed, the oldest expiry first', async () => {
  const later = await expiringFile('later.bin');
  const earlier = await expiringFile('earlier.bin');
  const notYet = await expiringFile('not-yet.bin');
  const { principal, container } = await newPartner(kit);
  const kept = await uploadFile(kit, principal, { container_sid: container.container_sid, name: 'kept.bin' });
  await expireAt(later, new Date(Date.now() - 1000));
  await expireAt(earlier, new Date(Date.now() - 60_000));

  const listed = await expired();
  expect(listed.filter((sid) => [later.file_sid, earlier.file_sid].includes(sid))).toEqual([
    earlier.file_sid,
    later.file_sid,
  ]);
  expect(listed).not.toContain(notYet.file_sid);
  expect(listed).not.toContain(kept.file_sid);
});

test('an expired file is deleted with its bytes, once; a second delete answers deleted: false', async () => {
  const file = await expiringFile('gone.bin');
  const blobKey = await kit.docs
    .collection<{ file_sid: string; blob_key: string }>('files')
    .findOne({ file_sid: file.file_sid })
    .then((f) => f?.blob_key);
  expect(blobKey).toBeDefined();
  await expireAt(file, new Date(Date.now() - 1000));

  const first = await sweepDelete(file);
  expect(first).toMatchObject({
    deleted: true,
    file: { file_sid: file.file_sid, container_sid: file.container_sid, file_bytes: 1024 },
    holds_lease: false,
  });
  expect(await blobExists(kit, blobKey ?? '')).toBe(false);
  expect(await expired()).not.toContain(file.file_sid);
  expect(await sweepDelete(file)).toMatchObject({ deleted: false, file: null });
});

test('a file that has not expired is not deleted by a lifecycle sweep', async () => {
  const { principal, container } = await newPartner(kit);
  const file = await uploadFile(kit, principal, {
    container_sid: container.container_sid,
    name: 'stays.bin',
    lifecycle_action: 'delete',
    lifecycle_ttl: 3600,
  });
  expect(await sweepDelete(file)).toMatchObject({ deleted: false, file: null });
  const get = await gatewayRequest(kit, Subjects.storage.fileGet, principal, { params: { file_sid: file.file_sid } });
  expect(unwrapReply<StoredFile>(get).file_sid).toBe(file.file_sid);
});

/**
 * Files (operations/files.ts) on the storage subjects: a download counts as an access, the public
 * file server's look-up does not; a delete removes the record, the bytes and the container's counts,
 * and announces it; another partner's file is a 404 and stays.
 */
import { Subjects, unwrapReply, type Container, type StoredFile } from '@patchbay/contracts';
import {
  blobExists,
  gatewayRequest,
  newPartner,
  startStorageKit,
  uploadFile,
  type StorageKit,
} from '../support/storage-kit';

let kit: StorageKit;
/** The file SIDs of every `evt.file.deleted` storage published, and who waits for one. */
const deletedEvents = new Set<string>();
const waiting = new Map<string, () => void>();
/** Resolves once storage has announced the file's deletion (the event arrives after the reply). */
const announcedDeleted = (fileSid: string): Promise<void> =>
  deletedEvents.has(fileSid) ? Promise.resolve() : new Promise((resolve) => waiting.set(fileSid, resolve));

beforeAll(async () => {
  kit = await startStorageKit({
    name: 'op-files',
    beforeStart: ({ bus }) =>
      bus.subscribe(Subjects.events.fileDeleted, 'op-files-test', async (payload) => {
        const sid: unknown =
          typeof payload === 'object' && payload !== null ? Reflect.get(payload, 'file_sid') : undefined;
        if (typeof sid !== 'string') return;
        deletedEvents.add(sid);
        waiting.get(sid)?.();
      }),
  });
});

afterAll(async () => {
  await kit.stop();
});

interface Accessed {
  blob_key: string;
  date_last_accessed: Date | string;
}
const stored = (fileSid: string) =>
  kit.docs.collection<Accessed & { file_sid: string }>('files').findOne({ file_sid: fileSid });
const accessedAt = async (fileSid: string): Promise<number> =>
  new Date((await stored(fileSid))?.date_last_accessed ?? 0).getTime();

test('a download counts as an access; the public look-up does not', async () => {
  const { principal, container } = await newPartner(kit);
  const file = await uploadFile(kit, principal, { container_sid: container.container_sid, name: 'a.bin' });
  const long = new Date(Date.now() - 86_400_000);
  await kit.docs.collection('files').updateOne({ file_sid: file.file_sid }, { $set: { date_last_accessed: long } });

  const resolved = await kit.bus.request(Subjects.storage.fileResolvePublic, { id: file.file_sid });
  expect(resolved.status).toBe(200);
  expect(await accessedAt(file.file_sid)).toBe(long.getTime());

  const opened = await gatewayRequest(kit, Subjects.storage.fileOpen, principal, {
    params: { file_sid: file.file_sid },
  });
  expect(unwrapReply<{ file_bytes: number }>(opened).file_bytes).toBe(1024);
  expect(await accessedAt(file.file_sid)).toBeGreaterThan(long.getTime());
});

test('a delete removes the record, the bytes and the counts, and announces it', async () => {
  const { principal, container } = await newPartner(kit);
  const file = await uploadFile(kit, principal, { container_sid: container.container_sid, name: 'b.bin' });
  const blobKey = (await stored(file.file_sid))?.blob_key ?? '';
  const params = { container_sid: container.container_sid };
  const before = unwrapReply<Container>(
    await gatewayRequest(kit, Subjects.storage.containerGet, principal, { params }),
  );
  expect(before).toMatchObject({ total_files: 1, total_bytes: 1024 });

  const del = await gatewayRequest(kit, Subjects.storage.fileDelete, principal, {
    params: { file_sid: file.file_sid },
  });
  expect(del.status).toBe(204);
  expect(await stored(file.file_sid)).toBeNull();
  expect(await blobExists(kit, blobKey)).toBe(false);
  const after = unwrapReply<Container>(await gatewayRequest(kit, Subjects.storage.containerGet, principal, { params }));
  expect(after).toMatchObject({ total_files: 0, total_bytes: 0 });
  await announcedDeleted(file.file_sid);
});

test("another partner's file is a 404 on get and delete, and stays", async () => {
  const owner = await newPartner(kit);
  const stranger = await newPartner(kit);
  const file: StoredFile = await uploadFile(kit, owner.principal, {
    container_sid: owner.container.container_sid,
    name: 'c.bin',
  });
  const params = { file_sid: file.file_sid };
  expect((await gatewayRequest(kit, Subjects.storage.fileGet, stranger.principal, { params })).status).toBe(404);
  expect((await gatewayRequest(kit, Subjects.storage.fileDelete, stranger.principal, { params })).status).toBe(404);
  expect(await stored(file.file_sid)).not.toBeNull();
});

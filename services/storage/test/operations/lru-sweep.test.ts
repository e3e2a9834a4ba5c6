/**
 * The delete_lru sweep (operations/lru-sweep.ts) as the threshold-worker drives it on the storage
 * subjects: a container over its threshold is listed as due; one worker at a time holds its lease and
 * is handed the least recently used files first; a delete of a file read since it was listed, or by a
 * worker without the lease, deletes nothing; once the container is at its target the lease is given
 * up and the container is no longer due.
 */
import {
  Subjects,
  unwrapReply,
  type Container,
  type Principal,
  type StoredFile,
  type SweepCandidatesReply,
  type SweepContainersReply,
  type SweepDeleteReply,
} from '@patchbay/contracts';
import {
  gatewayRequest,
  newPartner,
  serveIdentity,
  startStorageKit,
  uploadFile,
  type StorageKit,
} from '../support/storage-kit';

let kit: StorageKit;

beforeAll(async () => {
  kit = await startStorageKit({
    name: 'op-lru-sweep',
    beforeStart: ({ bus }) => serveIdentity(bus),
  });
});

afterAll(async () => {
  await kit.stop();
});

/** A delete_lru container swept from 3 files down to 1, holding 3 files read an hour, two and three ago. */
async function fullContainer(): Promise<{ principal: Principal; container: Container; files: StoredFile[] }> {
  const { principal } = await newPartner(kit);
  const container = unwrapReply<Container>(
    await gatewayRequest(kit, Subjects.storage.containerCreate, principal, {
      body: { name: 'lru', threshold_action: 'delete_lru', threshold_files: 3, threshold_files_target: 1 },
    }),
  );
  const files: StoredFile[] = [];
  for (const name of ['newest.bin', 'middle.bin', 'oldest.bin']) {
    files.push(await uploadFile(kit, principal, { container_sid: container.container_sid, name }));
  }
  // The read times are the store's: set rather than waited for.
  for (const [i, f] of files.entries()) {
    await kit.docs
      .collection('files')
      .updateOne({ file_sid: f.file_sid }, { $set: { date_last_accessed: new Date(Date.now() - (i + 1) * 3.6e6) } });
  }
  return { principal, container, files };
}

const due = async (): Promise<string[]> =>
  unwrapReply<SweepContainersReply>(
    await kit.bus.request(Subjects.storage.sweepContainers, { after: null, limit: 1000 }),
  ).container_sids;

const claim = async (containerSid: string, owner: string): Promise<SweepCandidatesReply> =>
  unwrapReply<SweepCandidatesReply>(
    await kit.bus.request(Subjects.storage.sweepCandidates, {
      container_sid: containerSid,
      owner,
      lease_ms: 60_000,
      limit: 10,
    }),
  );

const sweepDelete = async (
  containerSid: string,
  owner: string,
  file: { file_sid: string; date_last_accessed: string },
): Promise<SweepDeleteReply> =>
  unwrapReply<SweepDeleteReply>(
    await kit.bus.request(Subjects.storage.sweepDelete, {
      file_sid: file.file_sid,
      reason: 'lru',
      container_sid: containerSid,
      owner,
      date_last_accessed: file.date_last_accessed,
    }),
  );

test('a container at its threshold is due; one worker holds it, given the least recently used first', async () => {
  const { container, files } = await fullContainer();
  expect(await due()).toContain(container.container_sid);

  const first = await claim(container.container_sid, 'worker-1');
  expect(first.claimed).toBe(true);
  expect(first.files.map((f) => f.file_sid)).toEqual([files[2], files[1], files[0]].map((f) => f.file_sid));
  expect(first.container).toMatchObject({ threshold_total_files: 3, over_target: true });

  const second = await claim(container.container_sid, 'worker-2');
  expect(second).toMatchObject({ claimed: false, files: [] });
  expect(await sweepDelete(container.container_sid, 'worker-2', first.files[0])).toMatchObject({
    deleted: false,
    holds_lease: false,
  });
});

test('deleting down to the target gives the lease up; the container is then not due', async () => {
  const { container, files } = await fullContainer();
  const { files: candidates } = await claim(container.container_sid, 'worker-1');

  const oldest = await sweepDelete(container.container_sid, 'worker-1', candidates[0]);
  expect(oldest).toMatchObject({ deleted: true, file: { file_sid: files[2].file_sid }, holds_lease: true });
  const middle = await sweepDelete(container.container_sid, 'worker-1', candidates[1]);
  expect(middle).toMatchObject({ deleted: true, holds_lease: false });
  expect(middle.container).toMatchObject({ threshold_total_files: 1, over_target: false });

  expect(await due()).not.toContain(container.container_sid);
  const remaining = await kit.docs.collection('files').find({ container_sid: container.container_sid });
  expect(remaining.map((f) => f.file_sid)).toEqual([files[0].file_sid]);
});

test('a file read after it was listed is not deleted', async () => {
  const { container, files } = await fullContainer();
  const { files: candidates } = await claim(container.container_sid, 'worker-1');
  await kit.docs
    .collection('files')
    .updateOne({ file_sid: files[2].file_sid }, { $set: { date_last_accessed: new Date() } });
  expect(await sweepDelete(container.container_sid, 'worker-1', candidates[0])).toMatchObject({
    deleted: false,
    file: null,
  });
  expect(await kit.docs.collection('files').findOne({ file_sid: files[2].file_sid })).not.toBeNull();
});

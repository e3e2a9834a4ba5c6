/**
 * Storage takes the transcoder's reports by event (evt.file.transcoding.*): a result for the file's
 * current source is swapped in (counters moved, the old blob removed, evt.file.updated published);
 * a second result for the same source, or a result for a deleted file, is removed; a done event
 * naming a blob that is not a transcoding of its source removes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { NO_KEYS, Subjects, fileBlobKey, transcodedBlobKey, type TranscodingDoneEvent } from '@patchbay/contracts';
import {
  DirBlobStore,
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type Stoppable,
} from '@patchbay/platform';
import { startStorageService } from '../../src/service';
import { openStorageRepo, type StorageRepo } from '../../src/repo';
import type { ContainerDoc, FileDoc } from '../../src/domain/documents';
import { CONTAINER_DEFAULTS } from '../../src/domain/container-rules';
import { consistently, untilTrue } from '../../../../tests/support/poll';

let root: string;
let storage: Stoppable;
let bus: MemoryBus;
let docs: SqliteDocStore;
let blobs: DirBlobStore;
let repo: StorageRepo;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-storage-transcoding-'));
  const hub = MemoryBus.hub();
  bus = new MemoryBus(hub);
  docs = new SqliteDocStore();
  blobs = new DirBlobStore({ dir: path.join(root, 'blobs') });
  storage = await startStorageService(
    {
      bus: new MemoryBus(hub),
      docs,
      blobs,
      logger: createLogger({ name: 'transcoding-events', level: 'silent' }),
      metrics: createMetricsRegistry('transcoding-events'),
    },
    {
      storageUrl: 'http://files.test',
      uploadStaleMs: 3_600_000,
      sweepIntervalMs: 3_600_000,
      busTimeoutMs: 500,
    },
  );
  repo = await openStorageRepo(docs);
});

afterAll(async () => {
  await storage.stop();
  await bus.close();
  await docs.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const put = (key: string, bytes: number) => blobs.put(key, Readable.from([Buffer.alloc(bytes, 1)]));
const exists = async (key: string) => (await blobs.stat(key).catch(() => undefined)) !== undefined;
async function seedFile(sid: string): Promise<FileDoc> {
  const now = new Date();
  const c = {
    ...CONTAINER_DEFAULTS,
    container_sid: `C-${sid}`,
    partner_sid: 'P',
    is_default: false,
    quota_files: 100,
    quota_bytes: 1e9,
    total_files: 1,
    total_bytes: 100,
    threshold_total_files: 1,
    threshold_total_bytes: 100,
    threshold_exceeded_at: null,
    date_created: now,
    date_modified: now,
  } as ContainerDoc;
  const f: FileDoc = {
    file_sid: sid,
    partner_sid: 'P',
    container_sid: c.container_sid,
    blob_key: fileBlobKey('P', sid),
    name: 'a.wav',
    mime_type: 'audio/x-wav',
    type: 'audio',
    content_classification: 'media',
    content_format: 'wav',
    content_duration: 1,
    content_transcoding_progress: 0,
    desired_format: 'mp3',
    desired_bitrate: null,
    file_access_name: `${sid}.mp3`,
    file_bytes: 100,
    publish: 'file_sid',
    threshold_include: true,
    lifecycle_action: 'no_action',
    lifecycle_ttl: -1,
    unique: false,
    parent_file_sid: null,
    ...NO_KEYS,
    date_created: now,
    date_modified: now,
    date_last_accessed: now,
  };
  await repo.containers.insertOne(c);
  await repo.files.insertOne(f);
  await put(f.blob_key, 100);
  return f;
}

const doneOf = (f: FileDoc, nonce: string, bytes: number): TranscodingDoneEvent => ({
  file_sid: f.file_sid,
  source_blob_key: f.blob_key,
  blob_key: transcodedBlobKey(f.blob_key, 'mp3', null, nonce),
  file_bytes: bytes,
  content_format: 'mp3',
  mime_type: 'audio/mpeg',
  content_duration: 1,
  content_bitrate: 64000,
});

test('the first result is swapped in, the second removed; progress follows the current source only', async () => {
  const f = await seedFile('F-swap');
  await bus.publish(Subjects.events.fileTranscodingProgress, {
    file_sid: f.file_sid,
    source_blob_key: f.blob_key,
    progress: 42.7,
  });
  await untilTrue(
    async () => (await repo.files.findOne({ file_sid: f.file_sid }))?.content_transcoding_progress === 42,
  );

  const first = doneOf(f, 'aaaa1111', 60);
  const second = doneOf(f, 'bbbb2222', 70);
  await put(first.blob_key, 60);
  await put(second.blob_key, 70);
  await bus.publish(Subjects.events.fileTranscodingDone, first);
  await untilTrue(async () => (await repo.files.findOne({ file_sid: f.file_sid }))?.blob_key === first.blob_key);
  const swapped = await repo.files.findOne({ file_sid: f.file_sid });
  expect(swapped).toMatchObject({
    content_format: 'mp3',
    mime_type: 'audio/mpeg',
    file_bytes: 60,
    content_transcoding_progress: 100,
  });
  expect(await repo.containers.findOne({ container_sid: f.container_sid })).toMatchObject({
    total_bytes: 60,
    threshold_total_bytes: 60,
  });
  expect(await exists(f.blob_key)).toBe(false);

  await bus.publish(Subjects.events.fileTranscodingDone, second);
  await untilTrue(async () => !(await exists(second.blob_key)));
  expect(await exists(first.blob_key)).toBe(true);
  // A late progress report of the old source changes nothing.
  await bus.publish(Subjects.events.fileTranscodingProgress, {
    file_sid: f.file_sid,
    source_blob_key: f.blob_key,
    progress: 10,
  });
  await consistently(
    async () => expect((await repo.files.findOne({ file_sid: f.file_sid }))?.content_transcoding_progress).toBe(100),
    100,
  );
});

test(
  'a result for a deleted file is removed; one naming another blob ' + 'removes nothing; a failure clears progress',
  async () => {
    const gone = await seedFile('F-gone');
    const late = doneOf(gone, 'cccc3333', 50);
    await put(late.blob_key, 50);
    await repo.files.deleteOne({ file_sid: gone.file_sid });
    await bus.publish(Subjects.events.fileTranscodingDone, late);
    await untilTrue(async () => !(await exists(late.blob_key)));

    const victim = await seedFile('F-victim');
    const other = await seedFile('F-other');
    await bus.publish(Subjects.events.fileTranscodingDone, {
      ...doneOf(victim, 'dddd4444', 1),
      file_sid: 'no-such-file',
      blob_key: other.blob_key,
    });
    await bus.publish(Subjects.events.fileTranscodingFailed, {
      file_sid: victim.file_sid,
      source_blob_key: victim.blob_key,
      reason: 'not decodable',
    });
    await untilTrue(
      async () => (await repo.files.findOne({ file_sid: victim.file_sid }))?.content_transcoding_progress === null,
    );
    expect(await exists(other.blob_key)).toBe(true);
    expect(await exists(victim.blob_key)).toBe(true);
  },
);

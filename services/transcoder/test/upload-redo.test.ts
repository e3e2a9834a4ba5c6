/**
 * An upload-time job done twice — a JetStream redelivery racing a slow first run, or a job
 * re-enqueued at start-up that the queue still held — is harmless: the attempts write different
 * blobs and report them by event, storage takes the first result and removes the other, and a redo
 * after the swap (the source is gone) writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Subjects } from '@patchbay/contracts';
import { noiseWav } from './support/audio';
import { storageStandIn } from './support/storage-stand-in';
import { startTranscoderKit } from './support/transcoder-kit';
import { untilTrue } from '../../../tests/support/poll';

let kit: Awaited<ReturnType<typeof startTranscoderKit>>;
afterAll(async () => {
  await kit?.stop();
});

async function keys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const k of kit.blobs.list!(prefix)) found.push(k);
  return found.sort();
}

test('two runs of one job leave one result; a redo after the swap leaves none', async () => {
  kit = await startTranscoderKit('upload-redo');
  const blobKeys = new Map([['FI-redo', 'files/P/FI-redo']]);
  const storage = await storageStandIn(kit.bus(), blobKeys, kit.blobs);
  const file = path.join(kit.root, 'fixtures', 'source.wav');
  noiseWav(file, 44100, 2, 2);
  await kit.blobs.put('files/P/FI-redo', fs.createReadStream(file));
  const job = {
    file_sid: 'FI-redo',
    partner_sid: 'P',
    blob_key: 'files/P/FI-redo',
    source_format: 'wav',
    target: 'mp3',
    bitrate: 64,
  };
  const producer = kit.bus();

  await Promise.all([
    producer.enqueue(Subjects.transcoder.uploadJob, job),
    producer.enqueue(Subjects.transcoder.uploadJob, job),
  ]);
  await untilTrue(() => storage.reports.length === 2);
  const [first, second] = storage.reports;
  expect(first.blob_key).toBeDefined();
  expect(second.blob_key).toBeDefined();
  expect(second.blob_key).not.toBe(first.blob_key);
  expect(blobKeys.get('FI-redo')).toBe(first.blob_key);
  await untilTrue(async () => (await keys('files/P/')).length === 2);
  expect(await keys('files/P/')).toEqual(['files/P/FI-redo', first.blob_key].sort());

  // Storage swapped the result in and removed the source; the job comes once more.
  await kit.blobs.delete('files/P/FI-redo');
  const redo = storage.next('FI-redo');
  await producer.enqueue(Subjects.transcoder.uploadJob, job);
  expect(await redo).toMatchObject({ source_blob_key: 'files/P/FI-redo', failed: expect.any(String) });
  expect((await redo).blob_key).toBeUndefined();
  expect(await keys('files/P/')).toEqual([first.blob_key]);
  expect(fs.readdirSync(path.join(kit.root, 'scratch')).length).toBe(1);
}, 60_000);

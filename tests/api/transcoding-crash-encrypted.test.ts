/**
 * An encrypted upload's plaintext does not outlive its job (decisions §51, docs/security.md): the
 * transcoder's scratch is under the data directory by default, private (0700), and when Patchbay
 * is killed with SIGKILL in the middle of an encrypted upload's transcode, the plaintext it left
 * there is removed at the next start of any Patchbay process on that data directory — here with the
 * restarted transcoder sent to another scratch directory, so only the start-up sweep of the processes
 * that claim the data directory can have removed it. Both modes, on an instance of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { filesContaining, makePartnerKeys, type PartnerKeys } from '../support/age-keys';
import { noise } from '../support/media';
import { until } from '../support/poll';
import { ffmpegUsing } from '../support/processes';

let inst: PatchbayInstance | undefined;
let keys: PartnerKeys;
const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-scratch-elsewhere-'));
beforeAll(() => (keys = makePartnerKeys()));
afterAll(async () => {
  await inst?.stop();
  keys.cleanup();
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

const modeOf = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

test('kill -9 during an encrypted transcode: the plaintext in scratch is gone after the next start', async () => {
  // TRANSCODER_SCRATCH_DIR empty: the default, <DATA_DIR>/transcoder-scratch.
  const first = await startPatchbay(mode(), { TRANSCODER_SCRATCH_DIR: '' });
  inst = first;
  const scratch = path.join(first.dataDir, 'transcoder-scratch');
  const api = () => request(first.origin);
  const auth = ['Authorization', `Bearer ${first.token}`] as const;
  const key = await api()
    .post('/core/v2/storage/encryption_keys')
    .set(...auth)
    .send({ public_key: keys.ageRecipient });
  expect(key.status).toBe(201);
  const container = await api()
    .post('/core/v2/storage/containers')
    .set(...auth)
    .send({ name: 'sealed', encryption_key_sids: [key.body.encryption_key_sid] });
  expect(container.status).toBe(200);

  // Five minutes of audio to AAC: the transcode of the decrypted upload takes seconds, time to kill it.
  const wav = noise('wav', { seconds: 300, sampleRate: 16000, channels: 1 });
  const marker = wav.subarray(wav.length / 2, wav.length / 2 + 64);
  const upload = api()
    .post(
      `/core/v2/storage/files?container_sid=${container.body.container_sid}` +
        '&name=call.wav&type=audio&desired_format=mp4',
    )
    .set(...auth)
    .set('Content-Type', 'application/octet-stream')
    .send(wav)
    .then(
      (r) => r.status,
      () => 'cut' as const,
    );
  await until('ffmpeg to transcode the decrypted upload', 60000, () =>
    ffmpegUsing(scratch).some((p) => p.comm === 'ffmpeg') ? true : undefined,
  );
  // Where the plaintext is while the job runs: the data directory's scratch, private.
  expect(filesContaining(scratch, marker).length).toBeGreaterThan(0);
  expect(modeOf(scratch)).toBe('700');
  for (const worker of fs.readdirSync(scratch)) expect(modeOf(path.join(scratch, worker))).toBe('700');

  await first.kill();
  expect(await upload).toBe('cut'); // never acknowledged
  expect(filesContaining(scratch, marker).length).toBeGreaterThan(0); // the crash left it

  inst = await first.restart({ TRANSCODER_SCRATCH_DIR: elsewhere });
  // Ready means every process has started, and the ones that claim the data directory swept it first.
  expect(filesContaining(first.dataDir, marker)).toEqual([]);
  expect(fs.readdirSync(scratch)).toEqual([]);
  expect(ffmpegUsing(scratch)).toEqual([]);
}, 240000);

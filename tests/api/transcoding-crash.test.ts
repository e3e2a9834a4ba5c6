/**
 * Upload-time transcoding survives kill -9 (decisions §21): the transcoder's worker process is killed
 * with SIGKILL in the middle of a job, then the rest of Patchbay, and Patchbay is started again.
 * Its ffmpeg dies with the worker at once; after the restart the job is redone (all-in-one: storage
 * enqueues it again; distributed: JetStream redelivers it), the file ends transcoded, and neither
 * scratch files nor ffmpeg processes are left. Runs in both modes on an instance of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { mode } from '../harness/api';
import { defaultContainer } from '../harness/default-container';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { instanceBlobs } from '../harness/stores';
import { noise } from '../support/media';
import { until } from '../support/poll';
import { ffmpegUsing } from '../support/processes';
import { binary, durationOf } from '../support/audio-probe';

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
}

let inst: PatchbayInstance;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-crash-scratch-'));
afterAll(async () => {
  await inst?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test(
  'kill -9 during an upload-time transcode: after a restart the file ' +
    'ends transcoded, no scratch and no ffmpeg left',
  async () => {
    inst = await startPatchbay(mode(), { TRANSCODER_SCRATCH_DIR: scratch });
    const auth = ['Authorization', `Bearer ${inst.token}`] as const;
    const api = () => request(inst.origin);
    const containerSid = await defaultContainer(inst);
    // Ten minutes of audio to AAC: several seconds of ffmpeg, time enough to kill it in the middle.
    const source = noise('wav', { seconds: 600, sampleRate: 16000, channels: 1 });
    const up = await api()
      .post(
        `/core/v2/storage/files?container_sid=${containerSid}` +
          '&name=call.wav&type=audio&desired_format=mp4&publish=file_access_name',
      )
      .set(...auth)
      .set('Content-Type', 'application/octet-stream')
      .send(source);
    expect(up.status).toBe(201);
    const sid = up.body.file_sid as string;

    const [ffmpeg] = await until('ffmpeg to transcode the upload', 30000, () => {
      const running = ffmpegUsing(scratch).filter((p) => p.comm === 'ffmpeg');
      return running.length > 0 ? running : undefined;
    });
    const worker = ffmpeg.ppid;
    process.kill(worker, 'SIGKILL');
    // No wait for a sweep: the kernel kills ffmpeg with its worker (setpriv --pdeathsig).
    await until('ffmpeg to die with its worker', 5000, () =>
      ffmpegUsing(scratch).some((p) => p.pid === ffmpeg.pid) ? undefined : true,
    );
    await inst.kill();
    expect(filesUnder(scratch).some((f) => f.endsWith('input'))).toBe(true);

    inst = await inst.restart();
    const done = await until(
      'the transcoding to be redone',
      150000,
      async () => {
        const f = (
          await api()
            .get(`/core/v2/storage/files/${sid}`)
            .set(...auth)
        ).body;
        return f.content_transcoding_progress === 100 ? f : undefined;
      },
      { everyMs: 500 },
    );
    expect(done).toMatchObject({
      content_format: 'mp4',
      mime_type: 'video/mp4',
      file_access_name: `${sid}.mp4`,
      publish_uri: up.body.publish_uri,
    });
    expect(done.content_duration).toBeCloseTo(600, 0);
    const data = await binary(
      api()
        .get(`/core/v2/storage/files/${sid}/data`)
        .set(...auth),
    );
    expect(data.body.length).toBe(done.file_bytes);
    expect(durationOf(data.body, 'mp4')).toBeCloseTo(600, 0);

    // Nothing left: only each live worker's owner record in the scratch root, no ffmpeg, one blob.
    const onlyOwners = () => filesUnder(scratch).every((f) => /^w-[0-9a-f-]+\/owner\.json$/.test(f));
    await until('the scratch root to hold only live workers', 10000, () => (onlyOwners() ? true : undefined)).catch(
      () => undefined,
    );
    expect(filesUnder(scratch)).toEqual([expect.stringMatching(/^w-[0-9a-f-]+\/owner\.json$/)]);
    expect(ffmpegUsing(scratch)).toEqual([]);
    const blobs = await instanceBlobs(inst);
    try {
      expect(await blobs.keys('files/')).toHaveLength(1);
    } finally {
      await blobs.close();
    }
    const c = (
      await api()
        .get(`/core/v2/storage/containers/${containerSid}`)
        .set(...auth)
    ).body;
    expect(c).toMatchObject({ total_files: 1, total_bytes: done.file_bytes });
  },
  300000,
);

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { Queues, Subjects } from '@patchbay/contracts';
import { createLogger, DirBlobStore, MemoryBus, SqliteDocStore, type Stoppable } from '@patchbay/platform';
import { startTranscoderService } from '../src/service';
import { systemBinaries } from './support/binaries';
import { until } from '../../../tests/support/poll';

/** ffmpeg processes whose parent is this (jest worker) process, zombies included. */
function ffmpegChildren(): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; /* exited meanwhile */
    }
    // "pid (comm) state ppid ...": comm may itself hold spaces or parentheses.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === process.pid && comm === 'ffmpeg') found.push(Number(entry));
  }
  return found;
}

describe('transcoder stopped in the middle of an upload-time job', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-transcoder-stop-'));
  const scratchDir = path.join(root, 'scratch');
  const blobs = new DirBlobStore({ dir: path.join(root, 'blobs') });
  const docs = new SqliteDocStore();
  const hub = MemoryBus.hub();
  const buses: MemoryBus[] = [];
  let service: Stoppable | undefined;

  beforeAll(async () => {
    // Ten minutes of audio: AAC encoding takes seconds, far longer than the drain below.
    const source = path.join(root, 'long.wav');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=16000:duration=600',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      source,
    ]);
    await blobs.put('files/long', fs.createReadStream(source));
  });
  afterAll(async () => {
    await service?.stop();
    await Promise.all(buses.map((b) => b.close()));
    await docs.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
  const bus = () => {
    const b = new MemoryBus(hub);
    buses.push(b);
    return b;
  };

  test('ffmpeg is killed, scratch removed, and the job is at once back on the queue for another worker', async () => {
    const job = {
      file_sid: 'FI-stop',
      partner_sid: 'PA-stop',
      blob_key: 'files/long',
      source_format: 'wav',
      target: 'mp4',
      bitrate: null,
    };
    const producer = bus();
    await producer.enqueue(Subjects.transcoder.uploadJob, job);
    const metrics = new Registry();
    const logger = createLogger({ name: 'transcoder-stop-test', level: 'silent' });
    service = await startTranscoderService(
      { bus: bus(), docs, blobs, logger, metrics },
      { scratchDir, concurrency: 1, timeoutMs: 120_000, drainMs: 300, binaries: systemBinaries() },
    );
    await until('ffmpeg to start transcoding', 20_000, () => (ffmpegChildren().length > 0 ? true : undefined));

    // Another replica, idle on the same queue: it must not wait out the 30 s ack wait.
    const seen: Array<{ payload: unknown; deliveryCount: number; at: number }> = [];
    await bus().work(
      Subjects.transcoder.uploadJob,
      Queues.transcoder,
      async (payload, ctx) => {
        seen.push({ payload, deliveryCount: ctx.deliveryCount, at: Date.now() });
      },
      { ackWaitMs: 30_000 },
    );
    expect(ffmpegChildren()).not.toEqual([]);
    const stoppedAt = Date.now();
    await service.stop();
    service = undefined;

    // stop() resolved after the job settled: ffmpeg is gone and so is the job's scratch directory.
    expect(ffmpegChildren()).toEqual([]);
    expect(fs.readdirSync(scratchDir)).toEqual([]);
    await expect(blobs.stat('files/long.mp4')).rejects.toThrow();

    const redelivered = await until('the job to reach the other worker', 5000, () => seen[0]);
    expect(redelivered).toMatchObject({ payload: job, deliveryCount: 2 });
    // Drain (300 ms) plus the hand-back; the ack wait would be 30 s. Generous for a busy machine.
    expect(redelivered.at - stoppedAt).toBeLessThan(5000);
    await until('the job to be acknowledged', 5000, async () =>
      (await producer.pending(Subjects.transcoder.uploadJob, Queues.transcoder)) === 0 ? true : undefined,
    );
    expect(seen).toHaveLength(1);

    const runs = (await metrics.getSingleMetric('transcoder_runs_total')!.get()).values;
    expect(runs).toEqual([{ labels: { kind: 'upload', result: 'aborted' }, value: 1 }]);
  }, 60_000);
});

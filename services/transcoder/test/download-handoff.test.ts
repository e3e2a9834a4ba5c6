/**
 * A download-time transcode in flight when its transcoder is stopped: the replica gives the run up
 * at its drain deadline and answers 503, the file-server asks again, another replica does the
 * work, and the download still succeeds — the stop does not wait out the whole run, and the
 * client never sees the restart. Real ffmpeg, real file-server over HTTP; storage's answer to the
 * resolve subject is the only stand-in.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { Subjects } from '@patchbay/contracts';
import { createLogger, DirBlobStore, MemoryBus, SqliteDocStore, type Stoppable } from '@patchbay/platform';
import { startFileServer } from '@patchbay/file-server';
import { startTranscoderService } from '../src/service';
import { systemBinaries } from './support/binaries';
import { untilTrue } from '../../../tests/support/poll';

const SECONDS = 600;

/** ffmpeg processes whose parent is this (jest worker) process. */
function ffmpegChildren(): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === process.pid && comm === 'ffmpeg') found.push(Number(entry));
  }
  return found;
}

describe('a transcoder stopped during a download-time transcode', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-download-handoff-'));
  const blobs = new DirBlobStore({ dir: path.join(root, 'blobs') });
  const docs = new SqliteDocStore();
  const hub = MemoryBus.hub();
  const buses: MemoryBus[] = [];
  const running: Stoppable[] = [];
  const logger = createLogger({ name: 'download-handoff-test', level: 'silent' });
  const bus = () => {
    const b = new MemoryBus(hub);
    buses.push(b);
    return b;
  };
  const transcoder = (drainMs: number) =>
    startTranscoderService(
      { bus: bus(), docs, blobs, logger, metrics: new Registry() },
      {
        scratchDir: path.join(root, 'scratch'),
        concurrency: 1,
        timeoutMs: 120_000,
        drainMs,
        binaries: systemBinaries(),
      },
    );

  beforeAll(async () => {
    const source = path.join(root, 'long.wav');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=16000:duration=${SECONDS}`,
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      source,
    ]);
    await blobs.put('files/long', fs.createReadStream(source));
    // Storage's side of the resolve subject: the published file.
    await bus().serve(Subjects.storage.fileResolvePublic, 'storage', async () => ({
      status: 200,
      body: {
        file_sid: 'FI-long',
        blob_key: 'files/long',
        file_bytes: fs.statSync(source).size,
        mime_type: 'audio/x-wav',
        name: 'long.wav',
        file_access_name: 'FI-long.wav',
        content_format: 'wav',
        content_bitrate: 256000,
        last_modified: new Date().toISOString(),
      },
    }));
  }, 60_000);
  afterAll(async () => {
    for (const s of running.reverse()) await s.stop();
    await Promise.all(buses.map((b) => b.close()));
    await docs.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('the stop takes the drain deadline, not the run; the download is served whole by another replica', async () => {
    const fileServer = await startFileServer(
      { bus: bus(), blobs, logger, metrics: new Registry() },
      { port: 0, cacheTtlMs: 0, busTimeoutMs: 5000, transcodeTimeoutMs: 60_000 },
    );
    running.push(fileServer);
    const first = await transcoder(300);
    const download = fetch(`http://127.0.0.1:${fileServer.port}/f/FI-long?f=mp4`).then(async (res) => ({
      status: res.status,
      body: Buffer.from(await res.arrayBuffer()),
    }));
    await untilTrue(() => ffmpegChildren().length > 0, { what: 'ffmpeg to start', timeoutMs: 20_000 });
    // The second replica comes up while the first is busy; then the first is stopped.
    running.push(await transcoder(10_000));
    const stopAt = Date.now();
    await first.stop();
    const stopMs = Date.now() - stopAt;
    // Without the give-up the stop waits out the whole run (about 7 s here, longer under load).
    expect(stopMs).toBeLessThan(5000);

    const res = await download;
    expect(res.status).toBe(200);
    const out = path.join(root, 'out.mp4');
    fs.writeFileSync(out, res.body);
    const duration = Number(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', out], {
        encoding: 'utf8',
      }).trim(),
    );
    expect(duration).toBeCloseTo(SECONDS, 0);
    expect(fs.statSync(path.join(root, 'blobs', 'cache', 'FI-long', 'mp4-src')).size).toBe(res.body.length);
  }, 120_000);
});

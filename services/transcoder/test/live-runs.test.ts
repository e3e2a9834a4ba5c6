/**
 * Streamed download-time copies through the transcoder's subjects (decisions §53), real ffmpeg and
 * a real blob directory; storage's side of the copy claims is a stand-in that records what it is
 * told. Two starts of one copy share one run and read the same bytes; when every listener has gone
 * the run stops if it has read less than half its source (claim given back, nothing stored) and
 * finishes into the cache if it has read more.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import {
  CopyCacheRequests,
  LivePullReplySchema,
  LivePullRequestSchema,
  Subjects,
  TableCaller,
  TranscoderClient,
  type LivePullReply,
} from '@patchbay/contracts';
import {
  createLogger,
  DirBlobStore,
  MemoryBus,
  serveRequests,
  SqliteDocStore,
  type Stoppable,
} from '@patchbay/platform';
import { startTranscoderService } from '../src/service';
import { systemBinaries } from './support/binaries';
import { untilTrue } from '../../../tests/support/poll';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-live-runs-'));
const blobs = new DirBlobStore({ dir: path.join(root, 'blobs') });
const docs = new SqliteDocStore();
const hub = MemoryBus.hub();
const bus = new MemoryBus(hub);
const logger = createLogger({ name: 'live-runs-test', level: 'silent' });
let transcoder: Stoppable;

/** What storage was told about each copy. */
const told = { live: new Map<string, string>(), stored: new Map<string, number>(), released: new Set<string>() };

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
    'anoisesrc=color=pink:amplitude=0.25:seed=7:sample_rate=16000:duration=1200',
    '-c:a',
    'pcm_s16le',
    source,
  ]);
  await blobs.put('files/long', fs.createReadStream(source));
  // Storage's side of the copy claims, typed and checked by the contracts' own table.
  const claims = Subjects.storage;
  await serveRequests(
    bus,
    'storage',
    {
      [claims.copyRenew]: CopyCacheRequests[claims.copyRenew],
      [claims.copyStored]: CopyCacheRequests[claims.copyStored],
      [claims.copyRelease]: CopyCacheRequests[claims.copyRelease],
    },
    {
      [claims.copyRenew]: async (req) => {
        if (req.live) told.live.set(req.key, req.live);
        return { held: true };
      },
      [claims.copyStored]: async (req) => {
        told.stored.set(req.key, req.size);
        return {};
      },
      [claims.copyRelease]: async (req) => {
        told.released.add(req.key);
        return {};
      },
    },
    logger,
  );
  transcoder = await startTranscoderService(
    { bus: new MemoryBus(hub), docs, blobs, logger, metrics: new Registry() },
    { scratchDir: path.join(root, 'scratch'), concurrency: 1, timeoutMs: 120_000, binaries: systemBinaries() },
  );
}, 60_000);

afterAll(async () => {
  await transcoder?.stop();
  await bus.close();
  await docs.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const transcoders = new TranscoderClient(bus, { timeoutMs: 30_000 });
const start = (key: string, listener: string, target = 'mp3') =>
  transcoders.stream({
    blob_key: 'files/long',
    source_format: 'wav',
    target,
    bitrate: null,
    output_key: key,
    claim_token: `token-${key}`,
    listener,
  });

/** Pulls of one listener on a live subject. */
function puller(subject: string, key: string, listener: string) {
  const caller = new TableCaller(bus, { [subject]: { request: LivePullRequestSchema, reply: LivePullReplySchema } });
  let offset = 0;
  const chunks: Buffer[] = [];
  return {
    async next(): Promise<LivePullReply> {
      const reply = await caller.call(subject, { key, listener, offset }, { timeoutMs: 10_000 });
      const bytes = Buffer.from(reply.data, 'base64');
      offset += bytes.length;
      chunks.push(bytes);
      return reply;
    },
    async toEnd(): Promise<Buffer> {
      while (!(await this.next()).end);
      return Buffer.concat(chunks);
    },
    leave: () => caller.call(subject, { key, listener, offset, leave: true }),
  };
}

test('two starts of one copy share its run: the same subject, the same bytes, stored once', async () => {
  const key = 'cache/FI-long/mp3-shared';
  const a = await start(key, 'a');
  const b = await start(key, 'b');
  if (!('live' in a) || !('live' in b)) throw new Error('expected live runs');
  expect(b.live).toBe(a.live);
  expect(told.live.get(key)).toBe(a.live);
  const [bytesA, bytesB] = await Promise.all([puller(a.live, key, 'a').toEnd(), puller(b.live, key, 'b').toEnd()]);
  expect(Buffer.compare(bytesA, bytesB)).toBe(0);
  expect(told.stored.get(key)).toBe(bytesA.length);
  expect((await blobs.stat(key)).size).toBe(bytesA.length);
  expect(told.released.has(key)).toBe(false);
}, 120_000);

const BEFORE_HALF =
  'every listener gone before half the source is read: the run stops, ' + 'stores nothing, gives its claim back';
test(
  BEFORE_HALF,
  async () => {
    const key = 'cache/FI-long/ogg-left-early';
    const started = await start(key, 'only', 'ogg');
    if (!('live' in started)) throw new Error('expected a live run');
    const listener = puller(started.live, key, 'only');
    let reply = await listener.next();
    while (reply.data.length === 0) reply = await listener.next();
    expect(reply.progress).toBeLessThan(50);
    await listener.leave();
    await untilTrue(() => told.released.has(key), { what: 'the claim to be given back', timeoutMs: 60_000 });
    expect(told.stored.has(key)).toBe(false);
    await expect(blobs.stat(key)).rejects.toThrow();
  },
  120_000,
);

test('every listener gone past half the source: the run finishes into the cache', async () => {
  const key = 'cache/FI-long/mp3-past-half';
  const started = await start(key, 'only');
  if (!('live' in started)) throw new Error('expected a live run');
  const listener = puller(started.live, key, 'only');
  let reply = await listener.next();
  while (reply.progress <= 60 && !reply.end) reply = await listener.next();
  expect(reply.end).toBe(false);
  await listener.leave();
  await untilTrue(() => told.stored.has(key), { what: 'the copy to be stored', timeoutMs: 60_000 });
  expect(told.released.has(key)).toBe(false);
  expect((await blobs.stat(key)).size).toBe(told.stored.get(key));
}, 120_000);

/** ffmpeg processes whose working directory is a run's scratch under this test's root (Linux /proc). */
function ffmpegsOfThisTest(): number[] {
  const scratch = path.join(root, 'scratch');
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return (
          fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'ffmpeg' &&
          fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(scratch)
        );
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    });
}

test('ffmpeg reads a source in the directory store itself: its stdin is the blob’s own file', async () => {
  const key = 'cache/FI-long/mp3-own-stdin';
  const started = await start(key, 'only');
  if (!('live' in started)) throw new Error('expected a live run');
  let stdin: string | null = null;
  await untilTrue(
    () => {
      const [pid] = ffmpegsOfThisTest();
      if (pid === undefined) return false;
      stdin = fs.readlinkSync(`/proc/${pid}/fd/0`);
      return true;
    },
    { what: 'the run’s ffmpeg', timeoutMs: 60_000 },
  );
  expect(stdin).toBe(path.join(root, 'blobs', 'files', 'long'));
  // Progress still moves (the file's shared offset), and the bytes still reach the end.
  const listener = puller(started.live, key, 'only');
  let reply = await listener.next();
  let moved = false;
  while (!reply.end) {
    moved ||= reply.progress > 0 && reply.progress < 100;
    reply = await listener.next();
  }
  expect(moved).toBe(true);
  expect(told.stored.has(key)).toBe(true);
}, 120_000);

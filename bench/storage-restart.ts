/**
 * Restart until the first upload succeeds, against the number of stored files (issue 40 item 3, decisions §49): the
 * all-in-one process as `pnpm start` runs it, on the MongoDB path (the project's own MongoDB-wire server, CongoDB,
 * in this process; documents and GridFS blobs). Each size gets databases of its own, seeded straight through the
 * driver after a first start made the indexes (file documents in storage's `files`, one small GridFS blob each, and
 * 10% more blobs whose files are gone: orphans for the sweep); then Patchbay is started again and the time from spawn
 * to the first 201 of an upload is taken.
 * Printed: 0 vs 1,500 files and 10,000 vs 100,000 files, with the ratio each. Readiness should not grow with the
 * data: the orphan sweep runs after ready, in batches.
 *
 *   pnpm exec tsx bench/storage-restart.ts [pairs=0:1500,10000:100000]    (BENCH_RUNS=3 restarts per size)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Binary, MongoClient, ObjectId } from 'mongodb';
import { startCongoServer } from '../tests/mongo/congo-server';
import { freePort, reservePorts } from '../tests/harness/free-port';

const ROOT = path.resolve(__dirname, '..');
const PAIRS = (process.argv[2] ?? '0:1500,10000:100000').split(',').map((p) => p.split(':').map(Number));
const KEY = Buffer.alloc(32, 7).toString('base64');
const TOKEN = `bench-token-${randomUUID()}`;
const BATCH = 5000;
/** Restarts timed per size (BENCH_RUNS): the median is compared, a shared machine being noisy. */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Storage's files and GridFS blobs for `n` files (and n/10 orphan blobs), inserted in batches. */
async function seed(client: MongoClient, prefix: string, n: number): Promise<void> {
  const files = client.db(`${prefix}_storage`).collection('files');
  const gridFiles = client.db(`${prefix}_blobs`).collection('fs.files');
  const chunks = client.db(`${prefix}_blobs`).collection('fs.chunks');
  const partner = randomUUID();
  const old = new Date(Date.now() - 24 * 3600 * 1000);
  const total = n + Math.floor(n / 10);
  for (let i = 0; i < total; i += BATCH) {
    const docs = [];
    const blobs = [];
    const parts = [];
    for (let j = i; j < Math.min(total, i + BATCH); j++) {
      const sid = randomUUID();
      const key = `files/${partner}/${sid}`;
      if (j < n)
        docs.push({
          file_sid: sid,
          blob_key: key,
          partner_sid: partner,
          container_sid: 'bench-container',
          file_access_name: sid,
          file_bytes: 1,
          threshold_include: false,
          date_created: old,
          date_last_accessed: old,
        });
      const id = new ObjectId();
      blobs.push({ _id: id, filename: key, length: 1, chunkSize: 261120, uploadDate: old });
      parts.push({ files_id: id, n: 0, data: new Binary(Buffer.from('x')) });
    }
    if (docs.length > 0) await files.insertMany(docs, { ordered: false });
    await gridFiles.insertMany(blobs, { ordered: false });
    await chunks.insertMany(parts, { ordered: false });
  }
}

/** Starts Patchbay on the seeded databases; resolves with the milliseconds until an upload was answered 201. */
async function timeToFirstUpload(url: string, prefix: string, after?: () => Promise<void>): Promise<number> {
  const port = await freePort();
  const storagePort = await reservePorts(4);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bench-restart-'));
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.cjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      STORAGE_PORT: String(storagePort),
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.BENCH_LOG_FILE ? 'info' : 'warn',
      MONGODB_URL: url,
      MONGODB_DB_PREFIX: prefix,
      STORAGE_CREDENTIALS_KEY: KEY,
      ENDPOINT_CREDENTIALS_KEY: KEY,
      RECORDS_CREDENTIALS_KEY: KEY,
      PUSH_CREDENTIALS_KEY: KEY,
      PATCHBAY_BOOTSTRAP_LOGIN: 'admin',
      PATCHBAY_BOOTSTRAP_PASSWORD: 'bench-password-123',
      PATCHBAY_BOOTSTRAP_TOKEN: TOKEN,
    },
    stdio: ['ignore', process.env.BENCH_LOG_FILE ? 'pipe' : 'ignore', 'inherit'],
    detached: true,
  });
  // BENCH_LOG_FILE: the process's own log (at info), to see where the time goes.
  if (process.env.BENCH_LOG_FILE) child.stdout?.pipe(fs.createWriteStream(process.env.BENCH_LOG_FILE, { flags: 'a' }));
  const api = `http://127.0.0.1:${port}/core/v2`;
  const auth = { authorization: `Bearer ${TOKEN}` };
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`patchbay exited with ${child.exitCode}`);
      if (Date.now() - started > 600_000) throw new Error('no upload succeeded within 10 minutes');
      const ok = await (async () => {
        const list = await fetch(`${api}/storage/containers`, { headers: auth, signal: AbortSignal.timeout(5000) });
        const body = (await list.json()) as { items?: Array<{ container_sid: string }> };
        const container = body.items?.[0]?.container_sid;
        if (!container) return false;
        const up = await fetch(`${api}/storage/files?container_sid=${container}&name=probe.txt`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/octet-stream' },
          body: 'ready?',
          signal: AbortSignal.timeout(10_000),
        });
        return up.status === 201;
      })().catch(() => false);
      if (ok) {
        const took = Date.now() - started;
        await after?.();
        return took;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const congo = await startCongoServer();
  const client = await new MongoClient(congo.url).connect();
  try {
    // The first start builds the all-in-one bundle if the sources changed: not part of any measurement.
    await timeToFirstUpload(congo.url, 'bench_restart_warm');
    for (const [a, b] of PAIRS) {
      const ms: number[] = [];
      for (const n of [a, b]) {
        const prefix = `bench_restart_${n}`;
        // A restart: the first start made the indexes and the partner; the files come after it.
        await timeToFirstUpload(congo.url, prefix);
        const t = Date.now();
        await seed(client, prefix, n);
        const seeded = Date.now() - t;
        const runs: number[] = [];
        for (let r = 0; r < RUNS; r++) runs.push(await timeToFirstUpload(congo.url, prefix));
        ms.push(median(runs));
        console.log(
          `${n} files (+${Math.floor(n / 10)} orphan blobs, seeded in ${seeded} ms): median ${ms.at(-1)} ms ` +
            `of ${RUNS} restarts (${runs.join(', ')})`,
        );
      }
      console.log(`  ${b} vs ${a} files: ${ms[1]} ms vs ${ms[0]} ms, ratio ${(ms[1] / ms[0]).toFixed(2)}`);
    }
    // And the orphans still go, after ready: one more restart, kept up until none is left. Of the smallest size
    // with files: the emulator answers every query by scanning its collection (MongoDB uses the indexes), so removing
    // 10,000 orphans among 100,000 files, a stat and a GridFS delete each, takes it longer than the bench should.
    const n = Math.min(...PAIRS.flat().filter((x) => x > 0));
    const prefix = `bench_restart_${n}`;
    const orphans = async () =>
      (await client.db(`${prefix}_blobs`).collection('fs.files').countDocuments()) -
      (await client.db(`${prefix}_storage`).collection('files').countDocuments());
    const before = await orphans();
    let sweptAfter = 0;
    await timeToFirstUpload(congo.url, prefix, async () => {
      const ready = Date.now();
      while ((await orphans()) > 0) {
        if (Date.now() - ready > 600_000) throw new Error('orphans still there 10 minutes after ready');
        await new Promise((r) => setTimeout(r, 500));
      }
      sweptAfter = Date.now() - ready;
    });
    console.log(`${n} files: ${before} orphan blobs removed, the last ${sweptAfter} ms after the first upload`);
  } finally {
    await client.close();
    await congo.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

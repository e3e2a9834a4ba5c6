/**
 * The cost of age encryption on a stream, for the storage integration: 100 MiB of plaintext
 * through @patchbay/age's encrypter against a pass-through copy of the same stream (in memory),
 * and against writing it to disk with an fsync (what the directory blob store does); the
 * decrypter against reading the age file from disk. MiB/s of plaintext, the ratio to the row's
 * baseline, and this process's CPU seconds per GiB (less sensitive than wall time to a busy
 * machine). The stock `age` tool (Go) on the same bytes through a pipe is a reference row (its CPU
 * is in the child, not counted). Each row is its best of `runs` rounds; a round runs every row once.
 *
 *   pnpm exec tsx bench/age-throughput.ts [sizeMiB=100] [runs=3] [blockKiB=64]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decryptStream, encryptStream, parseIdentities } from '@patchbay/age';
import { MiB, table } from './lib/proc';

const SIZE = Number(process.argv[2] ?? 100) * MiB;
const RUNS = Number(process.argv[3] ?? 3);
const BLOCK_KIB = Number(process.argv[4] ?? 64);
const BLOCK = Buffer.alloc(BLOCK_KIB * 1024, 0x5a);

/**
 * `size` bytes in pieces of BLOCK_KIB (64 KiB by default: what an HTTP request body arrives in), each
 * a new buffer (one piece written over and over would stay in the CPU cache, flattering the baselines).
 */
function source(size: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(BLOCK.length, size - sent);
      sent += n;
      this.push(Buffer.from(BLOCK.subarray(0, n))); // fresh memory per piece, as a request body arrives
    },
  });
}

/** The baseline transform: passes each chunk on as a fresh copy (the encrypter allocates its output too). */
const copying = () =>
  new Transform({ transform: (chunk: Buffer, _encoding, callback) => callback(null, Buffer.from(chunk)) });

const sink = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

interface Sample {
  ms: number;
  cpuMs: number;
}

/** One timed run: wall time and this process's CPU time (all its threads). */
async function once(run: () => Promise<void>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

/** The stock age tool encrypting the same bytes, fed through a pipe, output discarded. */
function ageTool(recipient: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('age', ['-r', recipient], { stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`age exited ${code}`))));
    pipeline(source(SIZE), child.stdin).catch(reject);
  });
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-age-bench-'));
  const identityFile = path.join(dir, 'identity.txt');
  await new Promise<void>((resolve, reject) =>
    spawn('age-keygen', ['-o', identityFile], { stdio: 'ignore' }).on('exit', (c) => (c === 0 ? resolve() : reject())),
  );
  const identities = parseIdentities(fs.readFileSync(identityFile, 'utf8'));
  const recipient = /age1[0-9a-z]+/.exec(fs.readFileSync(identityFile, 'utf8'))?.[0] ?? '';
  const encrypted = path.join(dir, 'file.age');
  const encrypter = () => encryptStream([recipient]);
  const decrypter = () => decryptStream(identities);
  await pipeline(source(SIZE), encryptStream([recipient]), fs.createWriteStream(encrypted));

  const through = (make: () => Transform) => () => pipeline(source(SIZE), make(), sink());
  const toDisk = (make: () => Transform) => () =>
    pipeline(source(SIZE), make(), fs.createWriteStream(path.join(dir, 'out'), { flush: true }));
  const fromDisk = (make: () => Transform) => () => pipeline(fs.createReadStream(encrypted), make(), sink());
  const rows: Array<{ path: string; run: () => Promise<void>; baseline?: number; best?: Sample }> = [
    { path: 'in memory: pass-through copy (baseline)', run: through(copying) },
    { path: 'in memory: @patchbay/age encrypt', run: through(encrypter), baseline: 0 },
    { path: 'to disk: write, fsync (baseline)', run: toDisk(() => new PassThrough()) },
    { path: 'to disk: @patchbay/age encrypt, write, fsync', run: toDisk(encrypter), baseline: 2 },
    { path: 'from disk: read (baseline)', run: fromDisk(() => new PassThrough()) },
    { path: 'from disk: read, @patchbay/age decrypt', run: fromDisk(decrypter), baseline: 4 },
    { path: 'reference: age 1.1 tool encrypt (Go, pipe)', run: () => ageTool(recipient), baseline: 0 },
  ];
  // Rounds alternate the rows, so a change in the machine's load hits every row alike.
  for (let round = 0; round < RUNS; round++) {
    for (const row of rows) {
      const sample = await once(row.run);
      if (!row.best || sample.ms < row.best.ms) row.best = sample;
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });

  console.log(
    `${SIZE / MiB} MiB in ${BLOCK_KIB} KiB pieces, best of ${RUNS} ` +
      `alternating rounds; node ${process.version}; ${os.cpus().length} ` +
      `cores; ` +
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const rate = (row: (typeof rows)[number]) => SIZE / MiB / ((row.best?.ms ?? Infinity) / 1000);
  console.log(
    table(
      rows.map((row) => ({
        path: row.path,
        'MiB/s': rate(row).toFixed(0),
        ratio: row.baseline === undefined ? '1' : (rate(row) / rate(rows[row.baseline])).toFixed(2),
        'CPU s/GiB (this process)': (((row.best?.cpuMs ?? 0) / 1000) * (1024 / (SIZE / MiB))).toFixed(2),
      })),
    ),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

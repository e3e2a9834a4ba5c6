/**
 * The cost of age encryption on a stream, for the storage integration: 100 MiB of plaintext
 * through @patchbay/age's encrypter against a pass-through copy of the same stream (in memory),
 * and against writing it to disk with an fsync (what the directory blob store does); the
 * decrypter against reading the age file from disk. MiB/s of plaintext, the ratio to the row's
 * baseline, and this process's CPU seconds per GiB (less sensitive than wall time to a busy
 * machine). The stock `age` tool (Go) on the same bytes through a pipe is a reference row (its CPU
 * is in the child, not counted). Each row is the best of `runs` runs.
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

/** `size` bytes in blocks of BLOCK_KIB (64 KiB by default: what an HTTP request body arrives in), made on the fly. */
function source(size: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(BLOCK.length, size - sent);
      sent += n;
      this.push(n === BLOCK.length ? BLOCK : BLOCK.subarray(0, n));
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

async function measure(run: () => Promise<void>): Promise<Sample> {
  let best: Sample = { ms: Infinity, cpuMs: Infinity };
  for (let i = 0; i < RUNS; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await run();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (ms < best.ms) best = { ms, cpuMs: (used.user + used.system) / 1000 };
  }
  return best;
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
  const copy = await measure(through(copying));
  const write = await measure(toDisk(() => new PassThrough()));
  const read = await measure(fromDisk(() => new PassThrough()));
  const rows: Array<{ path: string; sample: Sample; baseline: Sample | null }> = [
    { path: 'in memory: pass-through copy (baseline)', sample: copy, baseline: null },
    { path: 'in memory: @patchbay/age encrypt', sample: await measure(through(encrypter)), baseline: copy },
    { path: 'to disk: write, fsync (baseline)', sample: write, baseline: null },
    { path: 'to disk: @patchbay/age encrypt, write, fsync', sample: await measure(toDisk(encrypter)), baseline: write },
    { path: 'from disk: read (baseline)', sample: read, baseline: null },
    { path: 'from disk: read, @patchbay/age decrypt', sample: await measure(fromDisk(decrypter)), baseline: read },
    {
      path: 'reference: age 1.1 tool encrypt (Go, pipe)',
      sample: await measure(() => ageTool(recipient)),
      baseline: copy,
    },
  ];
  fs.rmSync(dir, { recursive: true, force: true });

  const rate = (s: Sample) => SIZE / MiB / (s.ms / 1000);
  console.log(
    `${SIZE / MiB} MiB in ${BLOCK_KIB} KiB pieces, best of ${RUNS}; node ${process.version}; ${os.cpus().length} cores; ` +
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  console.log(
    table(
      rows.map(({ path: name, sample, baseline }) => ({
        path: name,
        'MiB/s': rate(sample).toFixed(0),
        ratio: baseline ? (rate(sample) / rate(baseline)).toFixed(2) : '1',
        'CPU s/GiB (this process)': ((sample.cpuMs / 1000) * (1024 / (SIZE / MiB))).toFixed(2),
      })),
    ),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

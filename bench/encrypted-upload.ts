/**
 * Encrypted recordings (decisions §43): a raw upload into a container with encryption keys (one age
 * key and one 3072-bit RSA key, as a partner with an offline spare would have) against the same
 * upload into a plain container, through the same Patchbay instance, alternating, best of `runs`
 * each, and the median of the rounds' paired ratios: a 100 MiB upload is ~0.2 s, of which the
 * final fsync (same for both rows) varies by tens of ms, so the best of a few rounds is partly luck
 * and the median is the steadier figure. The encrypted file is checked to decrypt (with Patchbay's
 * own decrypter and the age identity) to the exact bytes sent, so the row measures a working path.
 * Target ratio ≥ 0.8.
 * It also prints the peak resident memory of the processes the bytes pass through (the gateway and
 * storage, or the one embedded process) while the encrypted uploads run, beside their memory before
 * the first upload: with `1024 1` that is the "memory flat for a 1 GiB upload" check.
 *
 *   pnpm exec tsx bench/encrypted-upload.ts [sizeMiB=100] [runs=3] [mode=distributed|embedded]
 */
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decryptStream, parseIdentities } from '@patchbay/age';
import { defaultContainer } from '../tests/harness/default-container';
import { START_SCRIPT, startPatchbay, type PatchbayInstance } from '../tests/harness/patchbay';
import { MiB, cpuSecondsOf, findInGroup, mainThreadCpuSecondsOf, rssOf, samplePeak, table } from './lib/proc';
import { median, medianRatio } from './lib/stats';

const SIZE = Number(process.argv[2] ?? 100) * MiB;
const RUNS = Number(process.argv[3] ?? 3);
const MODE = (process.argv[4] ?? 'distributed') as 'distributed' | 'embedded';
const PIECE = 64 * 1024;

/** `size` bytes, deterministic (so the decrypted file can be checked by hash), generated as sent. */
function body(size: number, seed: Buffer): Readable {
  let sent = 0;
  let block = seed;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(PIECE, size - sent);
      block = crypto.createHash('sha512').update(block).digest();
      const piece = Buffer.alloc(n);
      for (let i = 0; i < n; i += block.length) block.copy(piece, i);
      sent += n;
      this.push(piece);
    },
  });
}

async function sha256Of(stream: Readable): Promise<string> {
  const h = crypto.createHash('sha256');
  await pipeline(stream, new Writable({ write: (c: Buffer, _e, cb) => (h.update(c), cb()) }));
  return h.digest('hex');
}

async function api<T>(inst: PatchbayInstance, method: string, p: string, json?: unknown): Promise<T> {
  const res = await fetch(`${inst.baseUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** One raw upload of SIZE bytes; its wall time and the File. */
async function upload(inst: PatchbayInstance, container: string, seed: Buffer) {
  const started = performance.now();
  const file = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const req = http.request(
      `${inst.baseUrl}/storage/files?container_sid=${container}&name=bench.bin`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${inst.token}`,
          'content-type': 'application/octet-stream',
          'content-length': String(SIZE),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () =>
          res.statusCode === 201
            ? resolve(JSON.parse(Buffer.concat(parts).toString()) as Record<string, unknown>)
            : reject(new Error(`upload: ${res.statusCode} ${Buffer.concat(parts).toString()}`)),
        );
      },
    );
    req.on('error', reject);
    pipeline(body(SIZE, seed), req).catch(reject);
  });
  return { ms: performance.now() - started, file };
}

/** The processes whose memory is reported, by name: how to find each in the instance's process group. */
function watched(inst: PatchbayInstance): Array<[string, () => number[]]> {
  const inGroup = (needle: string) => () => findInGroup(inst.pid, needle);
  return MODE === 'embedded'
    ? [['all-in-one', inGroup(START_SCRIPT)]]
    : [
        ['gateway', inGroup('services/gateway/src/main.ts')],
        ['storage', inGroup('services/storage/src/main.ts')],
      ];
}

/** The largest resident set among `pids` now (tsx's launcher and its node child both match: the child is larger). */
const rssNow = (pids: number[]) => Math.max(0, ...pids.map(rssOf));

/**
 * CPU seconds used so far by each watched process (less sensitive to a busy machine than wall time):
 * for each role its whole process, then its main thread alone (the event loop every request waits on;
 * the rest is its other threads: V8's collector helpers, libuv's file writes).
 */
const cpuNow = (roles: Array<[string, () => number[]]>) =>
  roles.flatMap(([, pids]) => {
    const now = pids();
    return [
      now.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
      now.reduce((sum, pid) => sum + mainThreadCpuSecondsOf(pid), 0),
    ];
  });

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bench-enc-'));
  const identity = path.join(dir, 'age.txt');
  execFileSync('age-keygen', ['-o', identity], { stdio: 'ignore' });
  const recipient = execFileSync('age-keygen', ['-y', identity], { encoding: 'utf8' }).trim();
  execFileSync('ssh-keygen', ['-q', '-N', '', '-t', 'rsa', '-b', '3072', '-f', path.join(dir, 'id_rsa')]);
  const rsa = fs.readFileSync(path.join(dir, 'id_rsa.pub'), 'utf8').trim();
  const inst = await startPatchbay(MODE, { LOG_LEVEL: 'warn' });
  try {
    const quota = { quota_bytes: 64 * 1024 * MiB, quota_files: 1000 };
    const keys = [];
    for (const public_key of [recipient, rsa])
      keys.push(
        (await api<{ encryption_key_sid: string }>(inst, 'POST', '/storage/encryption_keys', { public_key }))
          .encryption_key_sid,
      );
    // The default container (waited for: it is made as the partner is) for the plain rows; one more for the sealed.
    const plain = await defaultContainer(inst, 60_000);
    await api(inst, 'PATCH', `/storage/containers/${plain}`, quota);
    const sealed = (
      await api<{ container_sid: string }>(inst, 'POST', '/storage/containers', {
        name: 'sealed',
        encryption_key_sids: keys,
        ...quota,
      })
    ).container_sid;
    const seed = crypto.randomBytes(64);
    const expected = await sha256Of(body(SIZE, seed));
    const times = { plain: [] as number[], sealed: [] as number[] };
    const cpu = { plain: [] as number[][], sealed: [] as number[][] };
    const roles = watched(inst);
    const idle = roles.map(([, pids]) => rssNow(pids()));
    const peaks = roles.map(() => 0);
    let last: Record<string, unknown> = {};
    for (let round = 0; round < RUNS; round++) {
      // Alternating, so a busy spell of the shared machine falls on both rows alike.
      for (const [name, container] of [
        ['plain', plain],
        ['sealed', sealed],
      ] as const) {
        const samplers = name === 'sealed' ? roles.map(([, pids]) => samplePeak(pids)) : [];
        const cpuBefore = cpuNow(roles);
        const r = await upload(inst, container, seed);
        cpu[name].push(cpuNow(roles).map((c, i) => c - cpuBefore[i]));
        samplers.forEach((s, i) => (peaks[i] = Math.max(peaks[i], s.stop())));
        times[name].push(r.ms);
        if (name === 'sealed') last = r.file;
        await api(inst, 'DELETE', `/storage/files/${String(r.file.file_sid)}`).catch(() => undefined);
      }
    }
    // Check the last encrypted upload (uploaded again: the runs' files are deleted as they go).
    const check = await upload(inst, sealed, seed);
    const data = await fetch(`${inst.baseUrl}/storage/files/${String(check.file.file_sid)}/data`, {
      headers: { authorization: `Bearer ${inst.token}` },
    });
    // cast: Node's fetch body is a web ReadableStream Readable.fromWeb takes
    const plaintext = Readable.fromWeb(data.body! as import('node:stream/web').ReadableStream).pipe(
      decryptStream(parseIdentities(fs.readFileSync(identity, 'utf8'))),
    );
    const got = await sha256Of(plaintext);
    if (got !== expected) throw new Error('the encrypted upload does not decrypt to what was sent');
    const best = (xs: number[]) => Math.min(...xs);
    const mibs = (ms: number) => (SIZE / MiB / (ms / 1000)).toFixed(1);
    const enc = last.encryption as { header_bytes: number };
    // Each role's CPU seconds per upload, the least of the row's runs (a busy machine only adds to it).
    const cpuOf = (row: 'plain' | 'sealed') =>
      Object.fromEntries(
        roles.flatMap(([role], i) => [
          [`${role} CPU s`, best(cpu[row].map((c) => c[2 * i])).toFixed(2)],
          [`${role} main thread s`, best(cpu[row].map((c) => c[2 * i + 1])).toFixed(2)],
        ]),
      );
    console.log(
      `\nEncrypted vs plain raw upload, ${SIZE / MiB} MiB, ${MODE}, best and median of ` +
        `${RUNS} alternating, ${os.cpus().length} cores (decrypts: ok)\n`,
    );
    console.log(
      table([
        {
          path: 'plain container (baseline)',
          'MiB/s': mibs(best(times.plain)),
          ratio: '1.00',
          'median MiB/s': mibs(median(times.plain)),
          'median ratio': '1.00',
          ...cpuOf('plain'),
        },
        {
          path: `encrypted to 2 keys (age + RSA-3072; header ${enc.header_bytes} B)`,
          'MiB/s': mibs(best(times.sealed)),
          ratio: (best(times.plain) / best(times.sealed)).toFixed(2),
          'median MiB/s': mibs(median(times.sealed)),
          // Each round's plain time over its encrypted time: rounds side by side, compared pairwise.
          'median ratio': medianRatio(times.plain, times.sealed).toFixed(2),
          ...cpuOf('sealed'),
        },
      ]),
    );
    const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
    console.log(
      `\nPeak RSS during the encrypted uploads (sampled every 50 ms; before the first upload): ` +
        roles.map(([role], i) => `${role} ${mib(peaks[i])} (${mib(idle[i])})`).join(', '),
    );
  } finally {
    await inst.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

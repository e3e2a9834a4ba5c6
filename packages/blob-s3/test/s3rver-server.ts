/**
 * A private s3rver (npm `s3rver`, an S3 API server on local files) for a test suite: its own
 * process, 127.0.0.1, a port the kernel picks (read back from its start-up line), a fresh
 * temporary directory that `stop` removes. Two of its departures from S3 are corrected
 * (s3rver-fidelity.cjs): objects are replaced atomically, and a range of an empty object is a 416.
 * It does not check signatures, and it does not implement AbortMultipartUpload (405): aborted
 * uploads stay in its directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const START_LIMIT_MS = 15_000;

export interface S3rverHandle {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** Where s3rver keeps buckets and objects (multipart parts included). */
  dir: string;
  stop(): Promise<void>;
}

/** Starts s3rver with `buckets` created; resolves once it listens. */
export async function startS3rver(buckets: string[]): Promise<S3rverHandle> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-s3rver-'));
  const bin = require.resolve('s3rver/bin/s3rver.js');
  // --openssl-legacy-provider: s3rver makes its continuation tokens with DES, which OpenSSL 3 (Node 17+)
  // only has in its legacy provider; without it any listing longer than one page is a 500.
  const args = [
    '--openssl-legacy-provider',
    '--require',
    path.join(__dirname, 's3rver-fidelity.cjs'),
    bin,
    '-d',
    dir,
    '-a',
    '127.0.0.1',
    '-p',
    '0',
    '--silent',
    ...buckets.flatMap((b) => ['--configure-bucket', b]),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  try {
    const port = await listening(child);
    return {
      endpoint: `http://127.0.0.1:${port}`,
      dir,
      async stop() {
        await terminate(child);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await terminate(child);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Waits for "S3rver listening on 127.0.0.1:<port>". */
function listening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(
      () => reject(new Error(`s3rver did not start within ${START_LIMIT_MS} ms:\n${log}`)),
      START_LIMIT_MS,
    );
    const read = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
      const m = /listening on [\d.]+:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with code ${code}:\n${log}`));
    });
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

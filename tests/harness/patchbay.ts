import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNatsServer } from '../../packages/platform/src/testing/nats-server';
import { dropDatabases, testDbPrefix } from '../../packages/platform/src/testing/mongo-databases';
import { freePort, releasePorts, reservePorts } from './free-port';
import { findInGroup } from '../../bench/lib/proc';
import { until } from '../support/poll';

export type Mode = 'embedded' | 'distributed';

/** A running Patchbay under test: its public URLs and the bootstrap partner's credentials. */
export interface PatchbayInstance {
  mode: Mode;
  /** Origin of the API (`http://127.0.0.1:<port>`); the API root is `${origin}/core/v2`. */
  origin: string;
  baseUrl: string;
  storageUrl: string;
  login: string;
  password: string;
  token: string;
  dataDir: string;
  /** The transcoder's scratch directory (TRANSCODER_SCRATCH_DIR): inside the data directory unless a test sets it. */
  scratchDir: string;
  natsUrl?: string;
  /** With MONGODB_URL: this instance's MONGODB_DB_PREFIX (its databases are `<prefix>_<service>`, `<prefix>_blobs`). */
  mongoDbPrefix?: string;
  /** With BLOB_STORE_URL (`pnpm test:s3`): this instance's own place in the bucket, kept across restart(). */
  blobStoreUrl?: string;
  /** Embedded only: the all-in-one process's operations port (/health, /metrics). */
  opsPort?: number;
  /** PID of the launched process; also its process group ID. */
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL to every process of the instance (a crash); the data directory and NATS stay. */
  kill(): Promise<void>;
  /**
   * Starts the same instance again (same ports, data directory, databases and NATS) after kill();
   * `env` changes its environment from then on (a replaced key, say).
   */
  restart(env?: Record<string, string>): Promise<PatchbayInstance>;
  /**
   * Distributed only: stops its nats-server (with kill -9 when `crash`) and starts it again (same port
   * and store) after `downMs`.
   */
  restartNats(downMs?: number, crash?: boolean): Promise<void>;
  /** The last lines the instance printed (every service's JSON logs, prefixed by the launcher). */
  output(): string;
  /** What it printed until it was ready (its start banner included). */
  startupOutput: string;
}

/** What a restarted instance keeps from the one before. */
interface Reuse {
  port: number;
  storagePort: number;
  dataDir: string;
  mongoDbPrefix?: string;
  blobStoreUrl?: string;
  nats?: Awaited<ReturnType<typeof startNatsServer>>;
}

const ROOT = path.resolve(__dirname, '../..');
const scratchDirOf = (dataDir: string) => path.join(dataDir, 'transcoder-scratch');
/** A fixed key for test runs against MongoDB (32 bytes, Base64); never used outside tests. */
export const TEST_CREDENTIALS_KEY = Buffer.alloc(32, 7).toString('base64');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
/** What `pnpm start` runs: the all-in-one process from its cached bundle. */
export const START_SCRIPT = 'scripts/start.cjs';

/**
 * Starts Patchbay the way a user does — `pnpm start` (all-in-one) or the distributed launcher over
 * a nats-server of its own — on free ports with a temporary data directory and fixed bootstrap
 * credentials, and waits until the bootstrap token works.
 */
export async function startPatchbay(
  mode: Mode,
  extraEnv: Record<string, string> = {},
  reuse?: Reuse & { token: string },
): Promise<PatchbayInstance> {
  const port = reuse?.port ?? (await freePort());
  // File-server replicas listen on consecutive ports from STORAGE_PORT.
  const storagePort = reuse?.storagePort ?? (await reservePorts(4));
  const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `patchbay-${mode}-`));
  const login = 'admin';
  const password = 'test-password-123';
  const token = reuse?.token ?? `test-token-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const nats = reuse ? reuse.nats : mode === 'distributed' ? await startNatsServer() : undefined;
  const mongodbUrl = process.env.MONGODB_URL || undefined;
  // Instances share the server: each gets databases of its own, kept across restart().
  const mongoDbPrefix = mongodbUrl ? (reuse?.mongoDbPrefix ?? testDbPrefix()) : undefined;
  // Instances share the bucket too: each gets a prefix of its own (orphan sweeps stay in their own).
  const blobStoreUrl = process.env.BLOB_STORE_URL
    ? (reuse?.blobStoreUrl ?? instancePrefixed(process.env.BLOB_STORE_URL))
    : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    STORAGE_PORT: String(storagePort),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.PATCHBAY_TEST_LOG_LEVEL ?? 'warn',
    PATCHBAY_BOOTSTRAP_LOGIN: login,
    PATCHBAY_BOOTSTRAP_PASSWORD: password,
    PATCHBAY_BOOTSTRAP_TOKEN: token,
    NATS_URL: nats?.url ?? '',
    // The embedded process uses one of the four ports reserved for file servers; its operations port is the last.
    ...(mode === 'embedded' ? { OPS_PORT: String(storagePort + 3) } : {}),
    MONGODB_URL: mongodbUrl ?? '',
    // The transcoder's scratch of this instance only, so a test can look for what its jobs left there.
    TRANSCODER_SCRATCH_DIR: scratchDirOf(dataDir),
    // Voicemail callbacks go to receivers the tests run on 127.0.0.1, and are retried quickly.
    CALLBACK_ALLOW_PRIVATE: 'true',
    CALLBACK_RETRY_BASE_MS: '200',
    // NATS's default max_payload, enforced by the in-process bus too: a message too large for NATS
    // takes the same chunked path in both modes (the distributed mode's nats-server runs with its default).
    BUS_MAX_PAYLOAD: String(1024 * 1024),
    // External containers use s3rver, Azurite and a fake GCS on 127.0.0.1 (tests/api/outbound-guard.test.ts unsets it).
    EXTERNAL_STORAGE_ALLOW_PRIVATE: 'true',
    ...(blobStoreUrl ? { BLOB_STORE_URL: blobStoreUrl } : {}),
    // Push, storage, endpoint and records refuse to start on MongoDB without a shared credentials key (the embedded
    // store makes its own).
    ...(mongodbUrl
      ? {
          PUSH_CREDENTIALS_KEY: process.env.PUSH_CREDENTIALS_KEY ?? TEST_CREDENTIALS_KEY,
          MONGODB_DB_PREFIX: mongoDbPrefix,
          STORAGE_CREDENTIALS_KEY: process.env.STORAGE_CREDENTIALS_KEY ?? TEST_CREDENTIALS_KEY,
          ENDPOINT_CREDENTIALS_KEY: process.env.ENDPOINT_CREDENTIALS_KEY ?? TEST_CREDENTIALS_KEY,
          RECORDS_CREDENTIALS_KEY: process.env.RECORDS_CREDENTIALS_KEY ?? TEST_CREDENTIALS_KEY,
        }
      : {}),
    ...extraEnv,
  };
  // Embedded: as `pnpm start` runs it, from the all-in-one bundle (scripts/start.cjs; built by the first
  // start after a change of the sources), so a restart takes the time an operator's does.
  const [command, args] =
    mode === 'embedded'
      ? [process.execPath, [path.join(ROOT, START_SCRIPT)]]
      : [TSX, [path.join(ROOT, 'services/all-in-one/src/distributed.ts')]];
  // Its own process group, so a crash can be simulated by killing every process of the instance.
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  let announced = false;
  const keep = (b: Buffer) => {
    if (process.env.PATCHBAY_TEST_ECHO) process.stderr.write(b);
    announced ||= ((output[output.length - 1] ?? '') + b.toString()).includes('Patchbay is running.');
    output.push(b.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`patchbay (${mode}) exited with ${child.exitCode}:\n${output.join('')}`);
        // The launchers print their banner once every service is ready (and the partner exists).
        if (!announced) return false;
        const res = await fetch(`${origin}/core/v2/oauth/whoami`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(2000),
        }).catch(() => undefined);
        return res?.status === 200;
      },
      90000,
      () => output.join(''),
    );
  } catch (err) {
    await stopChild(child);
    await nats?.stop();
    throw err;
  }
  return {
    mode,
    pid: child.pid!,
    origin,
    baseUrl: `${origin}/core/v2`,
    storageUrl: `http://127.0.0.1:${storagePort}`,
    ...(mode === 'embedded' ? { opsPort: storagePort + 3 } : {}),
    login,
    password,
    token,
    dataDir,
    scratchDir: extraEnv.TRANSCODER_SCRATCH_DIR ?? scratchDirOf(dataDir),
    natsUrl: nats?.url,
    mongoDbPrefix,
    blobStoreUrl,
    stop: async () => {
      await stopChild(child);
      await nats?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (mongodbUrl && mongoDbPrefix) await dropDatabases(mongodbUrl, mongoDbPrefix);
      releasePorts(port);
      releasePorts(storagePort, 4);
    },
    kill: async () => {
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', () => resolve());
      });
      // The group and every process descended from it: the distributed launcher's services run in
      // process groups of their own.
      const pids = findInGroup(child.pid!, '');
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      await exited;
      await Promise.all(pids.map((pid) => gone(pid)));
    },
    restart: (env = {}) =>
      startPatchbay(
        mode,
        { ...extraEnv, ...env },
        { port, storagePort, dataDir, mongoDbPrefix, blobStoreUrl, nats, token },
      ),
    startupOutput: output.join(''),
    restartNats: async (downMs, crash) => {
      if (!nats) throw new Error('restartNats: an embedded instance has no NATS');
      await nats.restart({ downMs, crash });
    },
    output: () => output.join(''),
  };
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, describe: () => string): Promise<void> {
  await until('patchbay', timeoutMs, async () => ((await check()) ? true : undefined), {
    everyMs: 250,
    detail: () => `output:\n${describe()}`,
  });
}

/** Resolves once `pid` is gone or a zombie (at most 10 s; after that, as if it were). */
async function gone(pid: number): Promise<void> {
  const goneOrZombie = () => {
    try {
      return /^\d+ \([^)]*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')) ? true : undefined;
    } catch {
      return true;
    }
  };
  await until(`${pid} to be gone`, 10_000, goneOrZombie).catch(() => undefined);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** `s3://bucket/prefix?…` with a fresh segment added to the prefix. */
function instancePrefixed(url: string): string {
  const u = new URL(url);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/i${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return u.toString();
}

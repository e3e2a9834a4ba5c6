/**
 * Push throughput: notifications per second to 10,000 Android recipients through Patchbay
 * (`POST /push/notifications`, 100 recipients per request, 10 requests in flight) against calling
 * firebase-admin directly (`sendEachForMulticast`, batches of 500, 2 in flight), both against the
 * same fake FCM server (FCM HTTP v1 + OAuth token exchange on 127.0.0.1), in one run. The fake
 * runs in a child process of its own (this file, started with `--fake-fcm`), so neither client
 * shares an event loop with it. Each path is measured ROUNDS times, alternating, after a warm-up
 * send; the best run counts (5 runs each: the machine's other work swings single runs). Registering the 10,000 devices
 * is set-up and is not measured.
 *
 *   pnpm exec tsx bench/push-throughput.ts [recipients=10000] [mode=embedded|distributed]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// firebase-admin is a dependency of the push service only (pnpm does not hoist it to the root),
// so the baseline takes the very copy Patchbay uses, by path.
import { cert, deleteApp, initializeApp } from '../services/push/node_modules/firebase-admin/lib/app';
import { getMessaging } from '../services/push/node_modules/firebase-admin/lib/messaging';
import { localEndpointAgent } from '../services/push/src/senders/local-endpoint-agent';
import { startPatchbay, type Mode, type PatchbayInstance } from '../tests/harness/patchbay';
import { FakeFcm } from '../tests/support/fake-fcm';
import { fakeServiceAccount } from '../tests/support/fake-credentials';
import { findInGroup, table } from './lib/proc';
import type { ApiJson } from '../tests/support/api-json';

const ARGS = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const RECIPIENTS = Number(ARGS[0] ?? 10_000);
const MODE = (ARGS[1] ?? 'embedded') as Mode;
const PER_REQUEST = 100;
const REQUESTS_IN_FLIGHT = 10;
const FCM_BATCH = 500;
const BATCHES_IN_FLIGHT = 2;
const ROUNDS = 5;

/** Runs `tasks` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

function chunk<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** The baseline: firebase-admin called directly, with the same transport Patchbay uses in this setting. */
async function direct(
  endpoint: string,
  sa: ServiceAccountFile,
  tokens: string[],
): Promise<{ ms: number; success: number }> {
  const [host, port] = endpoint.split(':');
  const agent = localEndpointAgent({ host, port: Number(port) }, 64);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bench-sa-'));
  const keyFile = path.join(dir, 'sa.json');
  fs.writeFileSync(keyFile, JSON.stringify(sa), { mode: 0o600 });
  const app = initializeApp(
    { credential: cert(keyFile, agent), httpAgent: agent, projectId: sa.project_id },
    `bench-direct-${Date.now()}`,
  );
  const messaging = getMessaging(app);
  messaging.enableLegacyHttpTransport();
  try {
    await messaging.sendEachForMulticast({ tokens: ['warm-up'], notification: { title: 'warm-up' } });
    let success = 0;
    const started = performance.now();
    await pool(chunk(tokens, FCM_BATCH), BATCHES_IN_FLIGHT, async (batch) => {
      const r = await messaging.sendEachForMulticast({
        tokens: batch,
        notification: { title: 'bench', body: 'direct' },
        android: { priority: 'high' },
      });
      success += r.successCount;
    });
    return { ms: performance.now() - started, success };
  } finally {
    await deleteApp(app);
    agent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function call(inst: PatchbayInstance, method: string, pathname: string, body: unknown): Promise<ApiJson> {
  const res = await fetch(`${inst.baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as ApiJson;
}

/** Patchbay: POST /push/notifications with 100 recipients per request. */
async function throughPatchbay(inst: PatchbayInstance, devices: string[]): Promise<{ ms: number; success: number }> {
  await call(inst, 'POST', '/push/notifications', { recipients: devices.slice(0, 1), title: 'warm-up' });
  let success = 0;
  const started = performance.now();
  await pool(chunk(devices, PER_REQUEST), REQUESTS_IN_FLIGHT, async (recipients) => {
    const r = (await call(inst, 'POST', '/push/notifications', {
      recipients,
      title: 'bench',
      body: 'patchbay',
      priority: 'high',
    })) as { success: number };
    success += r.success;
  });
  return { ms: performance.now() - started, success };
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of the whole machine (every core's busy time), from /proc/stat. */
function machineCpu(): number {
  const [, ...f] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6]) / 100; // user nice system irq softirq
}

/**
 * Where the CPU of one path went: the bench process (the client, and firebase-admin itself on the
 * direct path), the fake FCM, Patchbay's push and gateway processes (distributed) or its one
 * process (embedded), and the rest of the machine (nats-server, the kernel's loopback work).
 */
interface CpuSplit {
  client: number;
  fake: number;
  push: number;
  gateway: number;
  otherPatchbay: number;
  machine: number;
}

function cpuSnapshot(inst: PatchbayInstance, fakePid: number): CpuSplit {
  const group = findInGroup(inst.pid, '');
  const sum = (pids: number[]) => pids.reduce((a, pid) => a + cpuOf(pid), 0);
  const push = findInGroup(inst.pid, 'services/push/src/main.ts');
  const gateway = findInGroup(inst.pid, 'services/gateway/src/main.ts');
  const { user, system } = process.cpuUsage();
  return {
    client: (user + system) / 1e6,
    fake: cpuOf(fakePid),
    push: sum(push),
    gateway: sum(gateway),
    otherPatchbay: sum(group) - sum(push) - sum(gateway),
    machine: machineCpu(),
  };
}

function cpuDelta(a: CpuSplit, b: CpuSplit): CpuSplit {
  return {
    client: b.client - a.client,
    fake: b.fake - a.fake,
    push: b.push - a.push,
    gateway: b.gateway - a.gateway,
    otherPatchbay: b.otherPatchbay - a.otherPatchbay,
    machine: b.machine - a.machine,
  };
}

type ServiceAccountFile = Record<string, string> & { project_id: string };
interface FakeInfo {
  endpoint: string;
  direct: ServiceAccountFile;
  patchbay: ServiceAccountFile;
}

/** Child mode: the fake FCM, trusting two fresh service accounts it prints for the parent. */
async function serveFake(): Promise<void> {
  const fcm = await FakeFcm.start();
  const [direct, patchbay] = [fakeServiceAccount('bench-direct'), fakeServiceAccount('bench-patchbay')];
  fcm.trust(direct);
  fcm.trust(patchbay);
  process.stdout.write(`${JSON.stringify({ endpoint: fcm.endpoint, direct: direct.json, patchbay: patchbay.json })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void fcm.stop().then(() => process.exit(0));
  });
}

async function startFake(): Promise<{ info: FakeInfo; child: ChildProcess }> {
  const child = spawn(process.execPath, [...process.execArgv, __filename, '--fake-fcm'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const info = await new Promise<FakeInfo>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]) as FakeInfo);
    });
    child.once('exit', (code) => reject(new Error(`fake FCM exited with ${code}`)));
  });
  return { info, child };
}

async function main(): Promise<void> {
  const { info, child } = await startFake();
  const tokens = Array.from({ length: RECIPIENTS }, (_, i) => `bench-token-${i}:APA91b`);
  const inst = await startPatchbay(MODE, { FCM_ENDPOINT: info.endpoint, LOG_LEVEL: 'warn' });
  try {
    const setupStarted = performance.now();
    const googleCredentials = Buffer.from(JSON.stringify(info.patchbay)).toString('base64');
    const app = (await call(inst, 'POST', '/push/applications', {
      name: 'bench',
      google_credentials: googleCredentials,
    })) as { application_sid: string };
    const devices: string[] = new Array(RECIPIENTS);
    await pool(
      tokens.map((token, i) => ({ token, i })),
      16,
      async ({ token, i }) => {
        devices[i] = (
          (await call(inst, 'POST', '/push/devices?reuse=false', {
            application_sid: app.application_sid,
            type: 'android',
            token,
          })) as { device_sid: string }
        ).device_sid;
      },
    );
    console.log(
      `set-up: ${RECIPIENTS} devices registered in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    const directRuns: Array<{ ms: number; success: number; cpu: CpuSplit }> = [];
    const pbRuns: Array<{ ms: number; success: number; cpu: CpuSplit }> = [];
    const measured = async (run: () => Promise<{ ms: number; success: number }>) => {
      const before = cpuSnapshot(inst, child.pid!);
      const r = await run();
      return { ...r, cpu: cpuDelta(before, cpuSnapshot(inst, child.pid!)) };
    };
    for (let i = 0; i < ROUNDS; i++) {
      directRuns.push(await measured(() => direct(info.endpoint, info.direct, tokens)));
      pbRuns.push(await measured(() => throughPatchbay(inst, devices)));
    }
    const best = <R extends { ms: number }>(runs: R[]) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    const d = best(directRuns);
    const p = best(pbRuns);
    for (const [name, runs] of [
      ['direct', directRuns],
      ['patchbay', pbRuns],
    ] as const) {
      for (const r of runs)
        if (r.success !== RECIPIENTS) throw new Error(`${name}: ${r.success} of ${RECIPIENTS} delivered`);
    }
    const rate = (r: { ms: number }) => RECIPIENTS / (r.ms / 1000);
    console.log(
      `\nPush throughput to ${RECIPIENTS} Android recipients through one fake FCM (best of ${ROUNDS}, alternating), ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}, Patchbay ${MODE}\n`,
    );
    console.log(
      table([
        {
          path: `firebase-admin directly (batches of ${FCM_BATCH}, ${BATCHES_IN_FLIGHT} in flight)`,
          seconds: (d.ms / 1000).toFixed(2),
          'notifications/s': rate(d).toFixed(0),
          ratio: '1.00',
        },
        {
          path: `Patchbay POST /push/notifications (${PER_REQUEST}/request, ${REQUESTS_IN_FLIGHT} in flight)`,
          seconds: (p.ms / 1000).toFixed(2),
          'notifications/s': rate(p).toFixed(0),
          ratio: (rate(p) / rate(d)).toFixed(2),
        },
      ]),
    );
    const cpuRow = (path: string, c: CpuSplit) => ({
      path,
      'bench/client': c.client.toFixed(2),
      'fake FCM': c.fake.toFixed(2),
      'Patchbay push': c.push.toFixed(2),
      'Patchbay gateway': c.gateway.toFixed(2),
      'other Patchbay': c.otherPatchbay.toFixed(2),
      'rest (NATS, kernel)': Math.max(0, c.machine - c.client - c.fake - c.push - c.gateway - c.otherPatchbay).toFixed(
        2,
      ),
      'machine total': c.machine.toFixed(2),
    });
    console.log(
      `\nCPU seconds of the best run of each path (2 cores: at most ${((2 * d.ms) / 1000).toFixed(2)} s direct, ${((2 * p.ms) / 1000).toFixed(2)} s through Patchbay)\n`,
    );
    console.log(table([cpuRow('firebase-admin directly', d.cpu), cpuRow('Patchbay', p.cpu)]));
    console.log(
      `\nruns (ms): direct ${directRuns.map((r) => r.ms.toFixed(0)).join(', ')}; patchbay ${pbRuns.map((r) => r.ms.toFixed(0)).join(', ')}`,
    );
  } finally {
    await inst.stop();
    child.stdin?.end();
  }
}

(process.argv[2] === '--fake-fcm' ? serveFake() : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});

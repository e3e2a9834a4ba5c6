/**
 * Push throughput and latency: notifications per second to RECIPIENTS Android devices through
 * Patchbay (`POST /push/notifications`, 100 recipients per request, 10 requests in flight) against
 * firebase-admin called directly (`sendEachForMulticast`, batches of 500, 2 in flight), and the same
 * for iOS devices against @parse/node-apn called directly (one Provider, batches of 500, 2 in flight)
 * — all on the same fake FCM and fake APNs, which speak HTTP/2 over TLS as Google and Apple do
 * (bench/lib/push-fakes.ts, a process of their own). Each path is measured ROUNDS times, alternating,
 * after a warm-up; the best run counts. Then latency: Patchbay's requests sent at a fixed pace, at half
 * the best rate it reached, and for each message the time from its POST to the fake receiving it.
 * Registering the devices is set-up and is not measured.
 *
 *   pnpm exec tsx bench/push-throughput.ts [recipients=10000] [mode=embedded|distributed]
 */
import os from 'node:os';
import { startPatchbay, type Mode, type PatchbayInstance } from '../tests/harness/patchbay';
import type { ApiJson } from '../tests/support/api-json';
import { cpuDelta, cpuRow, cpuSnapshot, pathCpu, type CpuSplit } from './lib/cpu-split';
import { table } from './lib/proc';
import { aimFirebaseAdminAt, chunk, firebaseAdminDirect, nodeApnDirect, pool, type Run } from './lib/push-direct';
import { FakeProviders } from './lib/push-fakes';

const ARGS = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const RECIPIENTS = Number(ARGS[0] ?? 10_000);
const MODE = (ARGS[1] ?? 'embedded') as Mode;
const PER_REQUEST = 100;
const REQUESTS_IN_FLIGHT = 10;
const BATCH = 500;
const BATCHES_IN_FLIGHT = 2;
const ROUNDS = 5;
/** Messages sent in the latency run of each platform (twice over the devices). */
const LATENCY_MESSAGES = 2 * RECIPIENTS;

async function call(inst: PatchbayInstance, method: string, pathname: string, body: unknown): Promise<ApiJson> {
  const res = await fetch(`${inst.baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as ApiJson;
}

const now = () => performance.timeOrigin + performance.now();

/** One POST /push/notifications; `sentAt` travels in the data, for the fake to measure latency from. */
async function notify(inst: PatchbayInstance, recipients: string[], sentAt?: number): Promise<number> {
  const r = (await call(inst, 'POST', '/push/notifications', {
    recipients,
    title: 'bench',
    body: 'patchbay',
    priority: 'high',
    ...(sentAt !== undefined ? { data: { sent_at: String(sentAt) } } : {}),
  })) as { success: number };
  return r.success;
}

/** Patchbay at full speed: 100 recipients per request, 10 requests in flight. */
async function throughPatchbay(inst: PatchbayInstance, devices: string[]): Promise<Run> {
  await notify(inst, devices.slice(0, 1));
  let success = 0;
  const started = performance.now();
  await pool(chunk(devices, PER_REQUEST), REQUESTS_IN_FLIGHT, async (recipients) => {
    const delivered = await notify(inst, recipients); // (`success += await …` would read success before the await)
    success += delivered;
  });
  return { ms: performance.now() - started, success };
}

/** Requests at a fixed pace (`rate` notifications per second), each stamped with when it was sent. */
async function paced(inst: PatchbayInstance, devices: string[], rate: number): Promise<number> {
  const requests = chunk([...devices, ...devices].slice(0, LATENCY_MESSAGES), PER_REQUEST);
  const interval = (PER_REQUEST / rate) * 1000;
  const started = performance.now();
  const sent: Promise<number>[] = [];
  for (const [i, recipients] of requests.entries()) {
    const wait = started + i * interval - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    sent.push(notify(inst, recipients, now()));
  }
  return (await Promise.all(sent)).reduce((a, b) => a + b, 0);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function register(inst: PatchbayInstance, app: string, type: 'android' | 'ios', n: number): Promise<string[]> {
  const devices: string[] = new Array(n);
  await pool(
    Array.from({ length: n }, (_, i) => i),
    16,
    async (i) => {
      const token = type === 'ios' ? i.toString(16).padStart(64, 'b') : `bench-token-${i}:APA91b`;
      const body = { application_sid: app, type, token, environment: 'production' };
      devices[i] = ((await call(inst, 'POST', '/push/devices?reuse=false', body)) as { device_sid: string }).device_sid;
    },
  );
  return devices;
}

async function main(): Promise<void> {
  const fakes = await FakeProviders.start();
  const { info } = fakes;
  const [fcmHost, fcmPort] = info.fcmEndpoint.split(':');
  const [apnsHost, apnsPort] = info.apnsEndpoint.split(':');
  const fcmEndpoint = { host: fcmHost, port: Number(fcmPort), ca: info.ca };
  const apnsEndpoint = { host: apnsHost, port: Number(apnsPort), ca: info.ca };
  aimFirebaseAdminAt(fcmEndpoint);
  const inst = await startPatchbay(MODE, {
    FCM_ENDPOINT: info.fcmEndpoint,
    FCM_CA: info.caFile,
    APNS_ENDPOINT: info.apnsEndpoint,
    APNS_CA: info.caFile,
    LOG_LEVEL: 'warn',
  });
  try {
    const setupStarted = performance.now();
    const app = (await call(inst, 'POST', '/push/applications', {
      name: 'bench',
      google_credentials: Buffer.from(JSON.stringify(info.patchbay)).toString('base64'),
      apns_p8: info.apnsKey.p8,
      apns_key_id: info.apnsKey.keyId,
      apns_team_id: info.apnsKey.teamId,
      apns_topic: 'com.example.bench',
    })) as { application_sid: string };
    const android = await register(inst, app.application_sid, 'android', RECIPIENTS);
    const ios = await register(inst, app.application_sid, 'ios', RECIPIENTS);
    const fcmTokens = Array.from({ length: RECIPIENTS }, (_, i) => `bench-token-${i}:APA91b`);
    const apnsTokens = Array.from({ length: RECIPIENTS }, (_, i) => i.toString(16).padStart(64, 'c'));
    const setupS = ((performance.now() - setupStarted) / 1000).toFixed(1);
    console.log(`set-up: ${2 * RECIPIENTS} devices registered in ${setupS} s`);

    type Measured = Run & { cpu: CpuSplit };
    const measured = async (run: () => Promise<Run>): Promise<Measured> => {
      const before = cpuSnapshot(inst, fakes.pid);
      const r = await run();
      const cpu = cpuDelta(before, cpuSnapshot(inst, fakes.pid));
      await fakes.stats(); // forget what this run left in the fakes
      if (r.success !== RECIPIENTS) throw new Error(`${r.success} of ${RECIPIENTS} delivered`);
      return { ...r, cpu };
    };
    const runs: Record<'fcmDirect' | 'fcmPatchbay' | 'apnsDirect' | 'apnsPatchbay', Measured[]> = {
      fcmDirect: [],
      fcmPatchbay: [],
      apnsDirect: [],
      apnsPatchbay: [],
    };
    await fakes.stats();
    for (let i = 0; i < ROUNDS; i++) {
      runs.fcmDirect.push(
        await measured(() => firebaseAdminDirect(fcmEndpoint, info.direct, fcmTokens, BATCH, BATCHES_IN_FLIGHT)),
      );
      runs.fcmPatchbay.push(await measured(() => throughPatchbay(inst, android)));
      runs.apnsDirect.push(
        await measured(() => nodeApnDirect(apnsEndpoint, info.apnsKey, apnsTokens, BATCH, BATCHES_IN_FLIGHT)),
      );
      runs.apnsPatchbay.push(await measured(() => throughPatchbay(inst, ios)));
    }
    const best = (list: Measured[]) => list.reduce((a, b) => (b.ms < a.ms ? b : a));
    const rate = (r: Run) => RECIPIENTS / (r.ms / 1000);
    const b = {
      fcmDirect: best(runs.fcmDirect),
      fcmPatchbay: best(runs.fcmPatchbay),
      apnsDirect: best(runs.apnsDirect),
      apnsPatchbay: best(runs.apnsPatchbay),
    };

    const latency: Array<Record<string, string>> = [];
    for (const [platform, devices, best] of [
      ['fcm', android, b.fcmPatchbay],
      ['apns', ios, b.apnsPatchbay],
    ] as const) {
      const target = rate(best) / 2;
      const started = performance.now();
      const success = await paced(inst, devices, target);
      const seconds = (performance.now() - started) / 1000;
      const all = await fakes.stats();
      const stats = all[platform];
      const sorted = stats.latencies.sort((x, y) => x - y);
      if (success !== LATENCY_MESSAGES || sorted.length !== LATENCY_MESSAGES)
        throw new Error(`latency run (${platform}): ${success} delivered, ${sorted.length} timed`);
      latency.push({
        path: `Patchbay → fake ${platform === 'fcm' ? 'FCM (Android)' : 'APNs (iOS)'}`,
        'offered/s': target.toFixed(0),
        'achieved/s': (LATENCY_MESSAGES / seconds).toFixed(0),
        messages: String(sorted.length),
        'p50 ms': percentile(sorted, 50).toFixed(1),
        'p99 ms': percentile(sorted, 99).toFixed(1),
        'max ms': sorted[sorted.length - 1].toFixed(1),
        "fakes' longest GC ms": all.gcMaxMs.toFixed(1),
      });
    }

    const load = os.loadavg()[0].toFixed(1);
    console.log(
      `\nPush to ${RECIPIENTS} recipients per run on fake FCM and APNs ` +
        `(HTTP/2 + TLS), best of ${ROUNDS}, alternating; ` +
        `${os.cpus().length} cores, load ${load}, Patchbay ${MODE}\n`,
    );
    const row = (path: string, r: Run, base: Run) => ({
      path,
      seconds: (r.ms / 1000).toFixed(2),
      'notifications/s': rate(r).toFixed(0),
      ratio: (rate(r) / rate(base)).toFixed(2),
    });
    const via = `${PER_REQUEST}/request, ${REQUESTS_IN_FLIGHT} in flight`;
    const sdk = `batches of ${BATCH}, ${BATCHES_IN_FLIGHT} in flight`;
    console.log(
      table([
        row(`firebase-admin sendEachForMulticast directly (${sdk})`, b.fcmDirect, b.fcmDirect),
        row(`Patchbay POST /push/notifications, Android (${via})`, b.fcmPatchbay, b.fcmDirect),
        row(`@parse/node-apn Provider directly (${sdk})`, b.apnsDirect, b.apnsDirect),
        row(`Patchbay POST /push/notifications, iOS (${via})`, b.apnsPatchbay, b.apnsDirect),
      ]),
    );
    console.log(`\nLatency, POST to the fake receiving each message, at half of Patchbay's best rate\n`);
    console.log(table(latency));
    console.log(`\nCPU seconds of the best run of each path\n`);
    console.log(
      table([
        cpuRow('firebase-admin directly', b.fcmDirect.cpu),
        cpuRow('Patchbay, Android', b.fcmPatchbay.cpu),
        cpuRow('node-apn directly', b.apnsDirect.cpu),
        cpuRow('Patchbay, iOS', b.apnsPatchbay.cpu),
      ]),
    );
    const per = (a: Measured, d: Measured) =>
      `${pathCpu(a.cpu).toFixed(2)} s vs ${pathCpu(d.cpu).toFixed(2)} s ` +
      `directly (${(pathCpu(a.cpu) / pathCpu(d.cpu)).toFixed(2)}×)`;
    console.log(
      `\nCPU of the whole path (all but the rest of the machine): Android ${per(b.fcmPatchbay, b.fcmDirect)}; ` +
        `iOS ${per(b.apnsPatchbay, b.apnsDirect)}`,
    );
    const ms = (list: Measured[]) => list.map((r) => r.ms.toFixed(0)).join(', ');
    console.log(
      `\nruns (ms): firebase-admin ${ms(runs.fcmDirect)}; Patchbay Android ${ms(runs.fcmPatchbay)}; ` +
        `node-apn ${ms(runs.apnsDirect)}; Patchbay iOS ${ms(runs.apnsPatchbay)}`,
    );
  } finally {
    await inst.stop();
    fakes.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

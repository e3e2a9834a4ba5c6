/**
 * The chaos soak (issue 40): the distributed mode with replicas on a MongoDB-wire server, a mixed
 * workload that sends every write with an Idempotency-Key until it is acknowledged, a fault every
 * 30–60 s for the soak (kill -9 of a service, kill -9 of nats-server, SIGSTOP of a service), then a
 * quiet period, then the invariants (bench/chaos/invariants.ts) and the supervision check: every
 * service back, and no crash loop (restarts ≈ the processes the soak killed).
 *
 *   pnpm exec tsx bench/chaos.ts [--minutes 5] [--quiet 2] [--concurrency 2] [--fault stop:gateway]
 *
 * `--fault kind[:service]` injects only that fault (kill, stop or nats), to reproduce one finding.
 *
 * Not part of `pnpm test`: it takes about ten minutes. Exit status 0 when every invariant holds.
 */
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPatchbay, type PatchbayInstance } from '../tests/harness/patchbay';
import { startCongoServer } from '../tests/mongo/congo-server';
import { injectFault, parseFaultChoice, serviceProcesses, type FaultRecord } from './chaos/faults';
import { checkInvariants } from './chaos/invariants';
import { newLedger, startWriters, type Target } from './chaos/workload';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    quiet: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '2' },
    fault: { type: 'string' },
  },
});
const SOAK_MS = Number(values.minutes) * 60_000;
const QUIET_MS = Number(values.quiet) * 60_000;
const FAULT = values.fault ? parseFaultChoice(values.fault) : undefined;
const started = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** Two of every service that can run twice; one identity, endpoint and push (they are small and stateless too). */
const REPLICAS = {
  GATEWAY_REPLICAS: '2',
  STORAGE_REPLICAS: '2',
  RECORDS_REPLICAS: '2',
  TRANSCODER_REPLICAS: '2',
  FILE_SERVER_REPLICAS: '2',
};

async function setUp(inst: PatchbayInstance): Promise<Target> {
  const res = await fetch(`${inst.baseUrl}/storage/containers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'chaos', quota_files: 100_000, quota_bytes: 64 * 1024 ** 3 }),
  });
  if (res.status !== 200) throw new Error(`container create: ${res.status} ${await res.text()}`);
  const { container_sid: containerSid } = (await res.json()) as { container_sid: string }; /* Create Container */
  // Gateway replicas listen on consecutive ports from PORT.
  const port = Number(new URL(inst.origin).port);
  const gateways = Array.from(
    { length: Number(REPLICAS.GATEWAY_REPLICAS) },
    (_, i) => `http://127.0.0.1:${port + i}/core/v2`,
  );
  return { baseUrl: inst.baseUrl, gateways, token: inst.token, containerSid };
}

/** Watches the service processes: a PID that appears after the start is a restart by the launcher. */
function watchRestarts(inst: PatchbayInstance) {
  const known = new Set(serviceProcesses(inst.pid).map((p) => p.pid));
  const restarts: Array<{ service: string; at: number; why: string }> = [];
  const timer = setInterval(() => {
    for (const p of serviceProcesses(inst.pid))
      if (!known.has(p.pid)) {
        known.add(p.pid);
        // What the launcher and the service said about the exit, while it is still in the output kept.
        const why = inst
          .output()
          .split('\n')
          .filter((line) => line.includes(p.service) && /exit|restart|fatal|uncaught|unhandled/i.test(line))
          .slice(-3)
          .join(' | ');
        restarts.push({ service: p.service, at: Date.now(), why });
      }
  }, 500);
  return { restarts, stop: () => clearInterval(timer) };
}

async function main(): Promise<number> {
  const congo = await startCongoServer();
  process.env.MONGODB_URL = congo.url;
  let inst: PatchbayInstance | undefined;
  try {
    log(`starting the distributed mode on ${congo.url} with ${JSON.stringify(REPLICAS)}`);
    inst = await startPatchbay('distributed', REPLICAS);
    const initial = serviceProcesses(inst.pid);
    log(`${initial.length} service processes up`);
    const target = await setUp(inst);
    const ledger = newLedger();
    const restarts = watchRestarts(inst);
    const writers = startWriters(target, ledger, { concurrency: Number(values.concurrency), giveUpMs: 120_000 });

    const faults: FaultRecord[] = [];
    const soakEnd = Date.now() + SOAK_MS;
    while (Date.now() < soakEnd) {
      await sleep(Math.min(30_000 + Math.random() * 30_000, Math.max(0, soakEnd - Date.now())));
      if (Date.now() >= soakEnd) break;
      faults.push(await injectFault(inst, log, FAULT));
    }
    log(`soak over: ${faults.length} faults; quiet for ${QUIET_MS / 1000} s (writers go on)`);
    await sleep(QUIET_MS);
    log('stopping the writers');
    await writers.stop();
    restarts.stop();

    const checks = await checkInvariants(inst, target, ledger);
    const killed = faults.filter((f) => f.kind === 'kill').length;
    const now = serviceProcesses(inst.pid);
    const missingServices = initial.length - now.length;
    checks.push({
      name: 'every service back, no crash loop',
      ok: missingServices === 0 && restarts.restarts.length <= killed + 2,
      detail:
        `${now.length} of ${initial.length} service processes running; ${restarts.restarts.length} restarts ` +
        `for ${killed} processes killed` +
        restarts.restarts
          .map((r) => `; ${((r.at - started) / 1000).toFixed(0)} s ${r.service}: ${r.why.slice(0, 400)}`)
          .join(''),
    });

    checks.push({
      name: 'no valid write refused',
      ok: ledger.refused.length === 0,
      detail: `${ledger.refused.length} refused${ledger.refused
        .slice(0, 5)
        .map((r) => `; ${r.what} ${r.status} after ${r.history}: ${r.refusal}`)
        .join('')}`,
    });
    const attempts = ledger.attempts;
    const byStatus = new Map<number, number>();
    for (const a of attempts) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
    console.log('\nworkload');
    console.log(
      `  uploads acknowledged     ${ledger.uploads.length} (${ledger.uploads.filter((u) => u.media).length} WAV)`,
    );
    console.log(`  uploads given up         ${ledger.unacknowledgedUploads.length}`);
    console.log(
      `  call records             ${ledger.callRecords.length} acknowledged, ` +
        `${ledger.unacknowledgedRecords.length} given up`,
    );
    console.log(`  endpoints                ${ledger.endpoints.length} created`);
    console.log(
      `  attempts                 ${attempts.length}, ${attempts.filter((a) => a.replayed).length} answered as replays`,
    );
    console.log(
      `  attempt outcomes         ${[...byStatus]
        .sort((a, b) => a[0] - b[0])
        .map(([s, c]) => `${s === 0 ? 'no answer' : s}: ${c}`)
        .join(', ')}`,
    );
    console.log('faults');
    for (const f of faults)
      console.log(
        `  ${((f.at - started) / 1000).toFixed(0).padStart(4)} s  ${f.kind}${f.service ? ` ${f.service}` : ''}` +
          `${f.seconds ? ` (${f.seconds} s)` : ''}`,
      );
    console.log('invariants');
    for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}: ${c.detail}`);
    return checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    await inst?.stop();
    await congo.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

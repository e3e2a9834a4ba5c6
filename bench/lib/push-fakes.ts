/**
 * The push bench's fake providers in a process of their own, so no client shares an event loop
 * with them: a fake FCM (HTTP/2 + TLS, and the OAuth token exchange) and a fake APNs (HTTP/2 + TLS),
 * one certificate made at start for 127.0.0.1 and Google's host names. The parent talks to it over
 * stdin/stdout, one JSON line each way: `stats` answers what each fake received since the last
 * `stats` (count, and the latency of every message that carried `sent_at`: when it arrived minus that;
 * and the longest pause of the fakes' own garbage collector meanwhile).
 *
 *   started by FakeProviders.start(); `tsx bench/lib/push-fakes.ts --serve` runs the child itself
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import readline from 'node:readline';
import { FakeApns } from '../../tests/support/fake-apns';
import { FCM_HOSTS, FakeFcm } from '../../tests/support/fake-fcm';
import { fakeApnsTokenKey, fakeServerTls, fakeServiceAccount } from '../../tests/support/fake-credentials';

export type ServiceAccountFile = Record<string, string> & { project_id: string };

export interface FakesInfo {
  fcmEndpoint: string;
  apnsEndpoint: string;
  /** PEM of the fakes' certificate (its own CA), and a file holding it (FCM_CA, APNS_CA). */
  ca: string;
  caFile: string;
  /** Service accounts the fake FCM trusts: one for the direct client, one for Patchbay. */
  direct: ServiceAccountFile;
  patchbay: ServiceAccountFile;
  /** An APNs token key the fake APNs trusts (both paths use it). */
  apnsKey: { p8: string; keyId: string; teamId: string };
}

export interface ReceivedStats {
  count: number;
  /** ms from `sent_at` to arrival, for the messages that carried it. */
  latencies: number[];
}

/** What the fakes received since the last `stats`, and their process's longest collector pause meanwhile. */
export interface FakesStats {
  fcm: ReceivedStats;
  apns: ReceivedStats;
  gcMaxMs: number;
}

const emptyStats = (): ReceivedStats => ({ count: 0, latencies: [] });

/** Child mode: start the fakes, print their info, answer `stats` lines until stdin ends. */
async function serve(): Promise<void> {
  const tls = fakeServerTls(FCM_HOSTS);
  // Each message leaves a count and, when it carried `sent_at`, its latency, and nothing else: kept
  // messages would grow the fakes' heap and their collector's pauses would count as Patchbay's latency.
  const seen = { fcm: emptyStats(), apns: emptyStats() };
  // The longest pause of this process's collector since the last `stats`: a latency run's tail can be the fake's.
  let gcMaxMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, e.duration);
  }).observe({ entryTypes: ['gc'] });
  const arrived = (stats: ReceivedStats, sentAt: unknown, at: number): void => {
    stats.count++;
    const s = Number(sentAt);
    if (Number.isFinite(s) && s > 0) stats.latencies.push(at - s);
  };
  const [fcm, apns] = await Promise.all([
    FakeFcm.start({ tls, sink: (r) => arrived(seen.fcm, r.message.data?.sent_at, r.at) }),
    FakeApns.start({ environment: 'production', tls, sink: (r) => arrived(seen.apns, r.payload.sent_at, r.at) }),
  ]);
  const [direct, patchbay] = [fakeServiceAccount('bench-direct'), fakeServiceAccount('bench-patchbay')];
  fcm.trust(direct);
  fcm.trust(patchbay);
  const key = fakeApnsTokenKey();
  apns.trustKey(key);
  const info: FakesInfo = {
    fcmEndpoint: fcm.endpoint,
    apnsEndpoint: apns.endpoint,
    ca: tls.cert,
    caFile: tls.caFile,
    direct: direct.json as ServiceAccountFile,
    patchbay: patchbay.json as ServiceAccountFile,
    apnsKey: { p8: key.p8, keyId: key.keyId, teamId: key.teamId },
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() !== 'stats') return;
    process.stdout.write(`${JSON.stringify({ ...seen, gcMaxMs } satisfies FakesStats)}\n`);
    gcMaxMs = 0;
    seen.fcm = emptyStats();
    seen.apns = emptyStats();
  });
  lines.on('close', () => {
    void Promise.all([fcm.stop(), apns.stop()]).then(() => {
      fs.rmSync(tls.dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

/** The parent's handle on the fakes' process. */
export class FakeProviders {
  private readonly waiting: Array<(line: string) => void> = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly info: FakesInfo,
    lines: readline.Interface,
  ) {
    lines.on('line', (line) => this.waiting.shift()?.(line));
  }

  static async start(): Promise<FakeProviders> {
    const child = spawn(process.execPath, [...process.execArgv, __filename, '--serve'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = readline.createInterface({ input: child.stdout! });
    const info = await new Promise<FakesInfo>((resolve, reject) => {
      lines.once('line', (line) => resolve(JSON.parse(line) as FakesInfo));
      child.once('exit', (code) => reject(new Error(`the fake providers exited with ${code}`)));
    });
    return new FakeProviders(child, info, lines);
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** What each fake received since the last call. */
  stats(): Promise<FakesStats> {
    return new Promise((resolve) => {
      // why: the line is the FakesStats the child wrote.
      this.waiting.push((line) => resolve(JSON.parse(line) as FakesStats));
      this.child.stdin!.write('stats\n');
    });
  }

  stop(): void {
    this.child.stdin?.end();
  }
}

if (process.argv.includes('--serve')) {
  serve().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

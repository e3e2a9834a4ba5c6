/**
 * What one small request/reply costs over NATS, through the bus port (NatsBus to NatsBus, a private
 * nats-server): one after another (latency) and 64 at a time (throughput, and this process's CPU
 * time per request: both ends are in it, so a busy machine changes it less than the wall time). For judging what the
 * hot path pays for per-request bookkeeping (decisions §47: the watch header, the held-request
 * entry, `replied`); run it on two checkouts and compare.
 *
 *   pnpm exec tsx bench/bus-request-overhead.ts [requests=20000] [rounds=5]
 *
 * A benchmark, not a test: it prints numbers and exits 0.
 */
import { ok } from '@patchbay/contracts';
import { NatsBus } from '../packages/platform/src/bus/nats-bus';
import { startNatsServer } from '../packages/platform/src/testing/nats-server';
import { table } from './lib/proc';

const N = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const server = await startNatsServer();
  const [svc, client] = [
    await NatsBus.connect({ url: server.url, name: 'svc' }),
    await NatsBus.connect({ url: server.url, name: 'client' }),
  ];
  try {
    await svc.serve('svc.bench.thing.get', 'bench', async (p) => ok({ echo: p }));
    const payload = { principal: { partner_sid: '5e0c6c43-8d5b-4b1e-9d1f-0c8b7e1c2a11' }, query: { limit: '10' } };
    const one = () => client.request('svc.bench.thing.get', payload, { requestId: 'bench', timeoutMs: 10_000 });
    for (let i = 0; i < 2000; i++) await one(); // warm-up
    const serial: number[] = [];
    const parallel: number[] = [];
    const cpu: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      for (let i = 0; i < N; i++) await one();
      serial.push(((performance.now() - t) * 1000) / N);
      t = performance.now();
      const c = process.cpuUsage();
      let next = 0;
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (next++ < N) await one();
        }),
      );
      parallel.push(N / ((performance.now() - t) / 1000));
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / N);
    }
    process.stdout.write(
      `${table([
        {
          requests: N,
          'one at a time: µs per request (median)': median(serial).toFixed(1),
          'one at a time: best': Math.min(...serial).toFixed(1),
          '64 at a time: requests/s (median)': median(parallel).toFixed(0),
          '64 at a time: best': Math.max(...parallel).toFixed(0),
          '64 at a time: CPU µs per request (median)': median(cpu).toFixed(1),
        },
      ])}\n(${ROUNDS} rounds)\n`,
    );
  } finally {
    await Promise.all([svc.close(), client.close()]);
    await server.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});

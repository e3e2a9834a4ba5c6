/**
 * Stops that finish (issue 47 item 8, decisions §50): `pnpm start:distributed` stopped as a
 * supervisor stops it — SIGTERM to its whole process group — at a moment NATS is already gone.
 * Every process of the group (pnpm, the launcher, every service) is gone within the 30 s a stop has.
 */
import { startNatsServer } from '../../packages/platform/src/testing/nats-server';
import { groupGone, startGroup, type ProcessGroup } from '../support/process-group';
import { untilTrue } from '../support/poll';

let group: ProcessGroup | undefined;

/** The services (by log name) that said `<name> started`, and those that said they lost NATS. */
function servicesSaying(output: string): { started: Set<string>; lost: Set<string> } {
  const started = new Set<string>();
  const lost = new Set<string>();
  for (const line of output.split('\n')) {
    let entry: { name?: string; msg?: string };
    try {
      entry = JSON.parse(line) as { name?: string; msg?: string };
    } catch {
      continue; // not a log line, or one still being written
    }
    if (!entry.name) continue;
    if (entry.msg === `${entry.name} started`) started.add(entry.name);
    if (entry.msg === 'disconnected from NATS; reconnecting') lost.add(entry.name);
  }
  return { started, lost };
}
afterAll(async () => {
  await group?.cleanup();
});

test('SIGTERM to the group with NATS stopped first: every process is gone within 30 s', async () => {
  const nats = await startNatsServer();
  try {
    group = await startGroup('distributed', { NATS_URL: nats.url });
    expect(group.members().length).toBeGreaterThanOrEqual(11); // pnpm, the launcher, nine services
    await nats.stop();
    const g = group;
    await untilTrue(
      () => {
        const { started, lost } = servicesSaying(g.output());
        return started.size > 0 && [...started].every((name) => lost.has(name));
      },
      { what: 'every service to see the connection go', timeoutMs: 15_000, everyMs: 50 },
    );
    process.kill(-group.pgid, 'SIGTERM');
    const tookMs = await groupGone(group.pgid, 30000);
    expect(tookMs).toBeLessThan(30000);
    // Piped, the services' lines are JSON lines with the service as a field, not behind a `[svc] ` prefix (issue 44).
    const lines = group.output().split('\n');
    expect(lines.filter((l) => /^\[[\w-]+\] /.test(l))).toEqual([]);
    const services = new Set(
      lines.filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { service?: string }).service),
    );
    expect([...services].filter(Boolean).sort()).toEqual([
      'endpoint',
      'file-server',
      'gateway',
      'identity',
      'push',
      'records',
      'storage',
      'threshold-worker',
      'transcoder',
    ]);
  } finally {
    await nats.stop();
  }
}, 180000);

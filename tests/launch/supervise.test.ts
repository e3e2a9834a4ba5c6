/**
 * `pnpm start:distributed` supervises (issue 40 item 4, decisions §50): storage killed with SIGKILL
 * is started again, once, logged once, and uploads succeed again; replicas of a service that owns
 * an embedded store are refused with a message naming the setting.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startNatsServer, type NatsServerHandle } from '../../packages/platform/src/testing/nats-server';
import { findInGroup } from '../../bench/lib/proc';
import { startGroup, type ProcessGroup } from '../support/process-group';
import { until } from '../support/poll';

const ROOT = path.resolve(__dirname, '../..');
let group: ProcessGroup | undefined;
let nats: NatsServerHandle | undefined;
afterAll(async () => {
  await group?.cleanup();
  await nats?.stop();
});

const storagePid = (g: ProcessGroup) => {
  const [pid] = findInGroup(g.pgid, 'services/storage/src/main.ts');
  return pid;
};

test('storage killed with SIGKILL: started again after a second, logged once, and uploads work again', async () => {
  nats = await startNatsServer();
  group = await startGroup('distributed', { NATS_URL: nats.url });
  const g = group;
  const containerSid = await g.defaultContainer();
  const upload = () =>
    fetch(`${g.origin}/core/v2/storage/files?container_sid=${containerSid}&name=after.txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${g.token}`, 'content-type': 'application/octet-stream' },
      body: 'hello again',
      signal: AbortSignal.timeout(15000),
    });
  expect((await upload()).status).toBe(201);
  const first = storagePid(g);
  process.kill(first, 'SIGKILL');
  const killedAt = Date.now();
  const status = await until(
    'an upload to succeed again',
    60000,
    async () => {
      const res = await upload().catch(() => undefined);
      return res?.status === 201 ? res.status : undefined;
    },
    { everyMs: 500 },
  );
  expect(status).toBe(201);
  expect(Date.now() - killedAt).toBeLessThan(60000);
  const second = storagePid(g);
  expect(second).toBeGreaterThan(0);
  expect(second).not.toBe(first);
  const restarts = g
    .output()
    .split('\n')
    .filter((l) => l.includes('a service exited: starting it again'));
  expect(restarts).toHaveLength(1);
  expect(JSON.parse(restarts[0])).toMatchObject({ name: 'storage', signal: 'SIGKILL', restart_in_ms: 1000 });
}, 240000);

test('replicas of a service with an embedded store, without MONGODB_URL: refused, naming the setting', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'services/all-in-one/src/distributed.ts'], {
    cwd: ROOT,
    env: { ...process.env, STORAGE_REPLICAS: '2', MONGODB_URL: '', NATS_URL: 'nats://127.0.0.1:1', LOG_FORMAT: 'json' },
    encoding: 'utf8',
    timeout: 60000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(
    /STORAGE_REPLICAS=2: storage keeps its data in an embedded SQLite database .* MONGODB_URL/,
  );
}, 60000);

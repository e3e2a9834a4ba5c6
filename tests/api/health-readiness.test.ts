/**
 * /health and credentials (decisions §41): on a first start, the API's /health is not 200 before
 * the bootstrap token works. The test watches a starting instance: from the first 200 of /health
 * on, a request with the bootstrap token must succeed at once (not the run of 401s seen before).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mode } from '../harness/api';
import { freePort, reservePorts } from '../harness/free-port';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { startNatsServer } from '../../packages/platform/src/testing/nats-server';

let pb: PatchbayInstance | undefined;
afterAll(async () => {
  await pb?.stop();
}, 60_000);

test('from the first 200 of /health, the bootstrap token works', async () => {
  const port = await freePort();
  const storagePort = await reservePorts(4);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-health-'));
  const token = `health-token-${Date.now()}`;
  const nats = mode() === 'distributed' ? await startNatsServer() : undefined;
  const origin = `http://127.0.0.1:${port}`;
  let watching = true;
  const seen: Array<{ health: number; whoami: number }> = [];
  const watch = (async () => {
    while (watching) {
      const health = await fetch(`${origin}/health`).catch(() => undefined);
      if (health?.status === 200) {
        const whoami = await fetch(`${origin}/core/v2/oauth/whoami`, { headers: { authorization: `Bearer ${token}` } });
        seen.push({ health: 200, whoami: whoami.status });
        if (seen.length >= 5) return;
      } else await new Promise((r) => setTimeout(r, 10)); // a watcher polling from before start-up
    }
  })();
  pb = await startPatchbay(mode(), {}, { port, storagePort, dataDir, nats, token });
  await watch;
  watching = false;
  expect(seen.length).toBe(5);
  expect(seen.map((s) => s.whoami)).toEqual([200, 200, 200, 200, 200]);
}, 120_000);

/**
 * On an older Node.js (the system's Node 20, where the machine has one) every way of starting
 * Patchbay stops with the plain message first — before any V8 flag is applied and before anything
 * is built (issue 44). Skipped only where no older node is installed, saying so.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const OLD_NODE = process.env.OLD_NODE_BIN ?? '/usr/bin/node';
const old = fs.existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  : '';
const olderThan24 = old !== '' && Number(old.split('.')[0]) < 24;
if (!olderThan24) console.log(`old-node.test: no Node.js older than 24 at ${OLD_NODE}; nothing to check`);

(olderThan24 ? test.each : test.skip.each)([
  ['pnpm start (scripts/start.cjs)', ['scripts/start.cjs']],
  ['a service (tsx hooks)', ['--import', 'tsx', 'services/gateway/src/main.ts']],
  ['the distributed launcher', ['--import', 'tsx', 'services/all-in-one/src/distributed.ts']],
])('%s: the plain message, first and alone, exit 1', (_name, args) => {
  const run = spawnSync(OLD_NODE, args, { cwd: ROOT, encoding: 'utf8', timeout: 60000 });
  expect(run.status).toBe(1);
  expect(run.stderr.trim()).toBe(
    `Patchbay needs Node.js 24 or later; this is ${old}. Get Node 24 from the npm registry with ` +
      '`. scripts/use-node24.sh` in the checkout, then run the command again.',
  );
  expect(run.stdout).toBe('');
});

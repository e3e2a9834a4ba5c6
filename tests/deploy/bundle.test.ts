import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Subjects } from '@patchbay/contracts';
import { NatsBus } from '../../packages/platform/src/bus/nats-bus';
import { startNatsServer, type NatsServerHandle } from '../../packages/platform/src/testing/nats-server';
import { freePort } from '../harness/free-port';
import { until } from '../support/poll';
import { bundleNames, bundleService, ROOT } from '../../deploy/bundle';

/**
 * Production dependencies a workspace package brings, its workspace packages' included (what `pnpm deploy --prod`
 * installs).
 */
function prodClosure(pkgDir: string, seen = new Set<string>()): Set<string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const [dep, version] of Object.entries(pkg.dependencies ?? {})) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    if (version.startsWith('workspace:'))
      prodClosure(
        path.join(
          ROOT,
          dep.startsWith('@patchbay/') && fs.existsSync(path.join(ROOT, 'packages', dep.slice(10)))
            ? 'packages'
            : 'services',
          dep.slice(10),
        ),
        seen,
      );
  }
  return seen;
}

/** Resolves once `child` exits, with its code. */
const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

async function untilHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const healthy = async () => {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output()}`);
    const res = await fetch(url).catch(() => undefined);
    return res?.status === 200 ? true : undefined;
  };
  await until(`${url} to be healthy`, 20000, healthy, { detail: output });
}

describe('production bundles (deploy/bundle.ts)', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bundles-'));
  // What the image's hoisted, pruned node_modules gives a bundle: every third-party package by name.
  // The repo's direct dependencies and pnpm's hoisted store: what `pnpm deploy` would put beside the
  // bundle in an image. (The hoisted store alone misses packages that are direct root dependencies.)
  const env = {
    ...process.env,
    NODE_PATH: [path.join(ROOT, 'node_modules'), path.join(ROOT, 'node_modules', '.pnpm', 'node_modules')].join(
      path.delimiter,
    ),
  };
  let nats: NatsServerHandle;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.stop();
    fs.rmSync(out, { recursive: true, force: true });
  });

  test('every service bundles, requiring only packages its own production dependencies provide', async () => {
    for (const name of bundleNames()) {
      const { file, externals } = await bundleService(name, out);
      expect(fs.statSync(file).size).toBeGreaterThan(10000);
      expect(externals.filter((e) => e.startsWith('@patchbay/'))).toEqual([]);
      const pkgDir = name === 'bootstrap' ? path.join(ROOT, 'services', 'identity') : path.join(ROOT, 'services', name);
      const closure = prodClosure(pkgDir);
      expect(externals.filter((e) => !closure.has(e))).toEqual([]);
    }
  });

  test('a bundled service runs with plain node over NATS: health, metrics, bootstrap, graceful SIGTERM', async () => {
    const opsPort = await freePort();
    const dataDir = fs.mkdtempSync(path.join(out, 'data-'));
    let log = '';
    const identity = spawn(process.execPath, ['--enable-source-maps', path.join(out, 'identity', 'main.js')], {
      cwd: out,
      env: { ...env, NATS_URL: nats.url, OPS_PORT: String(opsPort), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    identity.stdout!.on('data', (b: Buffer) => {
      log += b.toString();
    });
    identity.stderr!.on('data', (b: Buffer) => {
      log += b.toString();
    });
    try {
      await untilHealthy(`http://127.0.0.1:${opsPort}/health`, identity, () => log);
      // The deployment's one-shot bootstrap, bundled too, creates the first partner through it.
      const boot = spawn(process.execPath, [path.join(out, 'bootstrap', 'main.js')], {
        cwd: out,
        env: {
          ...env,
          NATS_URL: nats.url,
          PATCHBAY_BOOTSTRAP_LOGIN: 'ops',
          PATCHBAY_BOOTSTRAP_PASSWORD: 'bundle-pass-1',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let banner = '';
      boot.stdout!.on('data', (b: Buffer) => {
        banner += b.toString();
      });
      expect(await exited(boot)).toBe(0);
      expect(banner).toMatch(/Login:\s+ops/);
      const bus = await NatsBus.connect({ url: nats.url, name: 'bundle-test' });
      const again = await bus.request(
        Subjects.identity.bootstrap,
        { login: 'ops', password: 'bundle-pass-1' },
        { requestId: 'bundle-req-1', timeoutMs: 10000 },
      );
      expect(again).toMatchObject({ status: 200, body: { created: false, login: 'ops' } });
      await bus.close();
      const metrics = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
      expect(metrics).toMatch(/bus_served_total\{subject="svc.identity.bootstrap",status="200",service="identity"\} 2/);
      expect(metrics).toMatch(/process_cpu_seconds_total/);
      expect(log).toMatch(/"requestId":"bundle-req-1".*"msg":"handled"/);
    } finally {
      identity.kill('SIGTERM');
    }
    expect(await exited(identity)).toBe(0);
    expect(log).toMatch(/"msg":"stopped"/);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildConsole } from '../scripts/build';

const ROOT = path.resolve(__dirname, '../../..');

describe('the console build', () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pb-console-build-')), 'dist');
  afterAll(() => fs.rmSync(path.dirname(out), { recursive: true, force: true }));

  test('writes index.html naming hashed assets that exist, quickly; --if-stale then leaves it alone', async () => {
    const first = await buildConsole({ outDir: out, ifStale: true });
    expect(first.skipped).toBe(false);
    expect(first.ms).toBeLessThan(5000);
    const html = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(html).toContain(`<script defer src="/console/assets/${first.script}"></script>`);
    expect(html).toContain(`<link rel="stylesheet" href="/console/assets/${first.stylesheet}">`);
    expect(first.script).toMatch(/^app-[A-Z0-9]{8}\.js$/);
    for (const name of [first.script, first.stylesheet])
      expect(fs.statSync(path.join(out, 'assets', name)).size).toBeGreaterThan(1000);
    const again = await buildConsole({ outDir: out, ifStale: true });
    expect(again).toMatchObject({ skipped: true, script: first.script, stylesheet: first.stylesheet });
  }, 30_000);

  test('`pnpm start` (and start:distributed) build it first when it is missing or stale', () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    expect(scripts.prestart).toBe('tsx packages/console/scripts/build.ts --if-stale');
    expect(scripts['prestart:distributed']).toBe(scripts.prestart);
    expect(scripts['build:console']).toBe('tsx packages/console/scripts/build.ts');
  });
});

/**
 * `pnpm start` on a terminal (decisions §24): the all-in-one process writes one readable line per
 * event, the start banner as it is, and not a single JSON line. A real start of Patchbay under a
 * pseudo-terminal (util-linux `script`), stopped once its banner is out.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { releasePorts, reservePorts } from '../../../packages/platform/src/testing/ports';

const ROOT = path.resolve(__dirname, '../../..');
// eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
const ANSI = /\u001b\[[0-9;]*m/g;

test('on a terminal the start-up log is readable lines, then the banner', async () => {
  const port = await reservePorts(1);
  const storagePort = await reservePorts(1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-tty-start-'));
  const command = `${path.join(ROOT, 'node_modules/.bin/tsx')} ${path.join(ROOT, 'services/all-in-one/src/main.ts')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      STORAGE_PORT: String(storagePort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      LOG_FORMAT: '',
      PATCHBAY_BOOTSTRAP_TOKEN: 'terminal-start-token-123',
    },
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${out}`)), 60_000);
      child.stdout.on('data', () => {
        if (out.includes('Partner SID:')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code}:\n${out}`));
      });
    });
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    releasePorts(port);
    releasePorts(storagePort);
  }
  const lines = out.replace(ANSI, '').split(/\r?\n/).filter(Boolean);
  const events = lines.slice(
    0,
    lines.findIndex((l) => l.includes('Patchbay is running.')),
  );
  expect(events.length).toBeGreaterThan(5);
  for (const line of events) expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (INFO|WARN): /);
  expect(
    events.some((l) => /INFO: \[transcoder\] ffmpeg found \{"ffmpeg":\{"path":"[^"]+","version":"[^"]+"/.test(l)),
  ).toBe(true);
  expect(events.some((l) => /INFO: \[gateway\] gateway listening/.test(l))).toBe(true);
  expect(lines.some((l) => l.startsWith('{'))).toBe(false);
}, 90_000);

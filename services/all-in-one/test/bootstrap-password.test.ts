/**
 * A bootstrap password that is a placeholder or short is refused outside development (issue 40 item
 * 9, decisions §50): the rule, and the all-in-one process that stops at start-up naming the setting.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrapPasswordProblem, isDevelopmentHost } from '../src/bootstrap-password';

test('placeholders and passwords under 12 characters are refused; long random ones and unset pass', () => {
  for (const p of ['CHANGE-ME-please', 'changeme-now-123456', 'password123', 'an-example-password'])
    expect(bootstrapPasswordProblem(p)).toMatch(/^PATCHBAY_BOOTSTRAP_PASSWORD: a placeholder/);
  expect(bootstrapPasswordProblem('short-pw-01')).toMatch(/at least 12 characters/);
  expect(bootstrapPasswordProblem('v9Q-x7r2Lk4pZ')).toBeNull();
  expect(bootstrapPasswordProblem(undefined)).toBeNull();
  expect([isDevelopmentHost('127.0.0.1'), isDevelopmentHost('::1'), isDevelopmentHost('0.0.0.0')]).toEqual([
    true,
    true,
    false,
  ]);
});

test('the all-in-one process on 0.0.0.0 with the placeholder password: exits 1 naming the setting', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-weak-password-'));
  try {
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, '../src/main.ts')], {
      env: {
        ...process.env,
        HOST: '0.0.0.0',
        PORT: '0',
        DATA_DIR: dataDir,
        PATCHBAY_BOOTSTRAP_PASSWORD: 'CHANGE-ME-please',
        LOG_FORMAT: 'json',
      },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PATCHBAY_BOOTSTRAP_PASSWORD: a placeholder, not a password');
    expect(fs.readdirSync(dataDir)).toEqual([]); // refused before anything was opened
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 60000);

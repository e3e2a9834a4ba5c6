import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildConsole } from '../../packages/console/scripts/build';
import { startPatchbay, type Mode, type PatchbayInstance } from './patchbay';

// On globalThis: jest may load globalSetup and globalTeardown as separate module instances.
const g = globalThis as { __patchbayRunning?: Map<Mode, PatchbayInstance> };
const running = (g.__patchbayRunning ??= new Map<Mode, PatchbayInstance>());

/** Where a project's instance is described for its test workers (they run in other processes). */
export function instanceFile(mode: Mode): string {
  return path.join(os.tmpdir(), `patchbay-jest-${process.ppid}-${mode}.json`);
}

export async function setupMode(mode: Mode): Promise<void> {
  // The gateway serves the console from its build (tests/api/console-page.test.ts reads it).
  await buildConsole({ ifStale: true });
  const instance = await startPatchbay(mode);
  running.set(mode, instance);
  const { stop: _stop, ...described } = instance;
  process.env[`PATCHBAY_TEST_${mode.toUpperCase()}`] = JSON.stringify(described);
  fs.writeFileSync(instanceFile(mode), JSON.stringify(described));
}

export async function teardownAll(): Promise<void> {
  for (const [mode, instance] of running) {
    await instance.stop();
    fs.rmSync(instanceFile(mode), { force: true });
  }
  running.clear();
}

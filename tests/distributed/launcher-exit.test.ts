/**
 * The distributed set does not outlive its launcher: killing the launcher outright (SIGKILL, no
 * chance to stop its children) or the wrapper that started it still stops every service, through
 * their own graceful shutdown, within seconds.
 */
import fs from 'node:fs';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { findInGroup } from '../../bench/lib/proc';
import { exitOf } from './service-process';

/** Every process of the instance that runs a service (tsx wrappers and their node children). */
const services = (inst: PatchbayInstance) => findInGroup(inst.pid, '/src/main.ts');
/** The node process running the launcher's code (the harness's pid is tsx's wrapper around it). */
const launcherNode = (inst: PatchbayInstance) =>
  findInGroup(inst.pid, 'all-in-one/src/distributed.ts').filter(
    (pid) => pid !== inst.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('preflight'),
  );

async function allGone(pids: number[], timeoutMs: number): Promise<void> {
  await Promise.all(pids.map((pid) => exitOf(pid, timeoutMs)));
}

describe('the distributed set stops with its launcher', () => {
  let inst: PatchbayInstance | undefined;
  afterEach(async () => {
    await inst?.kill();
    await inst?.stop();
    inst = undefined;
  });

  test('launcher killed with SIGKILL: every service shuts itself down', async () => {
    inst = await startPatchbay('distributed');
    const pids = services(inst);
    expect(pids.length).toBeGreaterThanOrEqual(9); // nine services, each one node process (decisions §50)
    const [launcher] = launcherNode(inst);
    expect(launcher).toBeGreaterThan(0);
    process.kill(launcher, 'SIGKILL');
    await allGone(pids, 30000);
  }, 180000);

  test('the wrapper around the launcher killed with SIGKILL: the launcher stops the set', async () => {
    inst = await startPatchbay('distributed');
    const pids = services(inst);
    const [launcher] = launcherNode(inst);
    process.kill(inst.pid, 'SIGKILL');
    await allGone([launcher, ...pids], 40000);
  }, 180000);
});

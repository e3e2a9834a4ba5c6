import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { errorCode } from '../basics/error-fields';

/**
 * Ports for test processes that bind late (a launcher's children bind 10–40 s after the port was
 * chosen; a restarted nats-server binds again after a pause).
 *
 * The usual "listen on 0, read the port, close" trick hands out a port from the kernel's ephemeral
 * range, which every outgoing connection on the machine also draws from, so another test's HTTP
 * client can take it before the late bind. Ports here come from below the ephemeral range (Linux:
 * /proc/sys/net/ipv4/ip_local_port_range, usually from 32768), are checked bindable, and are
 * reserved across processes with a lock directory per port (mkdir is atomic), so two jest workers
 * never pick the same block. A reservation lasts as long as the process that made it; locks of
 * dead processes are taken over.
 */
const LOCK_DIR = path.join(os.tmpdir(), 'patchbay-port-locks');
const RANGE_LOW = 20000;
const held = new Set<number>();

function ephemeralLow(): number {
  try {
    const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && low > RANGE_LOW + 1000) return low;
  } catch {
    /* not Linux */
  }
  return 32768;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errorCode(err) === 'EPERM';
  }
}

/** Takes the lock of `port` for this process, or reports that someone alive holds it. */
function lock(port: number): boolean {
  const dir = path.join(LOCK_DIR, String(port));
  try {
    fs.mkdirSync(dir);
  } catch (err) {
    if (errorCode(err) !== 'EEXIST') throw err;
    let owner = 0;
    try {
      owner = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
    } catch {
      /* being written, or abandoned mid-write */
    }
    if (owner && alive(owner)) return false;
    if (!owner) {
      // A lock without a pid file older than a few seconds was abandoned mid-write.
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs < 5000) return false;
      } catch {
        return false;
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.mkdirSync(dir);
    } catch {
      return false;
    }
  }
  fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
  held.add(port);
  return true;
}

function unlock(port: number): void {
  held.delete(port);
  fs.rmSync(path.join(LOCK_DIR, String(port)), { recursive: true, force: true });
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '0.0.0.0', () => srv.close(() => resolve(true)));
  });
}

let cleanupInstalled = false;
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.once('exit', () => {
    for (const port of [...held]) unlock(port);
  });
}

/**
 * Reserves `count` consecutive ports that nothing is listening on, below the ephemeral range, and
 * returns the first. They stay reserved for this process until `releasePorts` or its exit.
 */
export async function reservePorts(count = 1): Promise<number> {
  fs.mkdirSync(LOCK_DIR, { recursive: true });
  installCleanup();
  const high = ephemeralLow() - count;
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = RANGE_LOW + Math.floor(Math.random() * (high - RANGE_LOW));
    const taken: number[] = [];
    let ok = true;
    for (let p = base; p < base + count; p++) {
      if (!lock(p)) {
        ok = false;
        break;
      }
      taken.push(p);
      if (!(await bindable(p))) {
        ok = false;
        break;
      }
    }
    if (ok) return base;
    for (const p of taken) unlock(p);
  }
  throw new Error(`no block of ${count} free ports found between ${RANGE_LOW} and ${high}`);
}

/** Gives back ports reserved by `reservePorts`. */
export function releasePorts(base: number, count = 1): void {
  for (let p = base; p < base + count; p++) if (held.has(p)) unlock(p);
}

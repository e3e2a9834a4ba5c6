/**
 * The public file server against nginx (Debian's) serving the same 100 MiB file, in one run:
 * full downloads (MiB/s) and random 64 KiB ranges (requests/s). nginx runs with one worker for a
 * like-for-like single-process comparison, `sendfile on; tcp_nopush off`: with tcp_nopush on
 * (TCP_CORK) each 64 KiB range reply waited ~40 ms for a delayed ACK and nginx showed 400 ranges/s,
 * a baseline 15-25x too slow. Both servers get the same clients: curl for full downloads, wrk
 * (bench/lib/wrk-ranges.lua, random single ranges, every reply checked to be a 206) for ranges.
 *
 *   pnpm exec tsx bench/file-server-throughput.ts [embedded|distributed] [sizeMiB=100]
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPatchbay, type Mode } from '../tests/harness/patchbay';
import { freePort } from '../tests/harness/free-port';
import { MiB, table } from './lib/proc';
import { defaultContainer } from './lib/patchbay';
import { fetchDrain } from './lib/load';

const MODE = (process.argv[2] ?? 'distributed') as Mode;
if (MODE !== 'embedded' && MODE !== 'distributed') throw new Error(`mode must be embedded or distributed, not ${MODE}`);
const SIZE = Number(process.argv[3] ?? 100) * MiB;
const RANGE = 64 * 1024;

async function startNginx(root: string): Promise<{ port: number; stop(): void }> {
  const port = await freePort();
  const conf = path.join(root, 'nginx.conf');
  fs.writeFileSync(conf, `worker_processes 1; daemon off; pid ${root}/nginx.pid; error_log ${root}/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush off; keepalive_requests 100000;
  types { application/octet-stream bin; }
  client_body_temp_path ${root}/tmp; proxy_temp_path ${root}/tmp; fastcgi_temp_path ${root}/tmp; uwsgi_temp_path ${root}/tmp; scgi_temp_path ${root}/tmp;
  server { listen 127.0.0.1:${port}; root ${root}/www; } }`);
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const child = spawn('nginx', ['-c', conf, '-p', root], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) { try { await fetchDrain(`http://127.0.0.1:${port}/probe.bin`); break; } catch { await new Promise((r) => setTimeout(r, 50)); } }
  return { port, stop: () => child.kill('SIGTERM') };
}

/**
 * Full downloads: 8 of the whole file, 2 at a time, by curl (2 processes, 4 downloads each over
 * one kept-alive connection); MiB/s. A Node client draining 1 GB/s costs more CPU than either
 * server, and on 2 cores it would be the client that is measured.
 */
async function full(url: string): Promise<number> {
  const started = performance.now();
  const curl = () => new Promise<number>((resolve, reject) => {
    const args = ['-s', '--fail', '-w', '%{size_download}\n', ...Array.from({ length: 4 }, () => ['-o', '/dev/null', url]).flat()];
    execFile('curl', args, (err, stdout) => (err ? reject(err) : resolve(stdout.trim().split('\n').map(Number).reduce((a, b) => a + b, 0))));
  });
  const bytes = (await Promise.all([curl(), curl()])).reduce((a, b) => a + b, 0);
  if (bytes !== 8 * SIZE) throw new Error(`${url}: got ${bytes} bytes, expected ${8 * SIZE}`);
  return bytes / MiB / ((performance.now() - started) / 1000);
}

const RANGE_SECONDS = 4;
const RANGE_CONNECTIONS = 32;

/**
 * Random 64 KiB ranges for RANGE_SECONDS by wrk (one thread, RANGE_CONNECTIONS kept-alive
 * connections: the client costs far less CPU than either server); requests/s. Fails on any reply
 * that is not a 206 or on a socket error.
 */
async function ranges(url: string): Promise<number> {
  const script = path.join(__dirname, 'lib', 'wrk-ranges.lua');
  const { stdout } = await promisify(execFile)('wrk', ['-t1', `-c${RANGE_CONNECTIONS}`, `-d${RANGE_SECONDS}s`, '-s', script, url, '--', String(SIZE), String(RANGE)]);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const not206 = /not206 (\d+)/.exec(stdout);
  if (!rps || !not206) throw new Error(`wrk printed no result:\n${stdout}`);
  if (Number(not206[1]) > 0 || /Socket errors|Non-2xx/.test(stdout)) throw new Error(`${url}: ${not206[1]} replies were not 206:\n${stdout}`);
  return Number(rps[1]);
}

const ROUNDS = 5;

/**
 * Both servers, round by round (nginx then Patchbay, each round), best round of each: the client
 * in this process costs as much CPU as the servers on 2 cores, so single runs swing with whatever
 * else the machine does; alternating gives both sides the same conditions.
 */
async function measure(ngxUrl: string, pbUrl: string): Promise<{ ngx: { fullMiBs: number; rangeRps: number }; pb: { fullMiBs: number; rangeRps: number } }> {
  for (const url of [ngxUrl, pbUrl]) await fetchDrain(url); // warm up (page cache, resolver cache)
  const best = { ngx: { fullMiBs: 0, rangeRps: 0 }, pb: { fullMiBs: 0, rangeRps: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    best.ngx.fullMiBs = Math.max(best.ngx.fullMiBs, await full(ngxUrl));
    best.pb.fullMiBs = Math.max(best.pb.fullMiBs, await full(pbUrl));
    best.ngx.rangeRps = Math.max(best.ngx.rangeRps, await ranges(ngxUrl));
    best.pb.rangeRps = Math.max(best.pb.rangeRps, await ranges(pbUrl));
  }
  return best;
}

async function main(): Promise<void> {
  execFileSync('nginx', ['-v'], { stdio: 'ignore' });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-nginx-'));
  fs.chmodSync(root, 0o755); // nginx workers run as an unprivileged user
  fs.mkdirSync(path.join(root, 'www'), { mode: 0o755 });
  const file = path.join(root, 'www', 'file.bin');
  const chunk = Buffer.alloc(MiB);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) & 0xff;
  const fd = fs.openSync(file, 'w');
  for (let i = 0; i < SIZE / MiB; i++) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  fs.writeFileSync(path.join(root, 'www', 'probe.bin'), 'x');
  const nginx = await startNginx(root);
  const inst = await startPatchbay(MODE, { LOG_LEVEL: 'warn' });
  try {
    const auth = { authorization: `Bearer ${inst.token}` };
    const containerSid = await defaultContainer(inst);
    const up = await fetch(`${inst.baseUrl}/storage/files?container_sid=${containerSid}&name=file.bin`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: fs.readFileSync(file), duplex: 'half',
    } as RequestInit).then((r) => r.json()) as { publish_uri: string };
    const { ngx, pb } = await measure(`http://127.0.0.1:${nginx.port}/file.bin`, up.publish_uri);
    console.log(`\nPublic file server (${MODE}) vs nginx 1.22 (1 worker, sendfile on, tcp_nopush off), ${SIZE / MiB} MiB file, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}, best of ${ROUNDS} alternating rounds; ranges: wrk -t1 -c${RANGE_CONNECTIONS} -d${RANGE_SECONDS}s\n`);
    console.log(table([
      { server: 'nginx (baseline)', 'full MiB/s': ngx.fullMiBs.toFixed(0), 'ratio': '1.00', '64 KiB ranges/s': ngx.rangeRps.toFixed(0), 'range ratio': '1.00' },
      { server: 'Patchbay file-server', 'full MiB/s': pb.fullMiBs.toFixed(0), 'ratio': (pb.fullMiBs / ngx.fullMiBs).toFixed(2), '64 KiB ranges/s': pb.rangeRps.toFixed(0), 'range ratio': (pb.rangeRps / ngx.rangeRps).toFixed(2) },
    ]));
  } finally {
    await inst.stop();
    nginx.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => { console.error(err); process.exit(1); });

/**
 * The public file server against nginx (Debian's) serving the same 100 MiB file, in one run:
 * full downloads (MiB/s) and random 64 KiB ranges (requests/s). nginx runs with one worker for a
 * like-for-like single-process comparison, `sendfile on; tcp_nopush off`: with tcp_nopush on
 * (TCP_CORK) each 64 KiB range reply waited ~40 ms for a delayed ACK and nginx showed 400 ranges/s,
 * a baseline 15-25x too slow. Both servers get the same clients: curl for full downloads, wrk
 * (bench/lib/wrk-ranges.lua, random single ranges, every reply checked to be a 206) for ranges.
 * Second row: a bare Node server (bench/lib/bare-node-file-server.ts: node:http and positioned
 * reads, nothing else), so a gap splits into what Node costs and what Patchbay adds.
 * Last row: a second Patchbay started with FILE_SERVER_ACCEL_REDIRECT behind the same nginx as
 * its edge: the file server decides each answer, nginx sends the bytes (docs/operations.md).
 * Every server runs on one core and the clients on the other (lib/pin.ts).
 *
 *   pnpm exec tsx bench/file-server-throughput.ts [embedded|distributed] [sizeMiB=100]
 *   BENCH_TRACING=on pnpm exec tsx bench/file-server-throughput.ts …
 *
 * With BENCH_TRACING=on a third Patchbay, tracing on (lib/tracing-switch.ts), is measured in the
 * same rounds as the untraced one, and the overhead printed: traced over untraced, best round
 * against best round and the median of the rounds' own ratios (both served the same rounds).
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPatchbay, type Mode, type PatchbayInstance } from '../tests/harness/patchbay';
import { accelLocation } from '../services/file-server/test/accel-nginx';
import { freePort } from '../tests/harness/free-port';
import { MiB, table } from './lib/proc';
import { medianRatio } from './lib/stats';
import { defaultContainer } from '../tests/harness/default-container';
import { fetchDrain } from './lib/load';
import { tracingSwitch } from './lib/tracing-switch';
import { onClientCpu, pinServer, pinningSummary } from './lib/pin';

const MODE = (process.argv[2] ?? 'distributed') as Mode;
if (MODE !== 'embedded' && MODE !== 'distributed') throw new Error(`mode must be embedded or distributed, not ${MODE}`);
const SIZE = Number(process.argv[3] ?? 100) * MiB;
const RANGE = 64 * 1024;

/** The X-Accel-Redirect edge in front of a Patchbay started with FILE_SERVER_ACCEL_REDIRECT. */
interface Edge {
  fileServerPort: number;
  blobDir: string;
}

/**
 * One nginx (one worker): the baseline serving the file from `root/www`, and on a second port the
 * edge of the third row, proxying `/f/` to the file server and serving the blobs it names.
 */
async function startNginx(root: string, edge: Edge): Promise<{ port: number; edgePort: number; stop(): void }> {
  const port = await freePort();
  const edgePort = await freePort();
  const conf = path.join(root, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `worker_processes 1; daemon off; pid ${root}/nginx.pid; error_log ${root}/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush off; keepalive_requests 100000;
  types { application/octet-stream bin; }
  client_body_temp_path ${root}/tmp; proxy_temp_path ${root}/tmp;
  fastcgi_temp_path ${root}/tmp; uwsgi_temp_path ${root}/tmp; scgi_temp_path ${root}/tmp;
  server { listen 127.0.0.1:${port}; root ${root}/www; }
  upstream fs { server 127.0.0.1:${edge.fileServerPort}; keepalive 64; }
  server { listen 127.0.0.1:${edgePort};
    location /f/ { proxy_pass http://fs; proxy_http_version 1.1; proxy_set_header Connection ""; }
    ${accelLocation(ACCEL_PREFIX, edge.blobDir)}
  } }`,
  );
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const child = spawn('nginx', ['-c', conf, '-p', root], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      await fetchDrain(`http://127.0.0.1:${port}/probe.bin`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  if (child.pid) pinServer(child.pid); // the master and, answering by now, its worker
  return { port, edgePort, stop: () => child.kill('SIGTERM') };
}

/**
 * Full downloads: 8 of the whole file, 2 at a time, by curl (2 processes, 4 downloads each over
 * one kept-alive connection); MiB/s. A Node client draining 1 GB/s costs more CPU than either
 * server, and on 2 cores it would be the client that is measured.
 */
async function full(url: string): Promise<number> {
  const started = performance.now();
  const curl = () =>
    new Promise<number>((resolve, reject) => {
      const args = [
        '-s',
        '--fail',
        '-w',
        '%{size_download}\n',
        ...Array.from({ length: 4 }, () => ['-o', '/dev/null', url]).flat(),
      ];
      execFile(...onClientCpu('curl', args), (err, stdout) =>
        err
          ? reject(err)
          : resolve(
              stdout
                .trim()
                .split('\n')
                .map(Number)
                .reduce((a, b) => a + b, 0),
            ),
      );
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
  const { stdout } = await promisify(execFile)(
    ...onClientCpu('wrk', [
      '-t1',
      `-c${RANGE_CONNECTIONS}`,
      `-d${RANGE_SECONDS}s`,
      '-s',
      script,
      url,
      '--',
      String(SIZE),
      String(RANGE),
    ]),
  );
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const not206 = /not206 (\d+)/.exec(stdout);
  if (!rps || !not206) throw new Error(`wrk printed no result:\n${stdout}`);
  if (Number(not206[1]) > 0 || /Socket errors|Non-2xx/.test(stdout))
    throw new Error(`${url}: ${not206[1]} replies were not 206:\n${stdout}`);
  return Number(rps[1]);
}

const ROUNDS = 5;
const ACCEL_PREFIX = '/_patchbay_blobs/';

interface Best {
  fullMiBs: number;
  rangeRps: number;
  /** Every round's result, in order. */
  rounds: { fullMiBs: number[]; rangeRps: number[] };
}

/**
 * Every server, round by round (each in turn, each round), best round of each: other work on the
 * machine swings single runs; alternating gives every server the same conditions.
 */
async function measure(urls: string[]): Promise<Best[]> {
  for (const url of urls) await fetchDrain(url); // warm up (page cache, resolver cache)
  const best: Best[] = urls.map(() => ({ fullMiBs: 0, rangeRps: 0, rounds: { fullMiBs: [], rangeRps: [] } }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, url] of urls.entries()) best[i].rounds.fullMiBs.push(await full(url));
    for (const [i, url] of urls.entries()) best[i].rounds.rangeRps.push(await ranges(url));
  }
  for (const b of best) {
    b.fullMiBs = Math.max(...b.rounds.fullMiBs);
    b.rangeRps = Math.max(...b.rounds.rangeRps);
  }
  return best;
}

/** The bare Node server of bench/lib/bare-node-file-server.ts on `file`, in a process of its own. */
async function startBareNode(file: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, path.join(__dirname, 'lib', 'bare-node-file-server.ts'), file],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (b: Buffer) => resolve(Number(b.toString().trim())));
    child.once('exit', (code) => reject(new Error(`bare Node server exited with ${code}`)));
  });
  if (child.pid) pinServer(child.pid);
  return { url: `http://127.0.0.1:${port}/file.bin`, stop: () => child.kill('SIGTERM') };
}

/** Uploads the file to `inst` and returns its publish_uri. */
async function publish(inst: PatchbayInstance, file: string): Promise<string> {
  const containerSid = await defaultContainer(inst, 60_000);
  const up = (await fetch(`${inst.baseUrl}/storage/files?container_sid=${containerSid}&name=file.bin`, {
    method: 'POST',
    headers: { authorization: `Bearer ${inst.token}`, 'content-type': 'application/octet-stream' },
    body: fs.readFileSync(file),
    duplex: 'half',
  } as RequestInit).then((r) => r.json())) as { publish_uri: string };
  return up.publish_uri;
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
  const tracing = await tracingSwitch();
  const inst = await startPatchbay(MODE, { LOG_LEVEL: 'warn' });
  const accel = await startPatchbay(MODE, { LOG_LEVEL: 'warn', FILE_SERVER_ACCEL_REDIRECT: ACCEL_PREFIX });
  const traced = tracing.on ? await startPatchbay(MODE, { LOG_LEVEL: 'warn', ...tracing.env }) : undefined;
  for (const i of [inst, accel, traced]) if (i) pinServer(i.pid);
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  let bare: Awaited<ReturnType<typeof startBareNode>> | undefined;
  try {
    bare = await startBareNode(file);
    const pbUrl = await publish(inst, file);
    const accelUri = await publish(accel, file);
    execFileSync('chmod', ['-R', 'a+rX', accel.dataDir]); // the edge's workers read the blobs
    nginx = await startNginx(root, {
      fileServerPort: Number(new URL(accel.storageUrl).port),
      blobDir: path.join(accel.dataDir, 'blobs'),
    });
    const accelUrl = `http://127.0.0.1:${nginx.edgePort}${new URL(accelUri).pathname}`;
    const tracedUrl = traced && (await publish(traced, file));
    const [ngx, node, pb, edge, pbTraced] = await measure([
      `http://127.0.0.1:${nginx.port}/file.bin`,
      bare.url,
      pbUrl,
      accelUrl,
      ...(tracedUrl ? [tracedUrl] : []),
    ]);
    console.log(
      `\nPublic file server (${MODE}) vs nginx 1.22 (1 worker, sendfile on, ` +
        `tcp_nopush off), ${SIZE / MiB} MiB file, ${os.cpus().length} cores, ` +
        `load ${os.loadavg()[0].toFixed(1)}, best of ${ROUNDS} alternating ` +
        `rounds; full: 2 curl x 4; ranges: wrk -t1 -c${RANGE_CONNECTIONS} ` +
        `-d${RANGE_SECONDS}s; ${pinningSummary()}\n`,
    );
    const row = (server: string, b: Best) => ({
      server,
      'full MiB/s': b.fullMiBs.toFixed(0),
      ratio: (b.fullMiBs / ngx.fullMiBs).toFixed(2),
      '64 KiB ranges/s': b.rangeRps.toFixed(0),
      'range ratio': (b.rangeRps / ngx.rangeRps).toFixed(2),
    });
    console.log(
      table([
        row('nginx (baseline)', ngx),
        row('bare Node http (positioned reads, no cache)', node),
        row('Patchbay file-server', pb),
        row('nginx edge + file-server (X-Accel-Redirect)', edge),
        ...(pbTraced ? [row('Patchbay file-server, tracing on', pbTraced)] : []),
      ]),
    );
    console.log(`\n${tracing.summary()}`);
    if (pbTraced) {
      const best = (k: 'fullMiBs' | 'rangeRps') => (pbTraced[k] / pb[k]).toFixed(2);
      const median = (k: 'fullMiBs' | 'rangeRps') => medianRatio(pbTraced.rounds[k], pb.rounds[k]).toFixed(2);
      console.log(
        `tracing overhead (traced / untraced Patchbay): ranges ${best('rangeRps')} best round, ` +
          `${median('rangeRps')} median of rounds; ` +
          `full downloads ${best('fullMiBs')} best, ${median('fullMiBs')} median`,
      );
    }
  } finally {
    await inst.stop();
    await accel.stop();
    await traced?.stop();
    await tracing.stop();
    nginx?.stop();
    bare?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

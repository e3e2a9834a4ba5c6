/**
 * A Node process serving a file with node:http and nothing else — no id, no resolve,
 * no headers beyond the needed ones. Whole file: one open, 1 MiB positioned reads into two
 * reused buffers, each written while the next is read. A `Range: bytes=a-b`: one positioned read
 * into a reused buffer and one `res.end`. The file-server bench runs it in its own process as a
 * row of its own, so a gap between Patchbay and nginx splits into what Node costs and what
 * Patchbay adds.
 *
 *   tsx bench/lib/bare-node-file-server.ts FILE   (prints the port it listens on)
 */
import fs from 'node:fs';
import http from 'node:http';

const file = process.argv[2];
if (!file) throw new Error('usage: bare-node-file-server.ts FILE');
const fd = fs.openSync(file, 'r');
const size = fs.fstatSync(fd).size;
const CHUNK = 1024 * 1024;
const rangeBuffers: Buffer[] = [];

function read(buf: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) =>
    fs.read(fd, buf, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))),
  );
}

async function whole(res: http.ServerResponse): Promise<void> {
  res.writeHead(200, { 'Content-Length': size, 'Content-Type': 'application/octet-stream' });
  const bufs = [Buffer.allocUnsafeSlow(CHUNK), Buffer.allocUnsafeSlow(CHUNK)];
  let written: Promise<void> = Promise.resolve();
  for (let pos = 0, i = 0; pos < size; i ^= 1) {
    const n = await read(bufs[i], Math.min(CHUNK, size - pos), pos);
    await written; // the other buffer is free again once the socket took it
    pos += n;
    // The write's callback says the socket has the bytes, so the buffer can be read into again.
    written = new Promise((resolve, reject) => {
      res.write(bufs[i].subarray(0, n), (err) => (err ? reject(err) : resolve()));
    });
  }
  await written;
  res.end();
}

async function range(res: http.ServerResponse, start: number, end: number): Promise<void> {
  const buf = rangeBuffers.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
  const n = await read(buf, end - start + 1, start);
  res.writeHead(206, {
    'Content-Length': n,
    'Content-Range': `bytes ${start}-${end}/${size}`,
    'Content-Type': 'application/octet-stream',
  });
  res.end(buf.subarray(0, n), () => rangeBuffers.push(buf));
}

const server = http.createServer((req, res) => {
  const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
  const done =
    m && Number(m[2]) < size && Number(m[2]) - Number(m[1]) < CHUNK
      ? range(res, Number(m[1]), Number(m[2]))
      : whole(res);
  done.catch(() => res.destroy());
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});

/**
 * Slow clients (docs/security.md "Timeouts and limits"), on an instance of its own with short
 * timeouts: a body that trickles is cut and leaves nothing behind, a fast upload that lasts longer
 * than many body windows is not; a head that trickles is cut on both public ports; an upload whose
 * Content-Length cannot fit the container is refused before a byte of its body is sent.
 */
import net from 'node:net';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';
import { mode } from '../harness/api';
import type { ApiJson } from '../support/api-json';

const BODY_WINDOW_MS = 1000;
const BODY_MIN_BYTES = 4096;
const HEADERS_TIMEOUT_MS = 2000;
let inst: PatchbayInstance;
let containerSid: string;

beforeAll(async () => {
  inst = await startPatchbay(mode(), {
    HTTP_BODY_TIMEOUT_MS: String(BODY_WINDOW_MS),
    HTTP_BODY_MIN_BYTES: String(BODY_MIN_BYTES),
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
  });
  const list = (await (await api('/storage/containers')).json()) as { items: ApiJson[] };
  containerSid = String(list.items[0].container_sid);
}, 180000);
afterAll(() => inst?.stop());

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${inst.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${inst.token}`, ...(init.headers ?? {}) },
  });
const fileCount = async () => {
  const c = (await (await api(`/storage/containers/${containerSid}`)).json()) as ApiJson;
  return Number(c.total_files);
};

/** A raw connection: what the server answered (status line, or none) and when the connection closed. */
function connect(port: number): { socket: net.Socket; done: Promise<{ status: number | null; ms: number }> } {
  const started = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  let head = '';
  const done = new Promise<{ status: number | null; ms: number }>((resolve) => {
    socket.on('data', (b: Buffer) => (head += b.toString('latin1')));
    socket.on('error', () => undefined); // a reset is a close too
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      resolve({ status: m ? Number(m[1]) : null, ms: Date.now() - started });
    });
  });
  return { socket, done };
}

/** Writes `chunk` every `everyMs` until the socket closes (or `limit` writes). */
function trickle(socket: net.Socket, chunk: string, everyMs: number, limit = 600): void {
  let n = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || n++ >= limit) return clearInterval(timer);
    socket.write(chunk);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

const uploadHead = (length: number, name: string) =>
  `POST /core/v2/storage/files?container_sid=${containerSid}&name=${name} HTTP/1.1\r\n` +
  `Host: 127.0.0.1\r\nAuthorization: Bearer ${inst.token}\r\nContent-Type: application/octet-stream\r\n` +
  `Content-Length: ${length}\r\n\r\n`;

test('an upload body that trickles is cut (408, connection closed) and leaves no file', async () => {
  const before = await fileCount();
  const { socket, done } = connect(Number(new URL(inst.origin).port));
  socket.write(uploadHead(1_000_000, 'trickle.bin'));
  // 200 bytes every 100 ms: 2 KB per window, under the 4 KiB the server asks for.
  trickle(socket, 'x'.repeat(200), 100);
  const { status, ms } = await done;
  expect(status === 408 || status === null).toBe(true);
  // Cut after a window or three, not after the whole body (which would take 500 s at this pace).
  expect(ms).toBeLessThan(30000);
  expect(await fileCount()).toBe(before);
}, 60000);

test('a fast upload that lasts many body windows is not cut', async () => {
  const chunk = Buffer.alloc(256 * 1024, 1);
  const chunks = 48; // 12 MiB at ~2.5 MiB/s: about five windows
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((r) => setTimeout(r, 100)); // the client's pace is the point
      controller.enqueue(chunk);
      if (--pullsLeft === 0) controller.close();
    },
  });
  let pullsLeft = chunks;
  const started = Date.now();
  const res = await api(`/storage/files?container_sid=${containerSid}&name=fast.bin`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(chunk.length * chunks) },
    body,
    duplex: 'half',
  } as RequestInit);
  expect(Date.now() - started).toBeGreaterThan(3 * BODY_WINDOW_MS);
  expect(res.status).toBe(201);
  expect(((await res.json()) as ApiJson).file_bytes).toBe(chunk.length * chunks);
}, 60000);

test.each(['api', 'file server'])(
  'a request head that trickles is cut on the %s port',
  async (which) => {
    const port = Number(new URL(which === 'api' ? inst.origin : inst.storageUrl).port);
    const { socket, done } = connect(port);
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    trickle(socket, 'X', 200); // one byte of a header every 200 ms, never ending the head
    const { status, ms } = await done;
    expect(status === 408 || status === null).toBe(true);
    expect(ms).toBeLessThan(30000);
  },
  60000,
);

test('a 5 GiB Content-Length is refused with 422 naming quota_bytes before any of the body is sent', async () => {
  const before = await fileCount();
  const { socket, done } = connect(Number(new URL(inst.origin).port));
  let answer = '';
  socket.on('data', (b: Buffer) => (answer += b.toString('latin1')));
  socket.write(uploadHead(5 * 1024 ** 3, 'huge.wav'));
  // No byte of the body is ever sent: only the declaration can have been judged.
  const status = await new Promise<number>((resolve) => {
    const check = () => {
      const m = /^HTTP\/1\.1 (\d{3})[\s\S]*?\r\n\r\n([\s\S]*\})/.exec(answer);
      if (m) resolve(Number(m[1]));
      else socket.once('data', check);
    };
    check();
  });
  expect(status).toBe(422);
  expect(answer).toContain('"field":"quota_bytes"');
  // The connection is not left open for the body that never comes (the answer said close).
  const { ms } = await done;
  expect(ms).toBeLessThan(BODY_WINDOW_MS * 10);
  expect(await fileCount()).toBe(before);
}, 30000);

test(
  'a multipart upload declared larger than the room left is refused once ' + 'its fields are read, not its file',
  async () => {
    const boundary = 'bnd7c1';
    const fields =
      `--${boundary}\r\nContent-Disposition: form-data; name="file_object"\r\n\r\n` +
      `${JSON.stringify({ container_sid: containerSid, name: 'huge.wav' })}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="huge.wav"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`;
    const { socket } = connect(Number(new URL(inst.origin).port));
    let answer = '';
    socket.on('data', (b: Buffer) => (answer += b.toString('latin1')));
    socket.write(
      `POST /core/v2/storage/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${inst.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${5 * 1024 ** 3}\r\n\r\n${fields}` +
        // The first bytes of the file, and then nothing more.
        'RIFF'.padEnd(256, '\0'),
    );
    const status = await new Promise<number>((resolve, reject) => {
      const check = () => {
        const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
        if (m) resolve(Number(m[1]));
        else socket.once('data', check);
      };
      socket.once('close', () => reject(new Error(`closed without an answer: ${answer}`)));
      check();
    });
    expect(status).toBe(422);
    socket.destroy();
  },
  30000,
);

/**
 * Draining is visible (issue 40 item 7, decisions §50): during a graceful stop the API's and the
 * file server's /health answer 503 {"status":"draining"} — not a refused connection — while their
 * requests in flight finish, and the listeners close after. `pnpm start`, SIGTERM to its group
 * while an upload streams and a download is held by a client that does not read.
 */
import http from 'node:http';
import { groupGone, startGroup, type ProcessGroup } from '../support/process-group';
import { eventually, untilTrue } from '../support/poll';

let group: ProcessGroup | undefined;
afterAll(async () => {
  await group?.cleanup();
});

const health = (url: string) =>
  fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) }).then(
    async (r) => ({ status: r.status, body: (await r.json()) as unknown }),
    () => 'refused' as const,
  );

test('SIGTERM: /health of the API and of the file server answer 503 draining until their requests end', async () => {
  group = await startGroup('embedded');
  const g = group;
  const containerSid = await g.defaultContainer();
  const auth = { authorization: `Bearer ${g.token}` };
  const stored = await fetch(`${g.origin}/core/v2/storage/files?container_sid=${containerSid}&name=big.bin`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/octet-stream' },
    body: Buffer.alloc(16 * 1024 * 1024, 7),
  });
  expect(stored.status).toBe(201);
  const { file_sid: fileSid } = (await stored.json()) as { file_sid: string };

  // A download whose client stops reading after its first bytes: in flight on the file server.
  let downloaded = 0;
  let response: http.IncomingMessage | undefined;
  const download = new Promise<number>((resolve, reject) => {
    http
      .get(`${g.storageUrl}/f/${fileSid}`, (res) => {
        response = res;
        res.on('data', (b: Buffer) => {
          downloaded += b.length;
          res.pause();
        });
        res.on('end', () => resolve(downloaded));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  // An upload whose body is still coming: in flight on the API.
  const upload = http.request(`${g.origin}/core/v2/storage/files?container_sid=${containerSid}&name=slow.bin`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/octet-stream', 'content-length': String(2 * 1024 * 1024) },
  });
  const uploaded = new Promise<number>((resolve, reject) => {
    upload.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    upload.on('error', reject);
  });
  upload.write(Buffer.alloc(1024 * 1024, 1));
  await untilTrue(() => downloaded > 0, { what: 'the download to start' });
  // The upload's first megabyte reaching the gateway shows nowhere outside it: a fixed allowance.
  await new Promise((r) => setTimeout(r, 500));

  process.kill(-g.pgid, 'SIGTERM');
  await eventually(async () => {
    expect(await health(g.origin)).toEqual({ status: 503, body: { status: 'draining' } });
    expect(await health(g.storageUrl)).toEqual({ status: 503, body: { status: 'draining' } });
  });

  upload.end(Buffer.alloc(1024 * 1024, 2));
  expect(await uploaded).toBe(201);
  response?.on('data', () => response?.resume());
  response?.resume();
  expect(await download).toBe(16 * 1024 * 1024);
  await groupGone(g.pgid, 30000);
  expect(await health(g.origin)).toBe('refused');
  expect([0, 143]).toContain((await g.exit).code);
}, 180000);

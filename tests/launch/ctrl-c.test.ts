/**
 * One Ctrl-C is one graceful stop (issue 40 item 5, decisions §50), in both run modes: SIGINT to the
 * process group of `pnpm start` / `pnpm start:distributed` — what a terminal sends, to pnpm and to
 * Patchbay at once — while an upload is streaming. The upload gets its 201, every process is gone
 * within 30 s, the exit status is 0 or 130, and nothing says "second signal" or "ELIFECYCLE".
 */
import http from 'node:http';
import type { Mode } from '../harness/patchbay';
import { startNatsServer, type NatsServerHandle } from '../../packages/platform/src/testing/nats-server';
import { groupGone, listeningAddresses, startGroup, type ProcessGroup } from '../support/process-group';

let group: ProcessGroup | undefined;
let nats: NatsServerHandle | undefined;
afterEach(async () => {
  await group?.cleanup();
  await nats?.stop();
  group = undefined;
  nats = undefined;
});

/**
 * Uploads `chunks` MiB, one every `everyMs`, calling `midway` after the second (the request is then
 * surely in flight on the server); resolves with status and body.
 */
function slowUpload(
  g: ProcessGroup,
  containerSid: string,
  chunks: number,
  everyMs: number,
  midway: () => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${g.origin}/core/v2/storage/files?container_sid=${containerSid}&name=slow.bin`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${g.token}`,
          'content-type': 'application/octet-stream',
          'content-length': String(chunks * 1024 * 1024),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (b: Buffer) => (body += b.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    let sent = 0;
    const next = () => {
      req.write(Buffer.alloc(1024 * 1024, sent));
      sent += 1;
      if (sent === 2) midway();
      if (sent === chunks) req.end();
      else setTimeout(next, everyMs);
    };
    next();
  });
}

async function ctrlCDuringUpload(mode: Mode): Promise<void> {
  if (mode === 'distributed') nats = await startNatsServer();
  group = await startGroup(mode, nats ? { NATS_URL: nats.url } : {});
  const g = group;
  const containerSid = await g.defaultContainer();
  // Where it listens (issue 40 item 9): the API and the file server on 127.0.0.1 only, by default, and
  // no operations port the launcher was not asked for.
  const port = (url: string) => new URL(url).port;
  expect(listeningAddresses(g.members())).toEqual(
    [`127.0.0.1:${port(g.origin)}`, `127.0.0.1:${port(g.storageUrl)}`].sort(),
  );
  const started = { at: 0 };
  const upload = slowUpload(g, containerSid, 8, 500, () => {
    started.at = Date.now();
    process.kill(-g.pgid, 'SIGINT');
  });
  const { status, body } = await upload;
  expect({ status, body: status === 201 ? '' : body }).toEqual({ status: 201, body: '' });
  expect(JSON.parse(body)).toMatchObject({ file_bytes: 8 * 1024 * 1024 });
  await groupGone(g.pgid, 30000 - (Date.now() - started.at));
  const { code } = await g.exit;
  expect([0, 130]).toContain(code);
  expect(g.output()).not.toMatch(/second signal|asked again|ELIFECYCLE/);
  expect(g.output()).toContain('"signal":"SIGINT","msg":"shutting down: finishing in-flight work"');
}

test('pnpm start: SIGINT to the group mid-upload, the upload completes and everything exits', async () => {
  await ctrlCDuringUpload('embedded');
}, 180000);

test('pnpm start:distributed: SIGINT to the group mid-upload, the upload completes and everything exits', async () => {
  await ctrlCDuringUpload('distributed');
}, 240000);

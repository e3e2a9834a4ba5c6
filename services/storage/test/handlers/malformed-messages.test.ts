/**
 * Every message storage receives is checked against its contracts schema (messages/storage.ts,
 * messages/sweep.ts, the partner events): a malformed request is answered 400 naming the field, a
 * malformed event is dropped, each with an error in the log — and storage goes on serving.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Subjects, type BusReply } from '@patchbay/contracts';
import { DirBlobStore, MemoryBus, SqliteDocStore, createMetricsRegistry, type Stoppable } from '@patchbay/platform';
import { captureLogger } from '../../../../packages/platform/src/testing/capture-logger';
import { startStorageService } from '../../src/service';
import { untilTrue } from '../../../../tests/support/poll';

const principal = { partner_sid: 'P1', login: 'l', scopes: ['storage.manage'], token_sid: null };
const refusals = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === 'malformed internal message refused').map((l) => l.subject);
const fieldsOf = (r: BusReply) => ('error' in r ? r.error.errors.map((e) => e.field) : []);

let root: string;
let storage: Stoppable;
let caller: MemoryBus;
let own: MemoryBus;
let docs: SqliteDocStore;
const { logger, lines } = captureLogger('error');

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-storage-malformed-'));
  const hub = MemoryBus.hub();
  own = new MemoryBus(hub);
  caller = new MemoryBus(hub);
  docs = new SqliteDocStore();
  storage = await startStorageService(
    {
      bus: own,
      docs,
      blobs: new DirBlobStore({ dir: path.join(root, 'blobs') }),
      logger,
      metrics: createMetricsRegistry('storage-malformed'),
    },
    {
      storageUrl: 'http://files.test',
      uploadStaleMs: 3_600_000,
      sweepIntervalMs: 3_600_000,
      busTimeoutMs: 500,
    },
  );
});

afterAll(async () => {
  await storage.stop();
  await Promise.all([own.close(), caller.close()]);
  await docs.close();
  fs.rmSync(root, { recursive: true, force: true });
});

test('malformed requests from each kind of caller: 400 naming the field, logged', async () => {
  const ask = (subject: string, payload: unknown) => caller.request(subject, payload, { timeoutMs: 5000 });
  const cases: Array<[string, unknown, string]> = [
    [Subjects.storage.uploadCommit, { principal, file_sid: 'F', size: 'lots', head: '' }, 'size'],
    [Subjects.storage.uploadPrepare, { principal, fields: {}, source: 'xml' }, 'source'],
    [Subjects.storage.fileResolvePublic, {}, 'id'],
    [Subjects.storage.fileList, { principal, params: {}, query: {} }, 'url'],
    [Subjects.storage.sweepExpired, { limit: 0 }, 'limit'],
  ];
  for (const [subject, payload, field] of cases) {
    const r = await ask(subject, payload);
    expect({ subject, status: r.status }).toEqual({ subject, status: 400 });
    expect(fieldsOf(r)).toContain(field);
  }
  expect(refusals(lines)).toEqual(expect.arrayContaining(cases.map(([s]) => s)));
});

test('malformed partner and transcoding events are dropped with an error logged; storage still serves', async () => {
  await caller.publish(Subjects.events.partnerCreated, { partner: { name: 'no sid' } });
  await caller.publish(Subjects.events.fileTranscodingDone, { file_sid: 'F', blob_key: '../../etc/passwd' });
  await caller.publish(Subjects.events.fileTranscodingProgress, { file_sid: 'F', progress: 'half' });
  const events = [
    Subjects.events.partnerCreated,
    Subjects.events.fileTranscodingDone,
    Subjects.events.fileTranscodingProgress,
  ];
  await untilTrue(() => events.every((e) => refusals(lines).includes(e)), { what: 'the three refusals' });
  const fine = await caller.request(Subjects.storage.containerDefault, { partner_sid: 'P1' }, { timeoutMs: 5000 });
  expect(fine).toMatchObject({ status: 200, body: { partner_sid: 'P1', is_default: true } });
});

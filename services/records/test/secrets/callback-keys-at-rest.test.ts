/**
 * Record exports' callback signing keys at rest (docs/security.md "Secrets at rest"): a key stored in
 * plaintext by an earlier version is sealed at the next start (RECORDS_CREDENTIALS_KEY's scheme) and the
 * callback is still signed with it; a rotation re-seals under the new key; a key whose credentials key is
 * not configured is never used to send, and is logged without its value. The records service on an
 * in-process bus and a store on disk, restarted as an installation is.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  isSealedSecret,
  keyId,
  verifyCallback,
  type BlobStore,
  type CredentialKeySettings,
  type Logger,
  type Stoppable,
  type StoredSecret,
} from '@patchbay/platform';
import { captureLogger } from '../../../../packages/platform/src/testing/capture-logger';
import { until } from '../../../../tests/support/poll';
import { DEFAULT_EXPORT_SETTINGS } from '../../src/config';
import type { ExportDoc } from '../../src/domain/export-docs';
import { startRecordsService } from '../../src/service';

const unusedBlobs = {} as BlobStore;
const keysOf = (current: Buffer, old: Buffer[] = []): CredentialKeySettings => ({
  current,
  old,
  keyFile: '/nonexistent',
});

let dir: string;
let service: Stoppable | undefined;
let store: SqliteDocStore | undefined;
let receiver: http.Server;
let url: string;
const seen: Array<{ body: string; signature: string }> = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ body, signature: String(req.headers['x-patchbay-signature']) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-records-secrets-'));
  seen.length = 0;
});
afterEach(async () => {
  await stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function stop(): Promise<void> {
  await service?.stop();
  await store?.close();
  service = undefined;
  store = undefined;
}

/** One start of the service on the store in `dir`, with these credentials keys. */
async function start(keys: CredentialKeySettings, logger: Logger = createLogger({ name: 'test', level: 'silent' })) {
  store = new SqliteDocStore({ file: path.join(dir, 'store.sqlite') });
  service = await startRecordsService(
    {
      bus: new MemoryBus(MemoryBus.hub()),
      docs: store,
      blobs: unusedBlobs,
      logger,
      metrics: createMetricsRegistry('records-secrets-test'),
    },
    {
      cdrDefaultLimit: 10,
      largeLists: { largeOver: 100, perPartner: 2, total: 8 },
      exports: { ...DEFAULT_EXPORT_SETTINGS, callbacks: { ...DEFAULT_EXPORT_SETTINGS.callbacks, allowPrivate: true } },
      credentialKeys: keys,
    },
  );
  return store.collection<ExportDoc>('record_exports');
}

/** A done export whose callback is due, with its signing key stored as `key` (a plain string: an earlier version). */
function doneExport(key: StoredSecret): ExportDoc {
  const now = new Date();
  return {
    export_sid: randomUUID(),
    partner_sid: randomUUID(),
    kind: 'call',
    status: 'done',
    record_count: 3,
    bytes: 120,
    progress: 100,
    file_sid: randomUUID(),
    error: null,
    date_created: now,
    date_completed: now,
    filter: null,
    format: 'ndjson',
    compression: 'gzip',
    container_sid: randomUUID(),
    name: 'calls.ndjson.gz',
    callback: {
      url,
      event_id: randomUUID(),
      key,
      state: 'pending',
      attempt_count: 0,
      attempts: [],
      date_delivered: null,
      next_attempt_at: now,
      lease_until: null,
    },
    principal: { partner_sid: randomUUID(), login: 'p', scopes: [], token_sid: null },
    lease_owner: null,
    lease_until: null,
    runs: 1,
    pending_file_sid: null,
  };
}

test('a plain key of an earlier version is sealed at start, and the callback is still signed with it', async () => {
  const plain = randomBytes(32).toString('base64url');
  const legacy = doneExport(plain);
  legacy.callback!.state = 'delivered'; // not due yet: the first start must not send it
  // Written as an earlier version wrote it: the first start (with a key) finds it there.
  await start(keysOf(randomBytes(32)));
  await stop();
  const raw = new SqliteDocStore({ file: path.join(dir, 'store.sqlite') });
  await raw.collection<ExportDoc>('record_exports').insertOne(legacy);
  await raw.close();

  const current = randomBytes(32);
  const exports = await start(keysOf(current));
  const stored = await exports.findOne({ export_sid: legacy.export_sid });
  expect(isSealedSecret(stored?.callback?.key)).toBe(true);
  expect(stored?.callback?.key).toMatchObject({ kid: keyId(current) });
  expect(JSON.stringify(stored)).not.toContain(plain);

  // Due now: delivered, signed with the key the partner was given.
  await exports.updateOne(
    { export_sid: legacy.export_sid },
    { $set: { 'callback.state': 'pending', 'callback.next_attempt_at': new Date() } },
  );
  const delivered = await until('the callback delivered', 10_000, async () => {
    const d = await exports.findOne({ export_sid: legacy.export_sid });
    return d?.callback?.state === 'delivered' ? d : undefined;
  });
  expect(delivered.callback?.attempt_count).toBe(1);
  expect(seen).toHaveLength(1);
  expect(verifyCallback(plain, seen[0].body, seen[0].signature)).toBe(true);
  expect(JSON.parse(seen[0].body)).toMatchObject({ event_id: legacy.callback!.event_id });
});

test('rotation: a key sealed under an old key is re-sealed under the new one and still signs', async () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const plain = randomBytes(32).toString('base64url');
  let exports = await start(keysOf(oldKey));
  const doc = doneExport(plain);
  doc.callback!.state = 'delivered';
  await exports.insertOne(doc);
  await stop();
  exports = await start(keysOf(oldKey)); // sealed under the old key by this start's migration
  expect((await exports.findOne({ export_sid: doc.export_sid }))?.callback?.key).toMatchObject({
    kid: keyId(oldKey),
  });
  await stop();

  exports = await start(keysOf(newKey, [oldKey]));
  expect((await exports.findOne({ export_sid: doc.export_sid }))?.callback?.key).toMatchObject({
    kid: keyId(newKey),
  });
  await exports.updateOne(
    { export_sid: doc.export_sid },
    { $set: { 'callback.state': 'pending', 'callback.next_attempt_at': new Date() } },
  );
  await until('the callback delivered', 10_000, async () =>
    (await exports.findOne({ export_sid: doc.export_sid }))?.callback?.state === 'delivered' ? true : undefined,
  );
  expect(verifyCallback(plain, seen[0].body, seen[0].signature)).toBe(true);
});

test('a key sealed under a key not configured is never used: the attempt fails, logged without any key', async () => {
  const lost = randomBytes(32);
  const plain = randomBytes(32).toString('base64url');
  let exports = await start(keysOf(lost));
  const doc = doneExport(plain);
  doc.callback!.state = 'delivered';
  await exports.insertOne(doc);
  await stop();
  exports = await start(keysOf(lost));
  await stop();

  const { logger, lines } = captureLogger('info');
  exports = await start(keysOf(randomBytes(32)), logger);
  await exports.updateOne(
    { export_sid: doc.export_sid },
    { $set: { 'callback.state': 'pending', 'callback.next_attempt_at': new Date() } },
  );
  const tried = await until('an attempt recorded', 10_000, async () => {
    const d = await exports.findOne({ export_sid: doc.export_sid });
    return d?.callback?.attempt_count ? d : undefined;
  });
  expect(tried.callback?.attempts[0]).toMatchObject({ outcome: 'failed', status: null });
  expect(tried.callback?.attempts[0].reason).toMatch(/signing key cannot be decrypted/);
  expect(seen).toEqual([]);
  expect(tried.callback?.key).toMatchObject({ kid: keyId(lost) }); // left as it is, for the key to be added back
  const said = lines.filter((l) => l.export_sid === doc.export_sid).map((l) => String(l.msg));
  expect(said).toEqual(expect.arrayContaining([expect.stringMatching(/add its key to RECORDS_CREDENTIALS_OLD_KEYS/)]));
  expect(JSON.stringify(lines)).not.toContain(plain);
  expect(JSON.stringify(lines)).not.toContain(lost.toString('base64'));
});

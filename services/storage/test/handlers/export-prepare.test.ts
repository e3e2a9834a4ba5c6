/**
 * `svc.storage.exports.prepare`, the records service's prepare of an export's file (decisions §55): the File
 * fields checked as an API upload's (400 naming the field), the container one of the caller's (422 naming
 * container_sid), the room left as an API upload gets it, the idempotency key of a run started again honoured,
 * and only for a principal that manages storage (403). An external container as its target is covered where
 * an object store runs (tests/api/records-export-external.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { Subjects, unwrapReply, type Container, type Prepared } from '@patchbay/contracts';
import { newPartner, principalOf, startStorageKit, type StorageKit } from '../support/storage-kit';

let kit: StorageKit;
beforeAll(async () => {
  kit = await startStorageKit({ name: 'export-prepare' });
});
afterAll(async () => {
  await kit.stop();
});

const fieldsIn = (c: Container) => ({
  container_sid: c.container_sid,
  name: 'calls.ndjson.gz',
  mime_type: 'application/gzip',
});

test('into an internal container: a pending upload with the room left, as an API upload', async () => {
  const { principal, container } = await newPartner(kit);
  const prepared = unwrapReply<Prepared>(
    await kit.bus.request(Subjects.storage.exportPrepare, { principal, fields: fieldsIn(container) }),
  );
  // An internal container has a quota (null only for external ones).
  expect(prepared.max_bytes).toBe(Number(container.quota_bytes) - container.total_bytes);
  expect(prepared.max_bytes).toBeGreaterThan(0);
  expect(prepared.blob_key).toBe(`files/${principal.partner_sid}/${prepared.file_sid}`);
  const api = unwrapReply<Prepared>(
    await kit.bus.request(Subjects.storage.uploadPrepare, { principal, fields: fieldsIn(container), source: 'json' }),
  );
  expect(api.max_bytes).toBe(prepared.max_bytes);
});

test('refused: without storage.manage (403), a container not the caller’s (422), a bad field (400)', async () => {
  const { principal, container } = await newPartner(kit);
  const reader = { ...principal, scopes: ['calls.read'] };
  expect(
    await kit.bus.request(Subjects.storage.exportPrepare, { principal: reader, fields: fieldsIn(container) }),
  ).toMatchObject({ status: 403 });
  const other = await newPartner(kit);
  expect(
    await kit.bus.request(Subjects.storage.exportPrepare, { principal, fields: fieldsIn(other.container) }),
  ).toMatchObject({ status: 422, error: { errors: [expect.objectContaining({ field: 'container_sid' })] } });
  expect(
    await kit.bus.request(Subjects.storage.exportPrepare, {
      principal,
      fields: { ...fieldsIn(container), name: 42 },
    }),
  ).toMatchObject({ status: 400, error: { errors: [expect.objectContaining({ field: 'name' })] } });
  expect(
    await kit.bus.request(Subjects.storage.exportPrepare, {
      principal: principalOf(),
      fields: { ...fieldsIn(container), container_sid: randomUUID() },
    }),
  ).toMatchObject({ status: 422 });
});

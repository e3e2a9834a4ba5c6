/**
 * The records repo on an embedded store on disk: the per-partner identity of detail records, and
 * the migration of a database made by an earlier release (a unique index on `dr_sid` alone).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuplicateKeyError } from '@patchbay/contracts';
import { SqliteDocStore } from '@patchbay/platform';
import type { RecordDoc } from '../src/domain/record-docs';
import { openRecordsRepo, storeNewRecords } from '../src/repo';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-records-repo-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const A = randomUUID();
const B = randomUUID();
const doc = (partner: string, sid: string, extra: Record<string, unknown> = {}): RecordDoc => ({
  dr_sid: sid,
  partner_sid: partner,
  date_insert: new Date(),
  date_stop: new Date(),
  numeric: {},
  ...extra,
});

test('an existing database with dr_sid unique on its own is migrated at start, idempotently', async () => {
  const sid = randomUUID();
  // As an earlier release left it.
  const old = new SqliteDocStore({ file: path.join(dir, 'records.sqlite') });
  for (const name of ['call_drs', 'message_drs']) {
    await old.collection<RecordDoc>(name).createIndex({ dr_sid: 1 }, { unique: true });
    await old.collection<RecordDoc>(name).insertOne(doc(A, sid));
    await expect(old.collection<RecordDoc>(name).insertOne(doc(B, sid))).rejects.toBeInstanceOf(DuplicateKeyError);
  }
  await old.close();

  for (let start = 0; start < 2; start++) {
    const docs = new SqliteDocStore({ file: path.join(dir, 'records.sqlite') });
    const repo = await openRecordsRepo(docs);
    for (const records of [repo.callDrs, repo.messageDrs]) {
      if (start === 0) await records.insertOne(doc(B, sid));
      expect((await records.find({ dr_sid: sid }, { sort: { partner_sid: 1 } })).map((d) => d.partner_sid)).toEqual(
        [A, B].sort(),
      );
      await expect(records.insertOne(doc(A, sid))).rejects.toBeInstanceOf(DuplicateKeyError);
    }
    await docs.close();
  }
});

test('storeNewRecords stores what is new and counts what the partner already has, per partner', async () => {
  const docs = new SqliteDocStore({ file: path.join(dir, 'records.sqlite') });
  const repo = await openRecordsRepo(docs);
  const [s1, s2, s3] = [randomUUID(), randomUUID(), randomUUID()];
  expect(await storeNewRecords(repo.callDrs, [doc(A, s1), doc(A, s2)])).toEqual({ stored: 2, duplicates: 0 });
  expect(await storeNewRecords(repo.callDrs, [doc(B, s1), doc(A, s2, { price: 'changed' }), doc(A, s3)])).toEqual({
    stored: 2,
    duplicates: 1,
  });
  expect((await repo.callDrs.findOne({ partner_sid: A, dr_sid: s2 }))?.price).toBeUndefined();
  expect(await repo.callDrs.countDocuments({})).toBe(4);
  await docs.close();
});

import { randomUUID } from 'node:crypto';
import { SqliteDocStore } from '@patchbay/platform';
import { CALL_RECORDS, recordDocFrom } from '../../src/domain/record-kinds';
import { exportFilter } from '../../src/exports/export-writer';
import { recordBatches, withoutLowerBound } from '../../src/exports/record-batches';
import { openRecordsRepo, storeNewRecords } from '../../src/repo';

test('withoutLowerBound leaves out only $gt/$gte on the path, at the top or in $and', () => {
  const d = new Date('2025-01-01T00:00:00Z');
  const e = new Date('2025-02-01T00:00:00Z');
  expect(withoutLowerBound({ partner_sid: 'p', date_stop: { $gte: d } }, 'date_stop')).toEqual({ partner_sid: 'p' });
  expect(withoutLowerBound({ date_stop: { $gt: d, $lt: e }, x: { $gte: 1 } }, 'date_stop')).toEqual({
    date_stop: { $lt: e },
    x: { $gte: 1 },
  });
  expect(
    withoutLowerBound({ partner_sid: 'p', $and: [{ date_stop: { $gte: d } }, { date_stop: { $lt: e } }] }, 'date_stop'),
  ).toEqual({ partner_sid: 'p', $and: [{ date_stop: { $lt: e } }] });
  expect(withoutLowerBound({ date_stop: d }, 'date_stop')).toEqual({ date_stop: d });
});

test('the walk returns each record the filter selects once, in (date_stop, dr_sid) order, batch by batch', async () => {
  const docs = new SqliteDocStore();
  const repo = await openRecordsRepo(docs);
  const partner = randomUUID();
  const other = randomUUID();
  const now = new Date();
  const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 4) * 1000).toISOString();
  const make = (p: string, i: number) =>
    recordDocFrom(
      CALL_RECORDS,
      CALL_RECORDS.validate({ dr_sid: randomUUID(), date_start: at(i), date_stop: at(i), price: `0.0${i % 10}` }),
      p,
      now,
    );
  await storeNewRecords(repo.callDrs, [
    ...Array.from({ length: 1000 }, (_, i) => make(partner, i)),
    ...Array.from({ length: 50 }, (_, i) => make(other, i)),
  ]);
  const filter = 'date_stop ge "2025-01-01T00:00:20Z" and date_stop lt "2025-01-01T00:03:00Z" and price ge 0.03';
  const walked: string[] = [];
  let batches = 0;
  for await (const b of recordBatches(CALL_RECORDS, repo.callDrs, exportFilter(CALL_RECORDS, partner, filter), 7)) {
    batches++;
    walked.push(...b.map((d) => d.dr_sid));
  }
  const expected = (
    await repo.callDrs.find(exportFilter(CALL_RECORDS, partner, filter), { sort: { date_stop: 1, dr_sid: 1 } })
  ).map((d) => d.dr_sid);
  expect(expected.length).toBeGreaterThan(300);
  expect(walked).toEqual(expected);
  expect(batches).toBe(Math.ceil(expected.length / 7));
  await docs.close();
});

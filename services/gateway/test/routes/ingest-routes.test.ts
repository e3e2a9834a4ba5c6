/**
 * The gateway's bulk-ingest batching (ingestBody over readBodyItems): batches cut by count and by
 * bytes with consecutive positions, one batch in flight, the error list capped, failures surfaced.
 */
import { Readable } from 'node:stream';
import {
  INGEST_BATCH_BYTES,
  INGEST_BATCH_RECORDS,
  INGEST_MAX_ERRORS,
  type RecordIngestBatch,
  type RecordIngestBatchResult,
} from '@patchbay/contracts';
import { ingestBody } from '../../src/routes/ingest-routes';
import { readBodyItems } from '../../src/routes/ingest-stream';

type Batch = Pick<RecordIngestBatch, 'first_position' | 'records'>;
const lines = (values: unknown[]) =>
  Readable.from(values.map((v) => `${typeof v === 'string' ? v : JSON.stringify(v)}\n`));
const storeAll =
  (seen: Batch[]) =>
  async (b: Batch): Promise<RecordIngestBatchResult> => {
    seen.push(b);
    return { stored: b.records.filter(Boolean).length, duplicates: 0, errors: [] };
  };

test('batches of INGEST_BATCH_RECORDS records, consecutive positions, null for refused slots', async () => {
  const seen: Batch[] = [];
  const values: unknown[] = Array.from({ length: INGEST_BATCH_RECORDS * 2 + 3 }, (_, i) => ({ i }));
  values[7] = 'not json {';
  values[INGEST_BATCH_RECORDS + 100] = 42;
  const report = await ingestBody(readBodyItems(lines(values), 'ndjson'), storeAll(seen));
  expect(seen.map((b) => [b.first_position, b.records.length])).toEqual([
    [0, INGEST_BATCH_RECORDS],
    [INGEST_BATCH_RECORDS, INGEST_BATCH_RECORDS],
    [2 * INGEST_BATCH_RECORDS, 3],
  ]);
  expect(seen[0].records[7]).toBeNull();
  expect(seen[1].records[100]).toBeNull();
  expect(report).toMatchObject({ received: values.length, stored: values.length - 2, rejected: 2, complete: true });
});

test('a batch is also cut at INGEST_BATCH_BYTES', async () => {
  const seen: Batch[] = [];
  const big = 'x'.repeat(60_000);
  await ingestBody(readBodyItems(lines(Array.from({ length: 20 }, () => ({ big }))), 'ndjson'), storeAll(seen));
  for (const b of seen) expect(Buffer.byteLength(JSON.stringify(b.records))).toBeLessThan(INGEST_BATCH_BYTES + 70_000);
  expect(seen.length).toBeGreaterThan(1);
});

test('the error list is capped, the count is not', async () => {
  const report = await ingestBody(
    readBodyItems(lines(Array.from({ length: INGEST_MAX_ERRORS + 500 }, () => 'nope')), 'ndjson'),
    storeAll([]),
  );
  expect(report.rejected).toBe(INGEST_MAX_ERRORS + 500);
  expect(report.errors).toHaveLength(INGEST_MAX_ERRORS);
  expect(report.errors[0].position).toBe(0);
});

test('service answers are summed and their errors kept by position', async () => {
  const send = async (b: Batch): Promise<RecordIngestBatchResult> => ({
    stored: 1,
    duplicates: b.records.length - 2,
    errors: [{ position: b.first_position + 1, dr_sid: null, field: 'price', message: 'bad' }],
  });
  const report = await ingestBody(
    readBodyItems(lines(Array.from({ length: 2 * INGEST_BATCH_RECORDS + 200 }, (_, i) => ({ i }))), 'ndjson'),
    send,
  );
  expect(report).toMatchObject({ stored: 3, duplicates: 2 * INGEST_BATCH_RECORDS + 200 - 6, rejected: 3 });
  expect(report.errors.map((e) => e.position)).toEqual([1, INGEST_BATCH_RECORDS + 1, 2 * INGEST_BATCH_RECORDS + 1]);
});

test(
  'ignored fields are added up by name over the batches; an answer ' + 'without them (an older replica) adds none',
  async () => {
    let n = 0;
    const send = async (b: Batch): Promise<RecordIngestBatchResult> => {
      const stored = b.records.length;
      n++;
      if (n === 2) return { stored, duplicates: 0, errors: [] };
      return { stored, duplicates: 0, errors: [], ignored_fields: { color: b.records.length, [`only_${n}`]: 1 } };
    };
    const report = await ingestBody(
      readBodyItems(lines(Array.from({ length: 2 * INGEST_BATCH_RECORDS + 200 }, (_, i) => ({ i }))), 'ndjson'),
      send,
    );
    expect(report.ignored_fields).toEqual({ color: INGEST_BATCH_RECORDS + 200, only_1: 1, only_3: 1 });
    expect(Object.keys(report.ignored_fields)).toEqual(['color', 'only_1', 'only_3']);
  },
);

test('a failed first batch rejects the ingest: nothing was stored', async () => {
  const send = async (): Promise<RecordIngestBatchResult> => {
    throw new Error('service down');
  };
  await expect(
    ingestBody(readBodyItems(lines(Array.from({ length: 1500 }, (_, i) => ({ i }))), 'ndjson'), send),
  ).rejects.toThrow('service down');
});

test(
  'a batch failing after others were stored: the answer says exactly ' + 'what was stored, and reading stops',
  async () => {
    const seen: Batch[] = [];
    const send = async (b: Batch): Promise<RecordIngestBatchResult> => {
      if (seen.length === 2) throw new Error('service down');
      seen.push(b);
      return { stored: b.records.length, duplicates: 0, errors: [] };
    };
    let read = 0;
    // Records of some size, so the stream buffers' read-ahead (64 KiB each since Node 22) holds few of them.
    const values = Array.from({ length: 20 * INGEST_BATCH_RECORDS }, (_, i) => ({ i, pad: 'x'.repeat(200) }));
    const counted = Readable.from(
      (function* () {
        for (const v of values) {
          read++;
          yield `${JSON.stringify(v)}\n`;
        }
      })(),
    );
    const report = await ingestBody(readBodyItems(counted, 'ndjson'), send);
    expect(report).toMatchObject({ stored: 2 * INGEST_BATCH_RECORDS, complete: false });
    expect(report.errors).toEqual([
      expect.objectContaining({
        position: 2 * INGEST_BATCH_RECORDS,
        message: expect.stringMatching(/^not stored: service down/),
      }),
    ]);
    expect(report.rejected).toBe(INGEST_BATCH_RECORDS);
    expect(read).toBeLessThan(values.length);
  },
);

test('a JSON array is read element by element', async () => {
  const seen: Batch[] = [];
  const report = await ingestBody(
    readBodyItems(Readable.from(['[{"a":', '1},', '{"b":2}, [3]', ']']), 'json-array'),
    storeAll(seen),
  );
  expect(seen).toEqual([{ first_position: 0, records: [{ a: 1 }, { b: 2 }, null] }]);
  expect(report).toMatchObject({ received: 3, stored: 2, rejected: 1, complete: true });
});

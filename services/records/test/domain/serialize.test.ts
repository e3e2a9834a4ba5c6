import { randomUUID } from 'node:crypto';
import { CallRecordSchema, MessageRecordSchema, compileValidator } from '@patchbay/contracts';
import type { RecordDoc } from '../../src/domain/record-docs';
import { CALL_RECORDS, MESSAGE_RECORDS, recordDocFrom } from '../../src/domain/record-kinds';
import { serializeRecord } from '../../src/domain/serialize';

const P = randomUUID();
const NOW = new Date('2024-05-01T00:00:00.000Z');

test(
  'every field, alphabetical, null when unknown, [] for lists, dates in ' +
    'UTC with milliseconds; numeric stays inside',
  () => {
    const doc = recordDocFrom(
      MESSAGE_RECORDS,
      { dr_sid: randomUUID(), date_sent: '2024-04-30T12:00:00+02:00', mcc_mnc_price: '0.015' },
      P,
      NOW,
    );
    const out = serializeRecord(MESSAGE_RECORDS.fields, doc);
    expect(Object.keys(out)).toEqual(Object.keys(MessageRecordSchema.properties).sort());
    expect(out).toMatchObject({
      date_sent: '2024-04-30T10:00:00.000Z',
      date_insert: '2024-05-01T00:00:00.000Z',
      mcc_mnc_price: '0.015',
      media_urls: [],
      number_group_dst: [],
      a2p_campaign: null,
    });
    expect(out).not.toHaveProperty('numeric');
    expect(compileValidator(MessageRecordSchema)(out)).toBeTruthy();
  },
);

test('a call record serializes to its published schema', () => {
  const doc = recordDocFrom(
    CALL_RECORDS,
    {
      dr_sid: randomUUID(),
      date_start: '2024-04-30T10:00:00Z',
      date_stop: '2024-04-30T10:00:04.25Z',
      transcoded: true,
      version: 2,
    },
    P,
    NOW,
  );
  const out = compileValidator(CallRecordSchema)(serializeRecord(CALL_RECORDS.fields, doc));
  expect(out).toMatchObject({ duration: '4.25', transcoded: true, version: 2, stir_attest: null });
});

test('a record stored before a field existed reads that field as absent', () => {
  // As an earlier release stored it: the fields of its time, nulls included, no lists of later fields.
  const old = {
    dr_sid: randomUUID(),
    partner_sid: P,
    date_insert: NOW,
    date_sent: null,
    media_urls: ['https://x.test/f/1'],
    price: '0.01',
    numeric: { price: 0.01 },
  } as RecordDoc;
  const out = serializeRecord(MESSAGE_RECORDS.fields, old);
  expect(out).toMatchObject({
    media_urls: ['https://x.test/f/1'],
    number_group_dst: [],
    vendor_error_code: null,
    date_changed: null,
    price: '0.01',
  });
  expect(Object.keys(out)).toHaveLength(34);
});

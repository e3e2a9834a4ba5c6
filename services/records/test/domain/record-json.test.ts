import { CALL_RECORDS, MESSAGE_RECORDS, recordDocFrom } from '../../src/domain/record-kinds';
import { recordJsonWriter } from '../../src/domain/record-json';
import { serializeRecord } from '../../src/domain/serialize';

const P = '5b7e1b0a-3c1e-4d4c-9a36-1f6d8f0c2b11';
const now = new Date('2025-01-02T03:04:05.678Z');

test('a call record line is exactly JSON.stringify of the list object', () => {
  const json = recordJsonWriter(CALL_RECORDS.fields);
  for (const input of [
    {
      dr_sid: '0f0e1d2c-3b4a-4958-8776-655443322110',
      date_start: '2025-01-01T00:00:00Z',
      date_stop: '2025-01-01T00:01:00.5Z',
    },
    {
      dr_sid: '1f0e1d2c-3b4a-4958-8776-655443322110',
      date_start: '2025-01-01T00:00:00Z',
      date_stop: '2025-01-01T00:01:00Z',
      price: '-0.25',
      number_src: '="x"\n\u2028',
      direction: 'inbound',
      sipcause: '486',
    },
  ]) {
    const doc = recordDocFrom(CALL_RECORDS, CALL_RECORDS.validate(input), P, now);
    expect(json(doc)).toBe(JSON.stringify(serializeRecord(CALL_RECORDS.fields, doc)));
  }
});

test('a message record line too, with null dates and lists, and a record stored with nulls', () => {
  const json = recordJsonWriter(MESSAGE_RECORDS.fields);
  const doc = recordDocFrom(
    MESSAGE_RECORDS,
    MESSAGE_RECORDS.validate({ dr_sid: '2f0e1d2c-3b4a-4958-8776-655443322110', message: 'hé "quoted"', mcc: 310 }),
    P,
    now,
  );
  expect(json(doc)).toBe(JSON.stringify(serializeRecord(MESSAGE_RECORDS.fields, doc)));
  const withNulls = { ...doc, date_stop: null, message: null };
  expect(json(withNulls)).toBe(JSON.stringify(serializeRecord(MESSAGE_RECORDS.fields, withNulls)));
});

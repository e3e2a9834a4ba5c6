import { CALL_RECORDS, MESSAGE_RECORDS, recordDocFrom } from '../../src/domain/record-kinds';
import { ownerOf, RecordRuleError, secondsBetween } from '../../src/domain/record-docs';

const P = '0b0c2d1e-6a38-4c37-a8b3-0d8f7f1c2b3a';
const NOW = new Date('2024-05-01T00:00:00.000Z');
const base = {
  dr_sid: 'C02A73B2-8401-459A-AF7E-F4CC3EEE7854',
  date_start: '2024-04-30T10:00:00.000Z',
  date_stop: '2024-04-30T10:00:04.250Z',
};
const call = (input: Record<string, unknown>) =>
  recordDocFrom(CALL_RECORDS, CALL_RECORDS.validate(input) as Record<string, unknown>, P, NOW);
const message = (input: Record<string, unknown>) =>
  recordDocFrom(MESSAGE_RECORDS, MESSAGE_RECORDS.validate(input) as Record<string, unknown>, P, NOW);

describe('call records', () => {
  test('defaults: date_insert now, duration from the dates, no other field (absent, not null); sids lower case', () => {
    const doc = call(base);
    expect(doc).toEqual({
      dr_sid: 'c02a73b2-8401-459a-af7e-f4cc3eee7854',
      partner_sid: P,
      date_insert: NOW,
      date_start: new Date('2024-04-30T10:00:00.000Z'),
      date_stop: new Date('2024-04-30T10:00:04.250Z'),
      duration: '4.25',
      numeric: { duration: 4.25 },
    });
    // A null in the input is no value either.
    expect(call({ ...base, price: null, sipcause: null })).not.toHaveProperty('price');
  });

  test('keeps given decimals exactly and mirrors them as numbers; lower-cases every secure ID', () => {
    const doc = call({
      ...base,
      price: '0.0025',
      rate: '-1.5',
      duration: '4.25015',
      duration_billing: '60',
      price_lcr_src: '0.01',
      date_insert: '2024-04-30T12:00:00+02:00',
      trunk_group_sid_src: 'CF7DB13F-5C63-4C62-A447-FE3008CD72EF',
    });
    expect(doc).toMatchObject({
      price: '0.0025',
      rate: '-1.5',
      duration: '4.25015',
      duration_billing: '60',
      trunk_group_sid_src: 'cf7db13f-5c63-4c62-a447-fe3008cd72ef',
      numeric: { price: 0.0025, rate: -1.5, duration: 4.25015, duration_billing: 60, price_lcr_src: 0.01 },
    });
    expect(doc.date_insert.toISOString()).toBe('2024-04-30T10:00:00.000Z');
  });

  test.each([
    [{ date_stop: '2024-04-30T09:59:59.000Z' }, 'date_stop'],
    [{ date_talk: '2024-04-30T10:00:05.000Z' }, 'date_talk'],
    [{ date_talk: '2024-04-30T09:00:00.000Z' }, 'date_talk'],
    [{ date_start: '2016-12-31T23:59:60Z' }, 'date_start'],
  ])('%j breaks a rule on %s', (patch, field) => {
    expect(() => call({ ...base, ...patch })).toThrow(expect.objectContaining({ field }));
  });
});

describe('message records', () => {
  test('defaults: lists [], date_insert now, nullable dates absent', () => {
    const doc = message({ dr_sid: base.dr_sid, price: '0.015', number_group_dst: null });
    expect(doc).toEqual({
      dr_sid: 'c02a73b2-8401-459a-af7e-f4cc3eee7854',
      partner_sid: P,
      media_urls: [],
      number_group_dst: [],
      date_insert: NOW,
      price: '0.015',
      numeric: { price: 0.015 },
    });
  });

  test("date_stop may precede date_start (the compatible API's own sample does)", () => {
    const doc = message({
      dr_sid: base.dr_sid,
      date_start: '2025-04-14T10:32:17.279Z',
      date_stop: '2025-04-14T10:32:00.000Z',
    });
    expect(doc.date_stop).toEqual(new Date('2025-04-14T10:32:00.000Z'));
  });

  test('a date-time that Date cannot hold is refused naming the field', () => {
    expect(() => message({ dr_sid: base.dr_sid, date_changed: '2016-12-31T23:59:60Z' })).toThrow(RecordRuleError);
  });
});

test('secondsBetween writes seconds with up to three decimals', () => {
  const at = (ms: number) => new Date(Date.UTC(2024, 0, 1) + ms);
  expect(secondsBetween(at(0), at(0))).toBe('0');
  expect(secondsBetween(at(0), at(60_000))).toBe('60');
  expect(secondsBetween(at(0), at(4_250))).toBe('4.25');
  expect(secondsBetween(at(0), at(7))).toBe('0.007');
});

test('a partner ingests only its own records', () => {
  expect(ownerOf(undefined, P)).toBe(P);
  expect(ownerOf(null, P)).toBe(P);
  expect(ownerOf(P.toUpperCase(), P)).toBe(P);
  expect(() => ownerOf('7f0c2c1e-6a38-4c37-a8b3-0d8f7f1c2b3a', P)).toThrow(
    expect.objectContaining({ field: 'partner_sid' }),
  );
});

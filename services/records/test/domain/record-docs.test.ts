import { callDocFrom, messageDocFrom, ownerOf, RecordRuleError, secondsBetween } from '../../src/domain/record-docs';

const P = '0b0c2d1e-6a38-4c37-a8b3-0d8f7f1c2b3a';
const NOW = new Date('2024-05-01T00:00:00.000Z');
const base = { dr_sid: 'C02A73B2-8401-459A-AF7E-F4CC3EEE7854', date_start: '2024-04-30T10:00:00.000Z', date_stop: '2024-04-30T10:00:04.250Z' };

describe('call records', () => {
  test('defaults: date_insert now, duration from the dates, every other field null; sids lower case', () => {
    const doc = callDocFrom(base, P, NOW);
    expect(doc).toMatchObject({
      dr_sid: 'c02a73b2-8401-459a-af7e-f4cc3eee7854', partner_sid: P, date_insert: NOW, duration: '4.25', duration_billing: null,
      date_talk: null, price: null, rate: null, sipcause: null, direction: null, numeric: { duration: 4.25, duration_billing: null, price: null, rate: null },
    });
    expect(doc.date_stop).toEqual(new Date('2024-04-30T10:00:04.250Z'));
  });

  test('keeps given decimals exactly and mirrors them as numbers', () => {
    const doc = callDocFrom({ ...base, price: '0.0025', rate: '-1.5', duration: '4.25015', duration_billing: '60', date_insert: '2024-04-30T12:00:00+02:00' }, P, NOW);
    expect(doc).toMatchObject({ price: '0.0025', rate: '-1.5', duration: '4.25015', duration_billing: '60', numeric: { price: 0.0025, rate: -1.5, duration: 4.25015, duration_billing: 60 } });
    expect(doc.date_insert.toISOString()).toBe('2024-04-30T10:00:00.000Z');
  });

  test.each([
    [{ date_stop: '2024-04-30T09:59:59.000Z' }, 'date_stop'],
    [{ date_talk: '2024-04-30T10:00:05.000Z' }, 'date_talk'],
    [{ date_talk: '2024-04-30T09:00:00.000Z' }, 'date_talk'],
    [{ date_start: '2016-12-31T23:59:60Z' }, 'date_start'],
  ])('%j breaks a rule on %s', (patch, field) => {
    expect(() => callDocFrom({ ...base, ...patch }, P, NOW)).toThrow(expect.objectContaining({ field }));
  });
});

describe('message records', () => {
  test('defaults: media_urls [], nullable dates null, date_insert now', () => {
    const doc = messageDocFrom({ dr_sid: base.dr_sid, price: '0.015' }, P, NOW);
    expect(doc).toMatchObject({ media_urls: [], date_sent: null, date_start: null, date_stop: null, date_insert: NOW, price: '0.015', numeric: { price: 0.015, rate: null } });
  });

  test('date_stop must not precede date_start', () => {
    expect(() => messageDocFrom({ dr_sid: base.dr_sid, date_start: '2024-01-02T00:00:00Z', date_stop: '2024-01-01T00:00:00Z' }, P, NOW)).toThrow(RecordRuleError);
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
  expect(ownerOf(P.toUpperCase(), P)).toBe(P);
  expect(() => ownerOf('7f0c2c1e-6a38-4c37-a8b3-0d8f7f1c2b3a', P)).toThrow(expect.objectContaining({ field: 'partner_sid' }));
});

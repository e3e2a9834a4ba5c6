import { randomUUID } from 'node:crypto';
import { knownFields, planIngest } from '../../src/domain/ingest-plan';
import { ownerOf } from '../../src/domain/record-docs';
import { CALL_RECORDS, MESSAGE_RECORDS } from '../../src/domain/record-kinds';

const P = randomUUID();
const NOW = new Date('2024-05-01T00:00:00.000Z');
const caller = (given: string | null | undefined) => ownerOf(given, P);
const call = (extra: Record<string, unknown> = {}) => ({
  dr_sid: randomUUID(),
  date_start: '2024-04-30T10:00:00Z',
  date_stop: '2024-04-30T10:01:00Z',
  ...extra,
});
const items = (records: unknown[], first = 0) => records.map((raw, i) => ({ position: first + i, raw }));

test('unknown fields are dropped and counted per record, whatever becomes of the record', () => {
  const plan = planIngest(
    CALL_RECORDS,
    items([call({ color: 'red', shade: 1 }), call({ color: 'blue' }), call({ color: 'x', price: 0.5 })]),
    caller,
    NOW,
  );
  expect(plan.docs).toHaveLength(2);
  expect(plan.docs[0]).not.toHaveProperty('color');
  expect([...plan.ignored]).toEqual([
    ['color', 3],
    ['shade', 1],
  ]);
  expect(plan.errors.map((e) => [e.position, e.field])).toEqual([[2, 'price']]);
});

test('a name such as __proto__ is data, never a prototype', () => {
  const raw = JSON.parse(`{"dr_sid": "${randomUUID()}", "__proto__": {"polluted": 1}, "constructor": 2}`) as Record<
    string,
    unknown
  >;
  const { known, unknown } = knownFields(MESSAGE_RECORDS, raw);
  expect(unknown.sort()).toEqual(['__proto__', 'constructor']);
  expect(Object.getPrototypeOf(known)).toBe(Object.prototype);
  expect(planIngest(MESSAGE_RECORDS, items([raw]), caller, NOW).docs).toHaveLength(1);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('type errors refuse their record, by position, with plain-language messages', () => {
  const plan = planIngest(
    CALL_RECORDS,
    items(
      [
        call({ price: 0.5 }),
        call({ duration: '-1' }),
        call({ sipcause: 'OK' }),
        call({ endpoint_sid_src: 'nope' }),
        call({ transcoded: 'yes' }),
        'text',
        null,
      ],
      10,
    ),
    caller,
    NOW,
  );
  expect(plan.docs).toHaveLength(0);
  expect(plan.errors.map((e) => [e.position, e.field, e.message])).toEqual([
    [10, 'price', 'must be a decimal string such as "0.0025"'],
    [11, 'duration', 'must be non-negative seconds as a decimal string such as "4.25"'],
    [12, 'sipcause', 'must be a SIP status code as a string such as "200"'],
    [13, 'endpoint_sid_src', 'must be a secure ID (UUID)'],
    [14, 'transcoded', 'must be boolean'],
    [15, null, 'a record must be a JSON object'],
  ]);
});

test('a repeat within the batch is a duplicate; the same dr_sid of two partners is two records', () => {
  const sid = randomUUID();
  const other = randomUUID();
  const byEvent = (given: string | null | undefined) => String(given);
  const plan = planIngest(
    MESSAGE_RECORDS,
    items([
      { dr_sid: sid, partner_sid: P },
      { dr_sid: sid.toUpperCase(), partner_sid: P },
      { dr_sid: sid, partner_sid: other },
    ]),
    byEvent,
    NOW,
  );
  expect(plan.duplicates).toBe(1);
  expect(plan.docs.map((d) => d.partner_sid)).toEqual([P, other]);
});

test('a record naming another partner is refused', () => {
  const plan = planIngest(CALL_RECORDS, items([call({ partner_sid: randomUUID() })]), caller, NOW);
  expect(plan.errors.map((e) => e.field)).toEqual(['partner_sid']);
});

/**
 * Detail records carry the full documented field sets (docs/interface-notes.md, Detail records and countries):
 * a record with every field is ingested, returned as given on GET and in lists, every field is
 * filterable and usable in include_fields/exclude_fields; type errors in the added fields refuse
 * their record by position; unknown fields are dropped and counted in `ignored_fields`.
 */
import { randomUUID } from 'node:crypto';
import { API, http, newPartner, type TestPartner } from '../harness/api';

let partner: TestPartner;
beforeAll(async () => {
  partner = await newPartner();
});

/** A call record as the compatible API exports it: every documented field set. */
const fullCall = (partnerSid: string) => ({
  cic: '0288',
  cic_original: '0288',
  cic_transformed: '0110',
  codec_dst: 'g722',
  codec_src: 'amrwb',
  date_insert: '2025-05-18T15:35:03.000Z',
  date_start: '2025-05-18T15:32:15.589Z',
  date_stop: '2025-05-18T15:32:19.839Z',
  date_talk: '2025-05-18T15:32:16.535Z',
  direction: 'inbound',
  disconnect_originator: 'DST',
  diversion_dst: '+15550001001',
  diversion_src: '+15550001002',
  dr_sid: randomUUID(),
  duration: '4.25015',
  duration_billing: '60',
  endpoint_sid_dst: randomUUID(),
  endpoint_sid_src: randomUUID(),
  identity: '<sip:+15550002000@198.51.100.7>',
  ip_dst: '10.222.2.197:5060',
  ip_src: '198.51.100.18',
  number_billing: '15550003000',
  number_dst: '15550003000',
  number_dst_original: '5550003000',
  number_dst_transformed: '+15550003000',
  number_external: '15550004000',
  number_src: '+15550004000',
  number_src_original: '5550004000',
  number_src_transformed: '+15550004000',
  partner_sid: partnerSid,
  price: '0.0025',
  price_lcr_dst: '0.0021',
  price_lcr_src: '0.0019',
  rate: '0.0025',
  rate_lcr_dst: '0.005',
  rate_lcr_src: '0.004',
  sipcallid_dst: '11b5b29c3486cac5@203.0.113.174',
  sipcallid_src: '428ac5df4582bea6@198.51.100.24',
  sipcause: '200',
  stir_attest: 'A',
  stir_identity: 'false',
  stir_orig_id: '+15550004000',
  stir_signing_entity: 'example-carrier',
  stir_verstat: 'TN-Validation-Passed',
  transcoded: true,
  trunk_group_sid_dst: randomUUID(),
  trunk_group_sid_src: randomUUID(),
  user_data: 'campaign=7',
  version: 2,
});

/** A message record with every documented field set. */
const fullMessage = (partnerSid: string) => ({
  a2p_campaign: 'CVN1LXI',
  date_changed: '2025-04-14T10:32:18.175Z',
  date_insert: '2025-04-14T10:32:17.279Z',
  date_sent: '2025-04-14T10:32:17.997Z',
  date_start: '2025-04-14T10:32:17.279Z',
  date_stop: '2025-04-14T10:32:00.000Z',
  delay_sent: 1,
  direction: 'outbound',
  dr_sid: randomUUID(),
  mcc: 310,
  mcc_mnc_price: '0.015',
  mcc_mnc_rate: '0.005',
  media_urls: ['https://files.example.com/f/cdac0471'],
  message: 'hello there',
  message_segments: 1,
  mnc: 999,
  number_billing: '12075550100',
  number_dst: '17575550101',
  number_external: '17575550101',
  number_group_dst: ['17205550102', '17205550103', '17575550101'],
  number_src: '12075550100',
  p2p_nnid: '123456',
  partner_sid: partnerSid,
  passthrough_price: '0.0031',
  passthrough_rate: '0.0029',
  price: '0.015',
  provider: 'tsg',
  rate: '0.005',
  registration_type: 'a2p',
  status: 'sent',
  type: 'mms',
  user_data: 'test_message',
  vendor_error_code: '503',
  version: '3',
});

const DECIMALS = new Set([
  'duration',
  'duration_billing',
  'price',
  'price_lcr_dst',
  'price_lcr_src',
  'rate',
  'rate_lcr_dst',
  'rate_lcr_src',
  'mcc_mnc_price',
  'mcc_mnc_rate',
  'passthrough_price',
  'passthrough_rate',
]);

/** `field eq <value>` in the filter grammar: decimals compare as numbers, a list matches an element. */
function eq(field: string, value: unknown): string {
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof v === 'number' || typeof v === 'boolean' || DECIMALS.has(field)) return `${field} eq ${String(v)}`;
  return `${field} eq "${String(v)}"`;
}

const KINDS = [
  {
    name: 'call_drs',
    path: '/calls/call_drs',
    full: fullCall,
    bare: () => ({ dr_sid: randomUUID(), date_start: '2025-05-18T15:00:00Z', date_stop: '2025-05-18T15:01:00Z' }),
  },
  {
    name: 'message_drs',
    path: '/sms/message_drs',
    full: fullMessage,
    bare: () => ({ dr_sid: randomUUID(), date_stop: '2025-04-14T11:00:00Z' }),
  },
] as const;

describe.each(KINDS)('$name with every documented field', (kind) => {
  let full: Record<string, unknown> & { dr_sid: string };
  let bare: Record<string, unknown> & { dr_sid: string };
  const list = (query: string) =>
    http()
      .get(`${API}${kind.path}?limit=100&${query}`)
      .set(...partner.auth);

  beforeAll(async () => {
    full = kind.full(partner.partner_sid);
    bare = kind.bare();
    const res = await http()
      .post(`${API}${kind.path}`)
      .set(...partner.auth)
      .send([full, bare]);
    expect(res.body).toMatchObject({ stored: 2, rejected: 0, errors: [], ignored_fields: {} });
  });

  test('GET returns every field as given; the bare record has every field too, null when unknown', async () => {
    const got = await http()
      .get(`${API}${kind.path}/${full.dr_sid}`)
      .set(...partner.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(full);
    const other = await http()
      .get(`${API}${kind.path}/${bare.dr_sid}`)
      .set(...partner.auth);
    expect(Object.keys(other.body)).toEqual(Object.keys(full).sort());
    for (const [field, value] of Object.entries(other.body))
      if (!(field in bare) && field !== 'partner_sid' && field !== 'date_insert' && field !== 'duration')
        expect([null, []]).toContainEqual(value);
  });

  test('every field is filterable: eq its value finds the full record only', async () => {
    for (const [field, value] of Object.entries(full)) {
      if (field === 'partner_sid') continue; // both records are the caller's
      const res = await list(`filter=${encodeURIComponent(eq(field, value))}&include_fields=dr_sid`);
      expect({ field, status: res.status, items: res.body.items }).toEqual({
        field,
        status: 200,
        items: [{ dr_sid: full.dr_sid }],
      });
    }
  });

  test('every field works in include_fields and exclude_fields, on lists and on GET', async () => {
    const fields = Object.keys(full).sort();
    for (const field of fields) {
      const only = await list(`filter=${encodeURIComponent(`dr_sid eq ${full.dr_sid}`)}&include_fields=${field}`);
      expect(only.body.items).toEqual([{ [field]: full[field] }]);
    }
    const half = fields.filter((_, i) => i % 2 === 0);
    const got = await http()
      .get(`${API}${kind.path}/${full.dr_sid}?exclude_fields=${half.join(',')}`)
      .set(...partner.auth);
    expect(Object.keys(got.body)).toEqual(fields.filter((f) => !half.includes(f)));
  });
});

test('types of the added fields are checked: a bad one refuses its record, by position, naming the field', async () => {
  const call = () => ({ dr_sid: randomUUID(), date_start: '2025-05-18T15:00:00Z', date_stop: '2025-05-18T15:01:00Z' });
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ transcoded: 'yes' }, 'transcoded'],
    [{ version: -1 }, 'version'],
    [{ trunk_group_sid_dst: 'tg-1' }, 'trunk_group_sid_dst'],
    [{ price_lcr_dst: 0.1 }, 'price_lcr_dst'],
    [{ rate_lcr_src: 'cheap' }, 'rate_lcr_src'],
    [{ ip_src: 'x'.repeat(65) }, 'ip_src'],
  ];
  const res = await http()
    .post(`${API}/calls/call_drs`)
    .set(...partner.auth)
    .send([call(), ...bad.map(([patch]) => ({ ...call(), ...patch }))]);
  expect(res.body).toMatchObject({ stored: 1, rejected: bad.length });
  expect(res.body.errors.map((e: { position: number; field: string }) => [e.position, e.field])).toEqual(
    bad.map(([, field], i) => [i + 1, field]),
  );
  expect(res.body.errors[3].message).toContain('decimal string');

  const messages = await http()
    .post(`${API}/sms/message_drs`)
    .set(...partner.auth)
    .send([
      { dr_sid: randomUUID(), number_group_dst: '17205550102' },
      { dr_sid: randomUUID(), mcc_mnc_rate: 'abc' },
      { dr_sid: randomUUID(), date_changed: 'yesterday' },
    ]);
  expect(messages.body.errors.map((e: { position: number; field: string }) => [e.position, e.field])).toEqual([
    [0, 'number_group_dst'],
    [1, 'mcc_mnc_rate'],
    [2, 'date_changed'],
  ]);
});

test(
  'unknown fields are dropped and counted over the whole body; a bad ' + 'record still counts its unknown fields',
  async () => {
    const records = Array.from({ length: 700 }, (_, i) => ({
      dr_sid: randomUUID(),
      type: 'sms',
      export_version: 9,
      ...(i % 100 === 0 && { carrier_note: 'x' }),
      ...(i === 5 && { mcc: 'three-ten' }),
      ...(i === 6 && { [`very_long_${'n'.repeat(200)}`]: 1 }),
    }));
    const res = await http()
      .post(`${API}/sms/message_drs`)
      .set(...partner.auth)
      .set('Content-Type', 'application/x-ndjson')
      .send(records.map((r) => JSON.stringify(r)).join('\n'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      received: 700,
      stored: 699,
      rejected: 1,
      errors: [expect.objectContaining({ position: 5, field: 'mcc' })],
    });
    // Names longer than 128 characters are dropped too, but not listed.
    expect(res.body.ignored_fields).toEqual({ carrier_note: 7, export_version: 700 });
    const got = await http()
      .get(`${API}/sms/message_drs/${records[0].dr_sid}`)
      .set(...partner.auth);
    expect(got.body).not.toHaveProperty('export_version');
    expect(got.body).not.toHaveProperty('carrier_note');
  },
);

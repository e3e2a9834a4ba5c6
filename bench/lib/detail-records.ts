/**
 * Full detail records for the ingest benches, as a carrier's export holds them: a call record with
 * the 20 fields a switch fills in (reference-facts "Call detail record fields"; about 630 bytes of
 * JSON) and a message record with 22 (about 630 bytes). Record i is fully determined by i: its
 * `dr_sid` is derived from it, and a call record stops at `t0` + i s, so the record at any depth of
 * the default order (date_stop ascending) is known without asking. Values vary with i the way a
 * real export's do (numbers, durations, prices, call IDs), so no column compresses to one value.
 */

/** The `dr_sid` of record i (a version-4-shaped UUID). */
export const sidOf = (i: number): string => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** A second, fixed UUID family for the sids a record refers to (endpoints, trunk groups). */
const refSid = (n: number): string => `7f3c${(n % 0xffff).toString(16).padStart(4, '0')}-1b2e-4c5d-9e8f-a1b2c3d4e5f6`;

const hex = (n: number, width: number): string => (n >>> 0).toString(16).padStart(width, '0').slice(-width);

/** Record i's SIP Call-ID: 24 hex digits of i mixed, then the host. */
const callId = (i: number, host: string): string =>
  `${hex(Math.imul(i, 2654435761), 8)}${hex(Math.imul(i ^ 0x5bd1e995, 40503), 8)}${hex(i, 8)}@${host}`;

const iso = (ms: number): string => new Date(ms).toISOString();

export const CALL_T0 = Date.UTC(2024, 0, 1);

/** One NDJSON line: call record i (JSON, no trailing newline), stopping at t0 + i × stepMs. */
export function callRecordLine(i: number, t0 = CALL_T0, stepMs = 1000): string {
  const stop = t0 + Math.floor(i * stepMs);
  const talkMs = 4_000 + (i % 597) * 1000 + (i % 1000);
  const start = stop - talkMs - 6_000 - (i % 7) * 1000;
  const talk = stop - talkMs;
  const seconds = `${Math.floor(talkMs / 1000)}.${String(talkMs % 1000).padStart(3, '0')}`;
  const billed = String(Math.ceil(talkMs / 60_000) * 60);
  const src = `+3312345${String(i % 10_000).padStart(4, '0')}`;
  const dst = `+336${String((i * 7919) % 100_000_000).padStart(8, '0')}`;
  return JSON.stringify({
    dr_sid: sidOf(i),
    date_start: iso(start),
    date_talk: iso(talk),
    date_stop: iso(stop),
    direction: i % 3 === 0 ? 'inbound' : 'outbound',
    duration: seconds,
    duration_billing: billed,
    number_src: src,
    number_dst: dst,
    price: `0.0${String(100 + (i % 900)).padStart(3, '0')}`,
    rate: '0.0120',
    ip_dst: `185.12.${(i >> 4) % 250}.${i % 250}:5060`,
    sipcallid_src: callId(i, '10.222.2.197'),
    sipcallid_dst: callId(i + 1, 'sbc1.example'),
    sipcause: i % 50 === 0 ? '486' : '200',
    codec_src: 'PCMA',
    disconnect_originator: i % 2 === 0 ? 'DST' : 'SRC',
    endpoint_sid_src: refSid(i % 500),
    stir_attest: 'A',
    transcoded: i % 4 === 0,
  });
}

export const MESSAGE_T0 = Date.UTC(2024, 0, 1);

/** One NDJSON line: message record i (JSON, no trailing newline). */
export function messageRecordLine(i: number, t0 = MESSAGE_T0): string {
  const insert = t0 + i * 1000;
  const code = String((i * 7919) % 1_000_000).padStart(6, '0');
  return JSON.stringify({
    dr_sid: sidOf(i),
    date_insert: iso(insert),
    date_start: iso(insert - 900),
    date_sent: iso(insert - 400),
    date_stop: iso(insert),
    delay_sent: i % 3,
    direction: 'outbound',
    type: 'sms',
    status: i % 40 === 0 ? 'failed' : 'sent',
    provider: 'tsg',
    number_src: '+18885551234',
    number_dst: `+1415${String((i * 31) % 10_000_000).padStart(7, '0')}`,
    number_billing: '+18885551234',
    mcc: 310,
    mnc: 260 + (i % 3),
    message: `Your verification code is ${code}. It expires in 10 minutes. Do not share it with anyone.`,
    message_segments: 1,
    price: '0.0075',
    rate: '0.0075',
    mcc_mnc_price: '0.0041',
    a2p_campaign: `C${hex(i % 40, 6).toUpperCase()}`,
    registration_type: '10DLC',
  });
}

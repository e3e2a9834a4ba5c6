/**
 * Detail records as stored, and the rules that turn a validated input record (ingest body or
 * event) into one. Plain functions, no I/O.
 *
 * Stored shape: the API fields, dates as Date objects (filters compare instants), decimal strings
 * exactly as given, plus `numeric`: the same decimals as numbers, so `filter` and `order` compare
 * prices and durations as numbers (list-specs.ts maps those fields there). `numeric` never leaves
 * the service.
 */
import type { CallRecordInput, MessageRecordInput } from '@patchbay/contracts';

type Nullable<T> = T | null;

export interface CallDoc extends Record<string, unknown> {
  dr_sid: string;
  partner_sid: string;
  date_insert: Date;
  date_start: Date;
  date_stop: Date;
  date_talk: Nullable<Date>;
  direction: Nullable<string>;
  duration: Nullable<string>;
  duration_billing: Nullable<string>;
  endpoint_sid_src: Nullable<string>;
  endpoint_sid_dst: Nullable<string>;
  number_src: Nullable<string>;
  number_dst: Nullable<string>;
  number_billing: Nullable<string>;
  number_external: Nullable<string>;
  price: Nullable<string>;
  rate: Nullable<string>;
  sipcause: Nullable<string>;
  codec_src: Nullable<string>;
  codec_dst: Nullable<string>;
  numeric: { duration: Nullable<number>; duration_billing: Nullable<number>; price: Nullable<number>; rate: Nullable<number> };
}

export interface MessageDoc extends Record<string, unknown> {
  dr_sid: string;
  partner_sid: string;
  date_insert: Date;
  date_sent: Nullable<Date>;
  date_start: Nullable<Date>;
  date_stop: Nullable<Date>;
  delay_sent: Nullable<number>;
  direction: Nullable<string>;
  mcc: Nullable<number>;
  mnc: Nullable<number>;
  media_urls: string[];
  message: Nullable<string>;
  message_segments: Nullable<number>;
  number_billing: Nullable<string>;
  number_dst: Nullable<string>;
  number_external: Nullable<string>;
  number_src: Nullable<string>;
  price: Nullable<string>;
  provider: Nullable<string>;
  rate: Nullable<string>;
  status: Nullable<string>;
  type: Nullable<string>;
  user_data: Nullable<string>;
  version: Nullable<string>;
  numeric: { price: Nullable<number>; rate: Nullable<number> };
}

/** A record that fits its schema but breaks a rule; reported at its position, naming the field. */
export class RecordRuleError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/**
 * Whose record it is: the caller's. A record naming another partner is refused rather than
 * silently moved to the caller (an import of someone else's dump is a mistake worth reporting).
 */
export function ownerOf(given: string | undefined, caller: string): string {
  if (given !== undefined && given.toLowerCase() !== caller.toLowerCase()) {
    throw new RecordRuleError('partner_sid', 'a partner can ingest only its own records (omit partner_sid or give your own)');
  }
  return caller.toLowerCase();
}

/** `duration` when not given: stop − start in seconds, as a decimal string with up to 3 decimals. */
export function secondsBetween(start: Date, stop: Date): string {
  const ms = stop.getTime() - start.getTime();
  const whole = Math.floor(ms / 1000);
  const frac = String(ms % 1000).padStart(3, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

function instant(field: string, text: string): Date {
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw new RecordRuleError(field, `${field} is not a valid ISO 8601 date-time`);
  return d;
}

const optionalInstant = (field: string, text: string | null | undefined): Date | null => (text == null ? null : instant(field, text));
const decimal = (s: string | null | undefined): number | null => (s == null ? null : Number(s));

/** A call record to store; `now` is its `date_insert` unless the input gives one. */
export function callDocFrom(input: CallRecordInput, partnerSid: string, now: Date): CallDoc {
  const dateStart = instant('date_start', input.date_start);
  const dateStop = instant('date_stop', input.date_stop);
  if (dateStop < dateStart) throw new RecordRuleError('date_stop', 'date_stop must not precede date_start');
  const dateTalk = optionalInstant('date_talk', input.date_talk);
  if (dateTalk && (dateTalk < dateStart || dateTalk > dateStop)) throw new RecordRuleError('date_talk', 'date_talk must lie between date_start and date_stop');
  const duration = input.duration ?? secondsBetween(dateStart, dateStop);
  const durationBilling = input.duration_billing ?? null;
  return {
    dr_sid: input.dr_sid.toLowerCase(),
    partner_sid: partnerSid,
    date_insert: input.date_insert === undefined ? now : instant('date_insert', input.date_insert),
    date_start: dateStart,
    date_stop: dateStop,
    date_talk: dateTalk,
    direction: input.direction ?? null,
    duration,
    duration_billing: durationBilling,
    endpoint_sid_src: input.endpoint_sid_src?.toLowerCase() ?? null,
    endpoint_sid_dst: input.endpoint_sid_dst?.toLowerCase() ?? null,
    number_src: input.number_src ?? null,
    number_dst: input.number_dst ?? null,
    number_billing: input.number_billing ?? null,
    number_external: input.number_external ?? null,
    price: input.price ?? null,
    rate: input.rate ?? null,
    sipcause: input.sipcause ?? null,
    codec_src: input.codec_src ?? null,
    codec_dst: input.codec_dst ?? null,
    numeric: { duration: decimal(duration), duration_billing: decimal(durationBilling), price: decimal(input.price), rate: decimal(input.rate) },
  };
}

/** A message record to store; `now` is its `date_insert` unless the input gives one. */
export function messageDocFrom(input: MessageRecordInput, partnerSid: string, now: Date): MessageDoc {
  const dateStart = optionalInstant('date_start', input.date_start);
  const dateStop = optionalInstant('date_stop', input.date_stop);
  if (dateStart && dateStop && dateStop < dateStart) throw new RecordRuleError('date_stop', 'date_stop must not precede date_start');
  return {
    dr_sid: input.dr_sid.toLowerCase(),
    partner_sid: partnerSid,
    date_insert: input.date_insert === undefined ? now : instant('date_insert', input.date_insert),
    date_sent: optionalInstant('date_sent', input.date_sent),
    date_start: dateStart,
    date_stop: dateStop,
    delay_sent: input.delay_sent ?? null,
    direction: input.direction ?? null,
    mcc: input.mcc ?? null,
    mnc: input.mnc ?? null,
    media_urls: input.media_urls ?? [],
    message: input.message ?? null,
    message_segments: input.message_segments ?? null,
    number_billing: input.number_billing ?? null,
    number_dst: input.number_dst ?? null,
    number_external: input.number_external ?? null,
    number_src: input.number_src ?? null,
    price: input.price ?? null,
    provider: input.provider ?? null,
    rate: input.rate ?? null,
    status: input.status ?? null,
    type: input.type ?? null,
    user_data: input.user_data ?? null,
    version: input.version ?? null,
    numeric: { price: decimal(input.price), rate: decimal(input.rate) },
  };
}

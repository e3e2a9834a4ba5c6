import type { CallRecord, MessageRecord } from '@patchbay/contracts';
import type { CallDoc, MessageDoc } from './domain/record-docs';

/** ISO 8601 UTC with milliseconds; stores hand back Date objects. */
const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());

/** Strips the store's own keys so a stored country is exactly the API object. */
export function serializeCountry(c: Record<string, unknown>): Record<string, unknown> {
  const { _id: _ignored, ...rest } = c;
  return rest;
}

/** A stored call record as the API object: every field present (null when unknown), keys alphabetical. */
export function serializeCall(d: CallDoc): CallRecord {
  return {
    codec_dst: d.codec_dst ?? null,
    codec_src: d.codec_src ?? null,
    date_insert: iso(d.date_insert) as string,
    date_start: iso(d.date_start) as string,
    date_stop: iso(d.date_stop) as string,
    date_talk: iso(d.date_talk),
    direction: (d.direction ?? null) as CallRecord['direction'],
    dr_sid: d.dr_sid,
    duration: d.duration ?? null,
    duration_billing: d.duration_billing ?? null,
    endpoint_sid_dst: d.endpoint_sid_dst ?? null,
    endpoint_sid_src: d.endpoint_sid_src ?? null,
    number_billing: d.number_billing ?? null,
    number_dst: d.number_dst ?? null,
    number_external: d.number_external ?? null,
    number_src: d.number_src ?? null,
    partner_sid: d.partner_sid,
    price: d.price ?? null,
    rate: d.rate ?? null,
    sipcause: d.sipcause ?? null,
  };
}

/** A stored message record as the API object: every field present (null when unknown), keys alphabetical. */
export function serializeMessage(d: MessageDoc): MessageRecord {
  return {
    date_insert: iso(d.date_insert) as string,
    date_sent: iso(d.date_sent),
    date_start: iso(d.date_start),
    date_stop: iso(d.date_stop),
    delay_sent: d.delay_sent ?? null,
    direction: (d.direction ?? null) as MessageRecord['direction'],
    dr_sid: d.dr_sid,
    mcc: d.mcc ?? null,
    media_urls: d.media_urls ?? [],
    message: d.message ?? null,
    message_segments: d.message_segments ?? null,
    mnc: d.mnc ?? null,
    number_billing: d.number_billing ?? null,
    number_dst: d.number_dst ?? null,
    number_external: d.number_external ?? null,
    number_src: d.number_src ?? null,
    partner_sid: d.partner_sid,
    price: d.price ?? null,
    provider: d.provider ?? null,
    rate: d.rate ?? null,
    status: d.status ?? null,
    type: (d.type ?? null) as MessageRecord['type'],
    user_data: d.user_data ?? null,
    version: d.version ?? null,
  };
}

import { defineListSpec } from '@patchbay/query';

export const COUNTRY_LIST_SPEC = defineListSpec({
  fields: {
    capital: 'string', common_name: 'string', dialing_prefix: 'string', domain: 'string', iso_3166_alpha_2: 'string',
    iso_3166_alpha_3: 'string', iso_3166_numeric: 'integer', mcc: 'string', official_name: 'string', region: 'string', subregion: 'string',
  },
  defaultOrder: { field: 'iso_3166_alpha_3', dir: 'asc' },
  sidField: 'iso_3166_alpha_3',
});

/**
 * Decimal-string fields are filtered and sorted as numbers (`price gt 0.01`), on the numeric copy
 * each stored record keeps under `numeric` (see domain/record-docs.ts).
 */
const numericPath = (path: string): string =>
  path === 'price' || path === 'rate' || path === 'duration' || path === 'duration_billing' ? `numeric.${path}` : path;

/** `GET /calls/call_drs`: after/before ordered by `date_stop` only; `total` null. */
export const CALL_DR_LIST_SPEC = defineListSpec({
  fields: {
    codec_dst: 'string', codec_src: 'string', date_insert: 'date', date_start: 'date', date_stop: 'date', date_talk: 'date',
    direction: 'string', dr_sid: 'uuid', duration: 'number', duration_billing: 'number', endpoint_sid_dst: 'uuid', endpoint_sid_src: 'uuid',
    number_billing: 'string', number_dst: 'string', number_external: 'string', number_src: 'string', partner_sid: 'uuid',
    price: 'number', rate: 'number', sipcause: 'string',
  },
  defaultOrder: { field: 'date_stop', dir: 'asc' },
  sidField: 'dr_sid',
  cursor: { orderFields: ['date_stop'] },
  countable: false,
  storePath: numericPath,
});

/** `GET /sms/message_drs`: after/before ordered by `date_insert` only; `total` null. */
export const MESSAGE_DR_LIST_SPEC = defineListSpec({
  fields: {
    date_insert: 'date', date_sent: 'date', date_start: 'date', date_stop: 'date', delay_sent: 'integer', direction: 'string',
    dr_sid: 'uuid', mcc: 'integer', media_urls: 'string', message: 'string', message_segments: 'integer', mnc: 'integer',
    number_billing: 'string', number_dst: 'string', number_external: 'string', number_src: 'string', partner_sid: 'uuid',
    price: 'number', provider: 'string', rate: 'number', status: 'string', type: 'string', user_data: 'string', version: 'string',
  },
  defaultOrder: { field: 'date_insert', dir: 'asc' },
  sidField: 'dr_sid',
  cursor: { orderFields: ['date_insert'] },
  countable: false,
  storePath: numericPath,
});

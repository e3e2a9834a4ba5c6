import { PartnerSchema } from '@patchbay/contracts';
import { defineListSpec } from '@patchbay/query';

/** `with_related=true` adds `partner`; its fields may be selected too. */
const PARTNER_PATHS = ['partner', ...Object.keys(PartnerSchema.properties).map((k) => `partner.${k}`)];

/**
 * Applications: credentials are neither filterable nor sortable (a `like` filter would leak them
 * a character at a time); they are selectable, and always masked. `date_created` is internal:
 * the default (creation) order.
 */
export const APPLICATION_LIST_SPEC = defineListSpec({
  fields: {
    application_sid: 'uuid',
    partner_sid: 'uuid',
    name: 'string',
    apns_id: 'string',
    apns_key_id: 'string',
    apns_team_id: 'string',
    apns_topic: 'string',
    apns_p12_expiration: 'date',
    date_created: 'date',
  },
  selectable: ['google_credentials', 'apns_p12', 'apns_p12_password', 'apns_p8', ...PARTNER_PATHS],
  defaultOrder: { field: 'date_created', dir: 'asc' },
  sidField: 'application_sid',
});

export const DEVICE_LIST_SPEC = defineListSpec({
  fields: {
    device_sid: 'uuid',
    application_sid: 'uuid',
    partner_sid: 'uuid',
    token: 'string',
    type: 'string',
    environment: 'string',
    application_version: 'string',
    os_version: 'string',
    date_created: 'date',
  },
  selectable: PARTNER_PATHS,
  defaultOrder: { field: 'date_created', dir: 'asc' },
  sidField: 'device_sid',
});

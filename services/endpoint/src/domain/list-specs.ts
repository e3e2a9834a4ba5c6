import { defineListSpec } from '@patchbay/query';

const ADDRESS_FIELDS = {
  'addresses.direction': 'string',
  'addresses.dst_port': 'integer',
  'addresses.ip': 'string',
  'addresses.location_sid': 'string',
  'addresses.port': 'integer',
  'addresses.priority': 'integer',
  'addresses.srtp': 'boolean',
  'addresses.subnet_mask': 'integer',
  'addresses.transport': 'string',
  'addresses.sip_username': 'string',
} as const;
const ATTRIBUTE_FIELDS = {
  'attributes.account_sid': 'string',
  'attributes.api_url': 'string',
  'attributes.did_group_id': 'string',
  'attributes.key': 'string',
  'attributes.subscriber_sid': 'string',
  'attributes.value': 'string',
} as const;
const PROPERTY_FIELDS = {
  'properties.account_sid': 'string',
  'properties.api_url': 'string',
  'properties.callback_method': 'string',
  'properties.callback_url': 'string',
  'properties.conference_endpoint_sid': 'uuid',
  'properties.container_sid': 'uuid',
  'properties.greeting': 'string',
  'properties.login': 'string',
  'properties.max_duration': 'number',
  'properties.subscriber_sid': 'string',
} as const;
const PARTNER_PATHS = [
  'partner.attributes',
  'partner.available_scopes',
  'partner.date_created',
  'partner.login',
  'partner.name',
  'partner.partner_sid',
  'partner.status',
];

/**
 * GET /endpoints: filter on every scalar field and on nested paths (`addresses.ip eq "…"` matches
 * any address); order on the top-level scalars; default order is creation time (`date_created`, a
 * stored field that is not part of the object). Field filtering reaches every nested key and the
 * `partner` of `with_related=true`.
 */
export const ENDPOINT_LIST_SPEC = defineListSpec({
  fields: {
    endpoint_sid: 'uuid',
    partner_sid: 'uuid',
    type: 'string',
    name: 'string',
    capacity: 'integer',
    cps_limit: 'integer',
    auth_required: 'boolean',
    voip_token: 'string',
    out_sip_username: 'string',
    date_created: 'date',
    ...ADDRESS_FIELDS,
    ...ATTRIBUTE_FIELDS,
    ...PROPERTY_FIELDS,
  },
  selectable: [
    'addresses',
    'addresses.sip_password',
    'attributes',
    'properties',
    'properties.password',
    'transformations',
    'out_sip_password',
    'partner',
    ...PARTNER_PATHS,
  ],
  sortable: ['endpoint_sid', 'partner_sid', 'type', 'name', 'capacity', 'cps_limit', 'auth_required', 'date_created'],
  defaultOrder: { field: 'date_created', dir: 'asc' },
  sidField: 'endpoint_sid',
});

/** GET /media/callbacks: the operator's view of Voicemail callback deliveries, newest first by default. */
export const CALLBACK_LIST_SPEC = defineListSpec({
  fields: {
    file_sid: 'uuid',
    endpoint_sid: 'uuid',
    partner_sid: 'uuid',
    state: 'string',
    attempts: 'integer',
    date_created: 'date',
  },
  defaultOrder: { field: 'date_created', dir: 'desc' },
  sidField: 'file_sid',
});

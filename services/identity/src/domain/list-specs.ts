import { defineListSpec } from '@patchbay/query';

export const PARTNER_LIST_SPEC = defineListSpec({
  fields: { partner_sid: 'uuid', name: 'string', login: 'string', status: 'string', date_created: 'date' },
  // Returned but not filtered or sorted on: field filtering may still keep or leave them out.
  selectable: ['attributes', 'available_scopes'],
  defaultOrder: { field: 'date_created', dir: 'asc' },
  sidField: 'partner_sid',
});

export const TOKEN_LIST_SPEC = defineListSpec({
  fields: {
    token_sid: 'uuid',
    name: 'string',
    date_created: 'date',
    date_expiration_access_token: 'date',
    date_last_accessed: 'date',
    partner_sid: 'uuid',
  },
  selectable: ['access_token', 'partner', 'scopes', 'token_type'],
  defaultOrder: { field: 'date_created', dir: 'asc' },
  sidField: 'token_sid',
});

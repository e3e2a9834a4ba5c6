import { defineListSpec } from '@patchbay/query';

const keys = { integer_key_1: 'integer', integer_key_2: 'integer', string_key_1: 'string', string_key_2: 'string', string_key_3: 'string', string_key_4: 'string' } as const;

export const CONTAINER_LIST_SPEC = defineListSpec({
  fields: {
    container_sid: 'uuid', partner_sid: 'uuid', name: 'string', type: 'string', unique: 'boolean', is_default: 'boolean', allow_publish: 'boolean',
    quota_bytes: 'integer', quota_files: 'integer', total_bytes: 'integer', total_files: 'integer', threshold_action: 'string',
    threshold_bytes: 'integer', threshold_files: 'integer', threshold_total_bytes: 'integer', threshold_total_files: 'integer',
    date_created: 'date', date_modified: 'date', ...keys,
  },
  selectable: ['allowed_classifications', 'blocked_classifications', 'available_bytes_percent', 'available_files_percent', 'threshold_available_bytes_percent', 'threshold_available_files_percent', 'threshold_bytes_target', 'threshold_files_target', 'threshold_grace_period', 'default_file_lifecycle_action', 'default_file_lifecycle_ttl', 'default_file_publish', 'default_file_threshold_include', 'default_file_unique'],
  defaultOrder: { field: 'date_created', dir: 'asc' },
  sidField: 'container_sid',
});

export const FILE_LIST_SPEC = defineListSpec({
  fields: {
    file_sid: 'uuid', container_sid: 'uuid', partner_sid: 'uuid', name: 'string', mime_type: 'string', type: 'string',
    content_classification: 'string', content_format: 'string', content_duration: 'number', file_access_name: 'string', file_bytes: 'integer',
    publish: 'string', threshold_include: 'boolean', lifecycle_action: 'string', lifecycle_ttl: 'integer', unique: 'boolean',
    date_created: 'date', date_modified: 'date', date_last_accessed: 'date', parent_file_sid: 'uuid', ...keys,
  },
  selectable: ['publish_uri', 'content_transcoding_progress', 'desired_format', 'desired_bitrate'],
  defaultOrder: { field: 'date_created', dir: 'asc' },
  sidField: 'file_sid',
});

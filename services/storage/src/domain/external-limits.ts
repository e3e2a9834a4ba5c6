import { UnprocessableError, errorItem, type ErrorItem } from '@patchbay/contracts';

/**
 * The space-limit settings of a container (quota and threshold). They do not apply to external
 * containers (docs/interface-notes.md, External containers): there they read as null (decisions §41).
 */
export const LIMIT_SETTINGS = [
  'quota_bytes',
  'quota_files',
  'threshold_action',
  'threshold_bytes',
  'threshold_bytes_target',
  'threshold_files',
  'threshold_files_target',
  'threshold_grace_period',
] as const;

type LimitSetting = (typeof LIMIT_SETTINGS)[number];

/** The limit settings of a create or update body, as far as these rules read them. */
export type LimitSettingsSent = { [K in LimitSetting]?: unknown };

/** Limit settings an internal container always has a value for (null is not a quota). */
const NEVER_NULL_INTERNAL = ['quota_bytes', 'quota_files', 'threshold_action', 'threshold_grace_period'] as const;

/**
 * Checks the limit settings of a create or update body against the container's type: an external
 * container takes none of them (null, as it reads them back, is fine); an internal one takes no null
 * where a number or an action is needed. Each problem is a 422 naming its field.
 */
export function checkLimitSettings(external: boolean, body: LimitSettingsSent): void {
  const errors: ErrorItem[] = [];
  if (external) {
    for (const field of LIMIT_SETTINGS)
      if (body[field] !== undefined && body[field] !== null)
        errors.push(errorItem('quota and threshold settings do not apply to external containers', field));
  } else {
    for (const field of NEVER_NULL_INTERNAL)
      if (body[field] === null) errors.push(errorItem('null only for external containers', field));
  }
  if (errors.length > 0) throw new UnprocessableError({ errors });
}

/** A body without the limit settings sent as null (an external container's, as it was read back). */
export function withoutNullLimits<T extends LimitSettingsSent>(body: T): T {
  const out = { ...body };
  for (const field of LIMIT_SETTINGS) if (out[field] === null) delete out[field];
  return out;
}

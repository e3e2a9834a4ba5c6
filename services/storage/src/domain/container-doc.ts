import { uniqueKey } from './container-rules';
import type { ContainerDoc, ContainerSettings } from './documents';

/** A new container's document: its settings, counters at zero; `default_for` only on a partner's default. */
export function newContainerDoc(
  partnerSid: string,
  settings: ContainerSettings,
  isDefault: boolean,
  made: { container_sid: string; now: Date },
): ContainerDoc {
  return {
    ...settings,
    container_sid: made.container_sid,
    partner_sid: partnerSid,
    is_default: isDefault,
    ...(isDefault ? { default_for: partnerSid } : {}),
    ...(settings.unique ? { unique_key: uniqueKey(partnerSid, settings) } : {}),
    total_files: 0,
    total_bytes: 0,
    threshold_total_files: 0,
    threshold_total_bytes: 0,
    threshold_exceeded_at: null,
    date_created: made.now,
    date_modified: made.now,
  };
}

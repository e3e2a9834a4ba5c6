import { CREDENTIAL_MASK, type Partner, type PushApplication, type PushDevice } from '@patchbay/contracts';
import type { ApplicationDoc, DeviceDoc } from './documents';
import type { StoredSecret } from '@patchbay/platform';

const mask = (v: StoredSecret | undefined): string | null => (v === null || v === undefined ? null : CREDENTIAL_MASK);

/** An application as returned: credentials masked, derived `apns_p12_expiration` in ISO 8601. */
export function serializeApplication(a: ApplicationDoc, partner?: Partner): PushApplication {
  return {
    apns_id: a.apns_id ?? null,
    apns_key_id: a.apns_key_id ?? null,
    apns_p12: mask(a.apns_p12),
    apns_p12_expiration: a.apns_p12_expiration ? new Date(a.apns_p12_expiration).toISOString() : null,
    apns_p12_password: mask(a.apns_p12_password),
    apns_p8: mask(a.apns_p8),
    apns_team_id: a.apns_team_id ?? null,
    apns_topic: a.apns_topic ?? null,
    application_sid: a.application_sid,
    google_credentials: mask(a.google_credentials),
    name: a.name,
    ...(partner ? { partner } : {}),
    partner_sid: a.partner_sid,
  };
}

export function serializeDevice(d: DeviceDoc, partner?: Partner): PushDevice {
  return {
    application_sid: d.application_sid,
    application_version: d.application_version,
    device_sid: d.device_sid,
    environment: d.environment,
    os_version: d.os_version,
    ...(partner ? { partner } : {}),
    partner_sid: d.partner_sid,
    token: d.token,
    type: d.type,
  };
}

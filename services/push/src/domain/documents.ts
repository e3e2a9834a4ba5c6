import type { DeviceEnvironment, DeviceType } from '@patchbay/contracts';
import type { StoredSecret } from '@patchbay/platform';
import type { ApplicationFields, CredentialField } from './application-fields';

/**
 * What push keeps, collection by collection (repo.ts opens the collections and their indexes):
 * plain shapes, so the rules, serializers and senders read them without the store.
 */

/** What an application holds besides its writable fields. */
export interface ApplicationMeta {
  application_sid: string;
  partner_sid: string;
  /** Not returned; gives lists a creation order. */
  date_created: Date;
  apns_p12_expiration: Date | null;
  /** Digest of what provider clients are built from. */
  credentials_revision: string;
  /** Bumped whenever `credentials_revision` changes: open clients of a lower version are stale. */
  credentials_version: number;
}

/**
 * An application as stored: its fields plus derived ones. Credentials are never returned, and
 * are stored sealed (secrets/application-secrets.ts); a plain string is a value written before
 * that, read as is and sealed on the next write or by the start-up migration.
 */
export interface ApplicationDoc
  extends Omit<ApplicationFields, CredentialField>, ApplicationMeta, Record<string, unknown> {
  google_credentials: StoredSecret;
  apns_p12: StoredSecret;
  apns_p12_password: StoredSecret;
  apns_p8: StoredSecret;
}

/** An application with its credentials opened: what provider clients are built from. Never stored. */
export type OpenedApplication = ApplicationFields & ApplicationMeta;

export interface DeviceDoc extends Record<string, unknown> {
  device_sid: string;
  partner_sid: string;
  application_sid: string;
  token: string;
  type: DeviceType;
  environment: DeviceEnvironment;
  application_version: string;
  os_version: string;
  /** Not returned; gives lists a creation order. */
  date_created: Date;
}

/**
 * Which device a registration (partner, type, environment, token) reuses: one document per
 * registration, unique, so concurrent `reuse` creates agree on one device (device-registration.ts).
 */
export interface DeviceKeyDoc extends Record<string, unknown> {
  key: string;
  device_sid: string;
  application_sid: string;
}

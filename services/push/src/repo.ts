import type { Collection, DocStore } from '@patchbay/platform';
import type { DeviceEnvironment, DeviceType } from '@patchbay/contracts';
import type { ApplicationFields } from './domain/application-fields';

/** An application as stored: its fields (credentials included, never returned) plus derived ones. */
export interface ApplicationDoc extends ApplicationFields, Record<string, unknown> {
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

export interface PushRepo {
  applications: Collection<ApplicationDoc>;
  devices: Collection<DeviceDoc>;
}

/** The push service's collections and their indexes (created idempotently at start). */
export async function openPushRepo(docs: DocStore): Promise<PushRepo> {
  const applications = docs.collection<ApplicationDoc>('push_applications');
  const devices = docs.collection<DeviceDoc>('push_devices');
  await applications.createIndex({ application_sid: 1 }, { unique: true });
  await applications.createIndex({ partner_sid: 1, date_created: 1 });
  await devices.createIndex({ device_sid: 1 }, { unique: true });
  await devices.createIndex({ partner_sid: 1, token: 1 });
  await devices.createIndex({ application_sid: 1 });
  await devices.createIndex({ partner_sid: 1, date_created: 1 });
  return { applications, devices };
}

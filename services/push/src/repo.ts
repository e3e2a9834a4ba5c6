import type { Collection, DocStore } from '@patchbay/platform';
import type { ApplicationDoc, DeviceDoc, DeviceKeyDoc } from './domain/documents';

export interface PushRepo {
  applications: Collection<ApplicationDoc>;
  devices: Collection<DeviceDoc>;
  deviceKeys: Collection<DeviceKeyDoc>;
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
  const deviceKeys = docs.collection<DeviceKeyDoc>('push_device_keys');
  await deviceKeys.createIndex({ key: 1 }, { unique: true });
  await deviceKeys.createIndex({ device_sid: 1 });
  await deviceKeys.createIndex({ application_sid: 1 });
  return { applications, devices, deviceKeys };
}

import type { DeviceEnvironment, DeviceType, PushResult } from '@patchbay/contracts';
import { platformsOf, type ApplicationFields } from './application-fields';

/** Which provider client a device goes through: FCM for Android and web, APNs per environment for iOS. */
export type Route = 'fcm' | 'apns:production' | 'apns:development';

export function routeOf(type: DeviceType, environment: DeviceEnvironment): Route {
  return type === 'ios' ? `apns:${environment}` : 'fcm';
}

interface PlannedDevice {
  device_sid: string;
  application_sid: string;
  token: string;
  type: DeviceType;
  environment: DeviceEnvironment;
}

/** Devices of one application that go through one provider client. */
export interface SendGroup<D extends PlannedDevice> {
  application_sid: string;
  route: Route;
  devices: D[];
}

/**
 * Sorts the recipients of a send: unknown ones (or another partner's: `devices` holds only the
 * caller's) are `not_found`; devices whose application lacks credentials for their platform are
 * `no_credentials`; the rest are grouped by application and route. Duplicate recipients count once.
 */
export function planSend<D extends PlannedDevice>(
  recipients: string[],
  devices: D[],
  applications: Map<string, ApplicationFields>,
): { groups: SendGroup<D>[]; settled: Map<string, PushResult> } {
  const settled = new Map<string, PushResult>();
  const bySid = new Map(devices.map((d) => [d.device_sid, d]));
  const groups = new Map<string, SendGroup<D>>();
  for (const sid of new Set(recipients)) {
    const device = bySid.get(sid);
    const app = device ? applications.get(device.application_sid) : undefined;
    if (!device || !app) {
      settled.set(sid, 'not_found');
      continue;
    }
    const route = routeOf(device.type, device.environment);
    const platforms = platformsOf(app);
    if (route === 'fcm' ? !platforms.fcm : !platforms.apns) {
      settled.set(sid, 'no_credentials');
      continue;
    }
    const key = `${device.application_sid} ${route}`;
    const group = groups.get(key) ?? { application_sid: device.application_sid, route, devices: [] };
    group.devices.push(device);
    groups.set(key, group);
  }
  return { groups: [...groups.values()], settled };
}

/** The response body: counts and a result for every distinct recipient. */
export function summarize(results: Map<string, PushResult>): {
  failure: number;
  results: Record<string, PushResult>;
  success: number;
} {
  let success = 0;
  for (const r of results.values()) if (r === 'success') success++;
  return { failure: results.size - success, results: Object.fromEntries(results), success };
}

import type { DeviceEnvironment, DeviceType, PushResult } from '@patchbay/contracts';
import type { PushMessage } from '../domain/push-message';

/** A provider address (`FCM_ENDPOINT`, `APNS_ENDPOINT`). */
export interface HostPort {
  host: string;
  port: number;
}

/** One device to deliver to: its SID names the result, its token the provider's recipient. */
export interface DeviceTarget {
  device_sid: string;
  token: string;
  type: DeviceType;
  environment: DeviceEnvironment;
}

/**
 * One push platform behind one interface (parse-server-push-adapter's shape). Building a sender
 * with bad configuration throws; a failed delivery is a result, never a rejection: `send`
 * resolves with a result for every device it was given, retrying transient failures with backoff
 * until `deadline` (epoch ms) would pass.
 */
export interface PushSender {
  send(message: PushMessage, devices: DeviceTarget[], deadline: number): Promise<Map<string, PushResult>>;
  /** Lets sends in flight finish, then closes the provider client. */
  close(): Promise<void>;
}

/** Thrown while building a sender from stored credentials that do not work (bad configuration). */
export class SenderConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SenderConfigError';
  }
}

import { strip, type PushMessage } from './push-message';

/** FCM routes Android and browser devices; each gets its platform block. */
export type FcmPlatform = 'android' | 'web';

/** The `message` of an FCM HTTP v1 `messages:send` request, without its `token`, as JSON goes on the wire. */
export interface FcmV1Message {
  notification?: { title?: string; body?: string };
  data?: Record<string, string>;
  android?: {
    priority?: 'normal' | 'high';
    /** Seconds, as the API's Duration string: `"3600s"`. */
    ttl?: string;
    collapse_key?: string;
    notification?: { click_action?: string; icon?: string; sound?: string; tag?: string };
  };
  webpush?: { headers: Record<string, string> };
}

/** FCM `data` values must be strings: strings pass as they are, anything else as JSON. */
export function fcmData(data: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!data) return undefined;
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/** Web Push `Topic` (the collapse key of browsers) allows at most 32 URL-safe Base64 characters. */
const WEBPUSH_TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The FCM HTTP v1 message (without its token) for one platform, in the API's own field names
 * (what firebase-admin sent for the same message): `ttl` as `"<n>s"`; web devices get the Web Push
 * headers `TTL`, `Urgency` and `Topic`. With nothing set, the message is empty — FCM still accepts it.
 */
export function fcmMessage(m: PushMessage, platform: FcmPlatform): FcmV1Message {
  const notification =
    m.title !== undefined || m.body !== undefined ? strip({ title: m.title, body: m.body }) : undefined;
  const base: FcmV1Message = strip({ notification, data: fcmData(m.data) });
  if (platform === 'android') {
    const androidNotification = strip({
      click_action: m.android.clickAction,
      icon: m.android.icon,
      sound: m.android.sound,
      tag: m.android.tag,
    });
    const android = strip({
      priority: m.priority,
      ttl: m.ttl !== undefined ? `${m.ttl}s` : undefined,
      collapse_key: m.collapseKey,
      notification: Object.keys(androidNotification).length > 0 ? androidNotification : undefined,
    });
    return Object.keys(android).length > 0 ? { ...base, android } : base;
  }
  const headers: Record<string, string> = {};
  if (m.ttl !== undefined) headers.TTL = String(m.ttl);
  if (m.priority !== undefined) headers.Urgency = m.priority;
  if (m.collapseKey !== undefined && WEBPUSH_TOPIC.test(m.collapseKey)) headers.Topic = m.collapseKey;
  return Object.keys(headers).length > 0 ? { ...base, webpush: { headers } } : base;
}

/**
 * The request body for any token, as the two strings around it: `prefix + JSON.stringify(token) +
 * suffix` is `{"message":{"token":…,…}}`. The message is serialized once per send, not per device.
 */
export interface FcmBody {
  prefix: string;
  suffix: string;
}

export function fcmBody(message: FcmV1Message): FcmBody {
  const rest = JSON.stringify(message);
  return { prefix: '{"message":{"token":', suffix: rest === '{}' ? '}}' : `,${rest.slice(1)}}` };
}

import type { AndroidConfig, MulticastMessage, WebpushConfig } from 'firebase-admin/messaging';
import { strip, type PushMessage } from './push-message';

/** FCM routes Android and browser devices; each gets its platform block. */
export type FcmPlatform = 'android' | 'web';

/** FCM `data` values must be strings: strings pass as they are, anything else as JSON. */
export function fcmData(data: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!data) return undefined;
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/** Web Push `Topic` (the collapse key of browsers) allows at most 32 URL-safe Base64 characters. */
const WEBPUSH_TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The FCM HTTP v1 message (without its tokens) for one platform. `ttl` is given to firebase-admin
 * in milliseconds (it sends `"<n>s"`); web devices get the Web Push headers `TTL`, `Urgency`
 * and `Topic`. With nothing set, the message is empty — FCM still accepts it.
 */
export function fcmMessage(m: PushMessage, platform: FcmPlatform): Omit<MulticastMessage, 'tokens'> {
  const notification =
    m.title !== undefined || m.body !== undefined ? strip({ title: m.title, body: m.body }) : undefined;
  const base = strip({ notification, data: fcmData(m.data) });
  if (platform === 'android') {
    const androidNotification = strip({
      clickAction: m.android.clickAction,
      icon: m.android.icon,
      sound: m.android.sound,
      tag: m.android.tag,
    });
    const android: AndroidConfig = strip({
      priority: m.priority,
      ttl: m.ttl !== undefined ? m.ttl * 1000 : undefined,
      collapseKey: m.collapseKey,
      notification: Object.keys(androidNotification).length > 0 ? androidNotification : undefined,
    });
    return Object.keys(android).length > 0 ? { ...base, android } : base;
  }
  const headers = strip({
    TTL: m.ttl !== undefined ? String(m.ttl) : undefined,
    Urgency: m.priority,
    Topic: m.collapseKey !== undefined && WEBPUSH_TOPIC.test(m.collapseKey) ? m.collapseKey : undefined,
  }) as Record<string, string>;
  const webpush: WebpushConfig = Object.keys(headers).length > 0 ? { headers } : {};
  return Object.keys(webpush).length > 0 ? { ...base, webpush } : base;
}

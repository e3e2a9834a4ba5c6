import { strip, type PushMessage } from './push-message';

/** Everything one APNs request carries, apart from the device token. */
export interface ApnsRequest {
  /** The whole JSON body: `aps` plus the custom data keys. */
  payload: Record<string, unknown>;
  pushType: 'alert' | 'background';
  /** 10 = immediately, 5 = power-considerate (required for background pushes). */
  priority: 5 | 10;
  /** `apns-expiration` (epoch seconds; 0 = deliver now or never); absent = APNs default. */
  expiry?: number;
  collapseId?: string;
  topic?: string;
}

/**
 * Maps a message to an APNs request. A push with an alert, badge or sound is an `alert` push,
 * anything else (content-available only, or empty) a `background` one, which Apple requires to
 * go at priority 5. `collapse_key` stands in for `ios_collapse_id` when it fits APNs' 64 bytes.
 * With nothing set the body is `{"aps":{}}`, an empty push.
 */
export function apnsRequest(m: PushMessage, topic: string | undefined, now = Date.now()): ApnsRequest {
  const alert = m.title !== undefined || m.body !== undefined ? strip({ title: m.title, body: m.body }) : undefined;
  const aps = strip({
    alert,
    badge: m.ios.badge,
    sound: m.ios.sound,
    category: m.ios.category,
    'content-available': m.ios.contentAvailable ? 1 : undefined,
    'mutable-content': m.ios.mutableContent ? 1 : undefined,
  });
  const pushType = alert !== undefined || aps.badge !== undefined || aps.sound !== undefined ? 'alert' : 'background';
  const priority = pushType === 'background' || m.priority === 'normal' ? 5 : 10;
  return strip<ApnsRequest>({
    payload: { ...(m.data ?? {}), aps },
    pushType,
    priority,
    expiry: m.ttl === undefined ? undefined : m.ttl === 0 ? 0 : Math.floor(now / 1000) + m.ttl,
    collapseId:
      m.ios.collapseId ??
      (m.collapseKey !== undefined && Buffer.byteLength(m.collapseKey) <= 64 ? m.collapseKey : undefined),
    topic,
  });
}

import { BadRequestError, type PushNotification } from '@patchbay/contracts';

/**
 * A notification as the senders see it: the request's fields without the recipients, `null`s
 * turned into absent values. Each sender maps it to its platform's format.
 */
export interface PushMessage {
  title?: string;
  body?: string;
  /** Custom key/values: FCM `data` (values as strings), APNs top-level payload keys. */
  data?: Record<string, unknown>;
  priority?: 'normal' | 'high';
  /** Seconds the provider may keep the message for an offline device. */
  ttl?: number;
  collapseKey?: string;
  android: { clickAction?: string; icon?: string; sound?: string; tag?: string };
  ios: {
    badge?: number;
    category?: string;
    collapseId?: string;
    contentAvailable?: boolean;
    mutableContent?: boolean;
    sound?: string;
  };
}

/**
 * Data keys FCM refuses (`from`, `message_type`, anything starting with `google` or `gcm`) and the
 * one APNs reserves (`aps`). Refused here, with a 400 naming the key, because the provider would
 * refuse every recipient and that is the caller's mistake, not a delivery failure.
 */
const RESERVED_DATA_KEY = /^(from|message_type|aps|google.*|gcm.*)$/i;

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** The message of a validated send request (400 for reserved data keys). */
export function toPushMessage(n: PushNotification): PushMessage {
  const data = n.data ?? undefined;
  if (data) {
    const bad = Object.keys(data).filter((k) => RESERVED_DATA_KEY.test(k) || k === '');
    if (bad.length > 0)
      throw new BadRequestError({
        message: 'validation error',
        errors: bad.map(
          (k) => BadRequestError.field(`data.${k}`, 'reserved key (from, message_type, aps, google*, gcm*)').errors[0],
        ),
      });
  }
  return strip({
    title: opt(n.title),
    body: opt(n.body),
    data: data && Object.keys(data).length > 0 ? data : undefined,
    priority: opt(n.priority),
    ttl: opt(n.ttl),
    collapseKey: opt(n.collapse_key),
    android: strip({
      clickAction: opt(n.android_click_action),
      icon: opt(n.android_icon),
      sound: opt(n.android_sound),
      tag: opt(n.android_tag),
    }),
    ios: strip({
      badge: opt(n.ios_badge),
      category: opt(n.ios_category),
      collapseId: opt(n.ios_collapse_id),
      contentAvailable: opt(n.ios_content_available),
      mutableContent: opt(n.ios_mutable_content),
      sound: opt(n.ios_sound),
    }),
  });
}

/** Drops undefined keys, so provider payloads carry only what was asked for. */
export function strip<T extends object>(o: T): T {
  const out = { ...o };
  for (const [k, v] of Object.entries(o)) if (v === undefined) Reflect.deleteProperty(out, k);
  return out;
}

import { Type, type Static } from '@sinclair/typebox';
import {
  DEFAULT_LARGE_LISTS,
  LargeListConfig,
  largeListLimits,
  type CredentialKeySettings,
  type LargeListLimits,
} from '@patchbay/platform';
import { endpointCredentialKeys } from './secrets/key-settings';

/**
 * The endpoint service's own environment keys (composed with CommonConfig by its main and by the
 * all-in-one process). `HOSTED_API_URL` is the root of the hosted applications' APIs: a hosted
 * endpoint's `properties.api_url` is `<HOSTED_API_URL>/<application>/v1` (e.g. `…/conference/v1`).
 */
export const EndpointConfig = {
  HOSTED_API_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'https://api.patchbay.local' }),
  /** Let Voicemail callbacks reach loopback, private and link-local addresses (tests, closed networks). */
  CALLBACK_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  /** Longest one callback request may take (ms). */
  CALLBACK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60000, default: 10000 }),
  /** Delay after the first failed attempt (ms); doubles per attempt, at most 10 minutes. */
  CALLBACK_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 600000, default: 5000 }),
  /** How long a callback keeps being retried before it is given up (ms). */
  CALLBACK_RETRY_FOR_MS: Type.Integer({ minimum: 1000, maximum: 86400000, default: 3600000 }),
  /**
   * Base64 of the 32-byte key endpoint secrets (SIP passwords, hosted applications' passwords) are
   * encrypted with at rest (AES-256-GCM). Required with MONGODB_URL; unset with the embedded store: a
   * key generated once in `<DATA_DIR>/endpoint/credentials.key`. Never echoed.
   */
  ENDPOINT_CREDENTIALS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Former keys (comma-separated), still opened during a rotation, never sealed with. */
  ENDPOINT_CREDENTIALS_OLD_KEYS: Type.Optional(Type.String({ minLength: 1 })),
  /** Large lists of endpoints in progress at once, per partner and in total. */
  ...LargeListConfig,
};

export const endpointSchema = Type.Object({
  ...EndpointConfig,
  BUS_TIMEOUT_MS: Type.Integer(),
  MONGODB_URL: Type.Optional(Type.String()),
  DATA_DIR: Type.String(),
});
export type EndpointConfigValues = Static<typeof endpointSchema>;

export interface CallbackSettings {
  allowPrivate: boolean;
  timeoutMs: number;
  retryBaseMs: number;
  retryForMs: number;
}

/** What the service is built with; only main.ts and the all-in-one read the environment. */
export interface EndpointSettings {
  /** Root of the hosted applications' APIs, without a trailing slash. */
  hostedApiUrl: string;
  /** Milliseconds a request to another service (storage, identity) waits for its answer. */
  busTimeoutMs: number;
  callbacks: CallbackSettings;
  /** Where the secrets keys come from (ENDPOINT_CREDENTIALS_KEY). Unset (tests): a key made for this process only. */
  credentialKeys?: CredentialKeySettings;
  /** LIST_LARGE_*: how many large lists of endpoints are built and sent at once (unset, tests: the defaults). */
  largeLists?: LargeListLimits;
}

/** The one mapping from configuration to settings, used by main.ts and the all-in-one process alike. */
export function endpointSettings(c: EndpointConfigValues): EndpointSettings {
  return {
    hostedApiUrl: c.HOSTED_API_URL.replace(/\/+$/, ''),
    busTimeoutMs: c.BUS_TIMEOUT_MS,
    callbacks: {
      allowPrivate: c.CALLBACK_ALLOW_PRIVATE,
      timeoutMs: c.CALLBACK_TIMEOUT_MS,
      retryBaseMs: c.CALLBACK_RETRY_BASE_MS,
      retryForMs: c.CALLBACK_RETRY_FOR_MS,
    },
    credentialKeys: endpointCredentialKeys(c),
    largeLists: largeListLimits(c),
  };
}

/** The defaults, with a secrets key made for the process (tests): no key file. */
export const DEFAULT_ENDPOINT_SETTINGS: Readonly<EndpointSettings> = Object.freeze({
  ...endpointSettings({
    HOSTED_API_URL: 'https://api.patchbay.local',
    CALLBACK_ALLOW_PRIVATE: false,
    CALLBACK_TIMEOUT_MS: 10000,
    CALLBACK_RETRY_BASE_MS: 5000,
    CALLBACK_RETRY_FOR_MS: 3600000,
    BUS_TIMEOUT_MS: 10000,
    DATA_DIR: './data',
    LIST_LARGE_LIMIT: DEFAULT_LARGE_LISTS.largeOver,
    LIST_LARGE_PER_PARTNER: DEFAULT_LARGE_LISTS.perPartner,
    LIST_LARGE_TOTAL: DEFAULT_LARGE_LISTS.total,
  }),
  credentialKeys: undefined,
});

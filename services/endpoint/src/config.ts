import { Type, type Static } from '@sinclair/typebox';
import { loadConfig } from '@patchbay/platform';

/**
 * The endpoint service's own environment keys (composed with CommonConfig by bootService).
 * `HOSTED_API_URL` is the root of the hosted applications' APIs: a hosted endpoint's
 * `properties.api_url` is `<HOSTED_API_URL>/<application>/v1` (e.g. `…/conference/v1`).
 */
export const EndpointConfig = {
  HOSTED_API_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'https://api.patchbay.local' }),
};

/** What the service is built with; only main.ts and the all-in-one read the environment. */
export interface EndpointSettings {
  /** Root of the hosted applications' APIs, without a trailing slash. */
  hostedApiUrl: string;
  /** Milliseconds a request to another service (storage, identity) waits for its answer. */
  busTimeoutMs: number;
}

export const DEFAULT_ENDPOINT_SETTINGS: Readonly<EndpointSettings> = Object.freeze({ hostedApiUrl: 'https://api.patchbay.local', busTimeoutMs: 10_000 });

const EnvSchema = Type.Object({
  ...EndpointConfig,
  BUS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600000, default: DEFAULT_ENDPOINT_SETTINGS.busTimeoutMs }),
});

/** Settings from checked config values (the trailing slash of the URL is dropped). */
export function endpointSettings(config: { HOSTED_API_URL: string; BUS_TIMEOUT_MS: number }): EndpointSettings {
  return { hostedApiUrl: config.HOSTED_API_URL.replace(/\/+$/, ''), busTimeoutMs: config.BUS_TIMEOUT_MS };
}

/**
 * For the all-in-one process, which starts services without bootService: the same keys, read and
 * checked once from `env`; unset keys take the defaults above. Throws ConfigError on bad values.
 */
export function endpointSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): EndpointSettings {
  return endpointSettings(loadConfig(EnvSchema, env) as Static<typeof EnvSchema>);
}

import { Type } from '@sinclair/typebox';

/** The gateway's own environment keys (with CommonConfig). */
export const GatewayConfig = {
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  /** Public root of the core API, used in pagination links; default http://127.0.0.1:<PORT>/core/v2. */
  BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Largest JSON body accepted (bytes); larger → 413. */
  JSON_BODY_LIMIT: Type.Integer({ minimum: 1024, default: 1048576 }),
  /** How long an authenticated credential is trusted without asking identity again (ms). */
  AUTH_CACHE_MS: Type.Integer({ minimum: 0, maximum: 300000, default: 5000 }),
};

export interface GatewaySettings {
  baseUrl: string;
  jsonBodyLimit: number;
  authCacheMs: number;
  busTimeoutMs: number;
}

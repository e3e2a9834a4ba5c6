import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import {
  CommonConfig,
  HttpServerConfig,
  PublicFilesConfig,
  httpTimeouts,
  publicFilesUrl,
  type HttpTimeouts,
} from '@patchbay/platform';

/** The gateway's own environment keys (with CommonConfig). */
export const GatewayConfig = {
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  /** Public root of the core API, used in pagination links; default http://127.0.0.1:<PORT>/core/v2. */
  BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Largest JSON body accepted (bytes); larger → 413. */
  JSON_BODY_LIMIT: Type.Integer({ minimum: 1024, default: 1048576 }),
  /** How long an authenticated credential is trusted without asking identity again (ms). */
  AUTH_CACHE_MS: Type.Integer({ minimum: 0, maximum: 300000, default: 5000 }),
  /**
   * Which peers may tell the client's address in X-Forwarded-For (express's "trust proxy"): a
   * comma-separated list of addresses, subnets or `loopback`, `linklocal`, `uniquelocal`; a number
   * of hops; `true` or `false`. The address is what failed logins are counted by.
   */
  TRUST_PROXY: Type.String({ minLength: 1, default: 'loopback' }),
  /** The public file server, named in the OpenAPI document and allowed as a media source of the console. */
  ...PublicFilesConfig,
  /**
   * The built partner console served at /console; default packages/console/dist of this checkout (the image sets its
   * own).
   */
  CONSOLE_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /** Slow clients: head, keep-alive and body timeouts (docs/security.md "Timeouts and limits"). */
  ...HttpServerConfig,
};

export interface GatewaySettings {
  baseUrl: string;
  /** The address the API listens on (HOST; default 127.0.0.1). */
  host?: string;
  /** The public file server's root (`publish_uri`s start with it), for the OpenAPI document. */
  storageUrl: string;
  jsonBodyLimit: number;
  authCacheMs: number;
  busTimeoutMs: number;
  /** express's "trust proxy" value (see TRUST_PROXY). */
  trustProxy?: boolean | number | string[];
  /** Where the built console is (CONSOLE_DIR); none: /console is not served. */
  consoleDir?: string;
  /** Slow clients (HTTP_*_TIMEOUT_MS, HTTP_BODY_MIN_BYTES); default DEFAULT_HTTP_TIMEOUTS. */
  http?: HttpTimeouts;
}

/** The console's build in this checkout (services/gateway/src → packages/console/dist). */
const CHECKOUT_CONSOLE = path.resolve(__dirname, '../../../packages/console/dist');

/** TRUST_PROXY as express takes it: a boolean, a hop count, or a list of addresses and names. */
export function parseTrustProxy(value: string): boolean | number | string[] {
  const v = value.trim();
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const gatewaySchema = Type.Object({ ...GatewayConfig, BUS_TIMEOUT_MS: Type.Integer(), HOST: CommonConfig.HOST });
export type GatewayConfigValues = Static<typeof gatewaySchema>;

/** The one mapping from configuration to settings, used by main.ts and the all-in-one process alike. */
export function gatewaySettings(c: GatewayConfigValues): GatewaySettings {
  return {
    baseUrl: c.BASE_URL ?? `http://127.0.0.1:${c.PORT}/core/v2`,
    storageUrl: publicFilesUrl(c),
    jsonBodyLimit: c.JSON_BODY_LIMIT,
    authCacheMs: c.AUTH_CACHE_MS,
    busTimeoutMs: c.BUS_TIMEOUT_MS,
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
    consoleDir: c.CONSOLE_DIR ?? CHECKOUT_CONSOLE,
    http: httpTimeouts(c),
    host: c.HOST,
  };
}

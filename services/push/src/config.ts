import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import {
  CommonConfig,
  ConfigError,
  LargeListConfig,
  largeListLimits,
  loadConfig,
  type LargeListLimits,
} from '@patchbay/platform';
import type { HostPort } from './senders/sender';
import type { FcmTestEndpoint } from './senders/fcm-endpoint';
import { credentialKeySettings, type CredentialKeySettings } from './secrets/key-settings';

const HostPortPattern = Type.String({ pattern: '^[A-Za-z0-9.-]+:[0-9]{1,5}$' });

/**
 * The push service's environment keys (composed with CommonConfig). The provider endpoints exist
 * so tests and benchmarks can aim the real senders at local servers; unset means Google's and
 * Apple's hosts.
 */
export const PushConfig = {
  /**
   * Tests and benchmarks only: `host:port` on this machine (loopback) of a TLS server standing in
   * for `fcm.googleapis.com` (FCM HTTP v1 over HTTP/2) and `oauth2.googleapis.com` (the token
   * exchange). Requires FCM_CA; its certificate must be valid for those names under that CA.
   */
  FCM_ENDPOINT: Type.Optional(HostPortPattern),
  /** Path of a PEM file with the CA of FCM_ENDPOINT's certificate (only with FCM_ENDPOINT). */
  FCM_CA: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Worker threads FCM sends run on (HTTP/2 and TLS work), so one replica uses every core; 0 sends
   * on the service's own thread. Default: one per core.
   */
  PUSH_SEND_WORKERS: Type.Optional(Type.Integer({ minimum: 0, maximum: 64 })),
  /** `host:port` of an HTTP/2 TLS server speaking APNs, used for `production` devices. */
  APNS_ENDPOINT: Type.Optional(HostPortPattern),
  /** `host:port` used for `development` devices; defaults to APNS_ENDPOINT when that is set. */
  APNS_SANDBOX_ENDPOINT: Type.Optional(HostPortPattern),
  /** Path of a PEM file with the CA that signed the APNs endpoint's certificate. */
  APNS_CA: Type.Optional(Type.String({ minLength: 1 })),
  /** Accept any certificate from the APNs endpoint (local fakes only). */
  APNS_INSECURE: Type.Boolean({ default: false }),
  /**
   * Longest a send request takes (ms); recipients without an answer by then are `provider_error`.
   * Default: BUS_TIMEOUT_MS − 2000, so the caller gets results before the gateway gives up.
   */
  PUSH_SEND_DEADLINE_MS: Type.Optional(Type.Integer({ minimum: 200, maximum: 600000 })),
  /** Longest one provider request may take (ms) before it counts as failed. */
  PUSH_ATTEMPT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120000, default: 5000 }),
  /** Retries of a transient failure (provider 5xx/429, connection errors), with exponential backoff. */
  PUSH_MAX_RETRIES: Type.Integer({ minimum: 0, maximum: 10, default: 3 }),
  /** First backoff delay (ms); doubles per retry, with jitter. */
  PUSH_RETRY_BASE_MS: Type.Integer({ minimum: 1, maximum: 60000, default: 200 }),
  /** Provider clients unused this long (ms) are closed. */
  PUSH_CLIENT_IDLE_MS: Type.Integer({ minimum: 1000, maximum: 86400000, default: 600000 }),
  /**
   * Base64 of the 32-byte key push credentials are encrypted with at rest (AES-256-GCM). Required
   * with MONGODB_URL; unset with the embedded store, a key is generated once into
   * `<DATA_DIR>/push/credentials.key`. Checked in pushSettings, which never echoes it.
   */
  PUSH_CREDENTIALS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Comma-separated Base64 keys still accepted for decryption while rotating (docs/operations.md). */
  PUSH_CREDENTIALS_OLD_KEYS: Type.Optional(Type.String({ minLength: 1 })),
  /** Large lists of devices in progress at once, per partner and in total. */
  ...LargeListConfig,
};

export const pushSchema = Type.Object({ ...CommonConfig, ...PushConfig });
export type PushConfigValues = Static<typeof pushSchema>;

/** Typed options the push service and its senders run with (adapters never read the environment). */
export interface PushSettings {
  /** A local stand-in for Google's FCM and token hosts (tests and benchmarks). */
  fcmEndpoint?: FcmTestEndpoint;
  /** Worker threads for FCM sends (0: the service's own thread). */
  sendWorkers: number;
  apns: { production?: HostPort; development?: HostPort; ca?: string; insecure: boolean };
  sendDeadlineMs: number;
  attemptTimeoutMs: number;
  retry: { maxRetries: number; baseMs: number };
  clientIdleMs: number;
  busTimeoutMs: number;
  /** The keys credentials are sealed with at rest. */
  credentialKeys: CredentialKeySettings;
  /** LIST_LARGE_*: how many large lists of devices are built and sent at once (unset, tests: the defaults). */
  largeLists?: LargeListLimits;
}

function hostPort(value: string | undefined): HostPort | undefined {
  if (!value) return undefined;
  const i = value.lastIndexOf(':');
  return { host: value.slice(0, i), port: Number(value.slice(i + 1)) };
}

/** Loopback addresses: where a test endpoint may be (never a host production could reach by accident). */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

/**
 * Turns checked config values into settings; reads the APNS_CA and FCM_CA files once. APNS_INSECURE
 * without an APNS_ENDPOINT would stop checking Apple's own certificate: refused. FCM_ENDPOINT must be
 * a loopback address and comes with FCM_CA (TLS is checked against it, never switched off). Credentials keys must be
 * Base64 of 32 bytes, and PUSH_CREDENTIALS_KEY is required with MONGODB_URL. Throws ConfigError
 * listing every problem.
 */
export function pushSettings(config: Readonly<PushConfigValues>): PushSettings {
  const problems: string[] = [];
  if (config.APNS_INSECURE && !config.APNS_ENDPOINT)
    problems.push('APNS_INSECURE: only allowed together with APNS_ENDPOINT (a local APNs server)');
  if (config.APNS_CA && !fs.existsSync(config.APNS_CA))
    problems.push(`APNS_CA: no such file (got "${config.APNS_CA}")`);
  const fcmHost = hostPort(config.FCM_ENDPOINT);
  if (fcmHost && !isLoopback(fcmHost.host))
    problems.push(`FCM_ENDPOINT: tests and benchmarks only, must be a loopback address (got "${config.FCM_ENDPOINT}")`);
  if (fcmHost && !config.FCM_CA) problems.push("FCM_CA: required with FCM_ENDPOINT (the local server's CA)");
  if (config.FCM_CA && !fcmHost) problems.push('FCM_CA: only allowed together with FCM_ENDPOINT');
  if (config.FCM_CA && !fs.existsSync(config.FCM_CA)) problems.push(`FCM_CA: no such file (got "${config.FCM_CA}")`);
  const keys = credentialKeySettings(config);
  problems.push(...keys.problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const production = hostPort(config.APNS_ENDPOINT);
  return {
    fcmEndpoint: fcmHost && config.FCM_CA ? { ...fcmHost, ca: fs.readFileSync(config.FCM_CA, 'utf8') } : undefined,
    sendWorkers: config.PUSH_SEND_WORKERS ?? os.availableParallelism(),
    apns: {
      production,
      development: hostPort(config.APNS_SANDBOX_ENDPOINT) ?? production,
      ca: config.APNS_CA ? fs.readFileSync(config.APNS_CA, 'utf8') : undefined,
      insecure: config.APNS_INSECURE,
    },
    sendDeadlineMs: config.PUSH_SEND_DEADLINE_MS ?? Math.max(200, config.BUS_TIMEOUT_MS - 2000),
    attemptTimeoutMs: config.PUSH_ATTEMPT_TIMEOUT_MS,
    retry: { maxRetries: config.PUSH_MAX_RETRIES, baseMs: config.PUSH_RETRY_BASE_MS },
    clientIdleMs: config.PUSH_CLIENT_IDLE_MS,
    busTimeoutMs: config.BUS_TIMEOUT_MS,
    credentialKeys: keys.settings,
    largeLists: largeListLimits(config),
  };
}

/** Loads and checks the push keys from `env` (tests and tools; main.ts and the all-in-one process use pushSettings). */
export function loadPushSettings(env: NodeJS.ProcessEnv): PushSettings {
  return pushSettings(loadConfig(pushSchema, env));
}

import { createPatchbayClient, type PatchbayClient, type Schemas } from '@patchbay/client';

/** Where and as whom the CLI talks to a running Patchbay (its public HTTP API, either run mode). */
export interface ClientOptions {
  url: string;
  token?: string;
  login?: string;
  password?: string;
}

/**
 * The typed API client (@patchbay/client) for these options: the token if given, else HTTP Basic
 * with the login, else no credentials. Every command goes through it.
 */
export function apiClient(opts: ClientOptions): PatchbayClient {
  const credentials = opts.token
    ? { token: opts.token }
    : opts.login && opts.password
      ? { login: opts.login, password: opts.password }
      : {};
  return createPatchbayClient({ baseUrl: opts.url.replace(/\/$/, ''), credentials });
}

/** A query for the API from command options: undefined values left out, numeric ones as numbers. */
export function numberOption(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** A scope name as the API spells them (`storage.read`, …). */
export type Scope = Schemas['Token']['scopes'][number];

/** Scope names from an option (`a,b` or `a b`), as given. */
export function scopeNames(value: string): Scope[] {
  const names = value
    .split(/[ ,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  // why: scope names are checked by the API (a 400 naming each unknown one), not here.
  return names as Scope[];
}

/** The option every writing command takes (docs/interface-notes.md, Idempotency keys). */
export const IDEMPOTENCY_KEY_OPTION = [
  '--idempotency-key <key>',
  'send the write with this Idempotency-Key and retry it on a network failure or a 502/503/504: ' +
    'a repeat within 24 hours answers the first result instead of running again',
] as const;

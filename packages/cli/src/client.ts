import { createPatchbayClient, type PatchbayClient } from '@patchbay/client';

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

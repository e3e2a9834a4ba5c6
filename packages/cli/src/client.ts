/** Where and as whom the CLI talks to a running Patchbay (its public HTTP API, either run mode). */
export interface ClientOptions {
  url: string;
  token?: string;
  login?: string;
  password?: string;
}

/** An API error, printed by the CLI as the server's message and per-field errors. */
export class ApiCallError extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    const b = body as { message?: string; errors?: Array<{ field: string | null; message: string }> } | undefined;
    const details = (b?.errors ?? []).map((e) => `\n  - ${e.field ?? '(request)'}: ${e.message}`).join('');
    super(`HTTP ${status}: ${b?.message ?? 'request failed'}${details}`);
  }
}

/** The Authorization header of these options (none when neither a token nor a login is set). */
export function authHeader(opts: ClientOptions): Record<string, string> {
  if (opts.token) return { authorization: `Bearer ${opts.token}` };
  if (opts.login && opts.password) return { authorization: `Basic ${Buffer.from(`${opts.login}:${opts.password}`).toString('base64')}` };
  return {};
}

/** The API URL of `path` with `query` (undefined values left out). */
export function apiUrl(opts: ClientOptions, path: string, query: Record<string, string | undefined> = {}): URL {
  const url = new URL(`${opts.url.replace(/\/$/, '')}${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

/** One JSON call; resolves with the parsed body, throws ApiCallError for any non-2xx answer. */
export async function call(opts: ClientOptions, method: string, path: string, init: { json?: unknown; form?: Record<string, string>; query?: Record<string, string | undefined> } = {}): Promise<unknown> {
  const url = apiUrl(opts, path, init.query);
  const headers: Record<string, string> = { ...authHeader(opts) };
  let body: string | undefined;
  if (init.json !== undefined) { headers['content-type'] = 'application/json'; body = JSON.stringify(init.json); }
  if (init.form) { headers['content-type'] = 'application/x-www-form-urlencoded'; body = new URLSearchParams(init.form).toString(); }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) throw new ApiCallError(res.status, parsed);
  return parsed;
}

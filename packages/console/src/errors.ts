import { PatchbayApiError } from '@patchbay/client';

/**
 * An error as the console shows it: the API's message for the request, and the messages of each
 * field it names (shown next to that field; `''` holds those that name none).
 */
export interface Problem {
  message: string;
  fields: Record<string, string[]>;
}

export function problemOf(err: unknown): Problem {
  if (err instanceof PatchbayApiError) return { message: err.body.message, fields: err.byField() };
  return { message: err instanceof Error ? err.message : String(err), fields: {} };
}

/** The messages for `field` and, with `prefix`, for any field under it (`addresses.0.ip` under `addresses`). */
export function fieldMessages(problem: Problem | null, field: string, prefix = false): string[] {
  if (!problem) return [];
  return Object.entries(problem.fields)
    .filter(([f]) => f === field || (prefix && f.startsWith(`${field}.`)))
    .flatMap(([f, ms]) => ms.map((m) => (f === field ? m : `${f}: ${m}`)));
}

/** The messages naming no field the form shows: the request's own and any of fields not in `shown`. */
export function otherMessages(problem: Problem | null, shown: readonly string[]): string[] {
  if (!problem) return [];
  const named = Object.entries(problem.fields).filter(([f]) => f === '' || !shown.some((s) => f === s || f.startsWith(`${s}.`)));
  return named.flatMap(([f, ms]) => ms.map((m) => (f ? `${f}: ${m}` : m)));
}

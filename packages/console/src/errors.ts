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

/**
 * What a form shows apart from its fields' messages: the errors naming a field it does not show or
 * none; and the API's message itself when no error sits next to a field (a 401, a 503, a 422 on
 * the request as a whole).
 */
export function otherMessages(problem: Problem | null, shown: readonly string[]): string[] {
  if (!problem) return [];
  const isShown = (f: string) => f !== '' && shown.some((s) => f === s || f.startsWith(`${s}.`));
  const entries = Object.entries(problem.fields);
  const rest = entries.filter(([f]) => !isShown(f)).flatMap(([f, ms]) => ms.map((m) => (f ? `${f}: ${m}` : m)));
  if (entries.some(([f]) => isShown(f))) return rest;
  return [problem.message, ...rest.filter((m) => m !== problem.message)];
}

import type { Response } from 'express';

/** JSON keys of every object in alphabetical order, as the compatible API returns them. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** Sends a status and JSON body (keys sorted); 204 sends nothing. */
export function sendJson(res: Response, status: number, body: unknown): void {
  if (status === 204) { res.status(204).end(); return; }
  res.status(status).type('application/json').send(JSON.stringify(sortKeysDeep(body)));
}

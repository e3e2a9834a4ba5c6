import { BadRequestError } from './errors';

/**
 * A boolean query parameter, the one way every service reads one (`with_related`, `reuse`):
 * `true` or `false` in any letter case; absent or empty is `fallback`; anything else is a 400
 * naming the parameter. Query values arrive as strings; a repeated parameter (an array) is refused.
 */
export function parseFlag(query: Readonly<Record<string, unknown>>, name: string, fallback: boolean): boolean {
  const raw = Object.hasOwn(query, name) ? query[name] : undefined;
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw === 'string') {
    const v = raw.toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  throw BadRequestError.field(name, `${name} must be true or false`);
}

/**
 * `with_related` (default false): `true` adds the owning partner as a nested `partner` object to
 * endpoints, push applications and devices, and tokens (docs/interface-notes.md, Requests and
 * responses). Read with parseFlag.
 */
export function parseWithRelated(query: Readonly<Record<string, unknown>>): boolean {
  return parseFlag(query, 'with_related', false);
}

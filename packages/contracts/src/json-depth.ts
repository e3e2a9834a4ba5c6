import { BadRequestError } from './errors';

/**
 * How deep a JSON value from outside may nest. Every real body of the API is a few levels deep
 * (an endpoint's addresses, a push notification's `data`); thousands of levels are an attack on the
 * recursive code that handles values later (JSON.stringify on the bus overflows the stack).
 */
export const MAX_JSON_DEPTH = 64;

/** The nesting depth of `value` (a scalar is 0), counted without recursion and without going past `limit + 1`. */
export function jsonDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const top = stack.pop();
    if (!top) break;
    const [v, depth] = top;
    if (v === null || typeof v !== 'object') continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, inner]);
  }
  return deepest;
}

/** 400 naming `field` (null: the whole body) when `value` nests deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(value: unknown, field: string | null = null): void {
  if (jsonDepth(value) <= MAX_JSON_DEPTH) return;
  const message = `JSON nested more than ${MAX_JSON_DEPTH} levels deep`;
  throw field ? BadRequestError.field(field, message) : new BadRequestError({ message });
}

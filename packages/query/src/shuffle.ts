/**
 * `order=shuffle` as a stable random order: each record's place is a hash of a seed and its sid,
 * so the seed alone fixes the whole permutation. The seed travels in the `next`/`previous` URLs
 * (`seed=<seed>`), so following them walks one permutation page by page and visits every record
 * once, in any process and on any replica. A record added meanwhile lands at its hashed place and
 * shifts later pages by one, exactly as an insert does for any offset-paged list.
 */
import { randomBytes } from 'node:crypto';

/** What a seed may look like in a URL: short, and safe there without encoding. */
export const SEED_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A 53-bit hash of `text` (cyrb53: two multiplicative 32-bit lanes mixed at the end). Not
 * cryptographic; it only has to spread sids evenly and identically on every platform.
 */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The shuffle order of `sids` under `seed`: by hash, then by sid (so it is total). Returns a new array. */
export function shuffleSids<S extends string>(sids: readonly S[], seed: string): S[] {
  const ranked = sids.map((sid) => ({ sid, rank: hash53(`${seed}\u0000${sid}`) }));
  ranked.sort((a, b) => a.rank - b.rank || (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0));
  return ranked.map((r) => r.sid);
}

/**
 * A fresh seed for a first shuffled page: 64 random bits as 11 URL-safe characters, from
 * `random` when given (tests pass a seeded one), else from the system's CSPRNG.
 */
export function newShuffleSeed(random?: () => number): string {
  if (!random) return randomBytes(8).toString('base64url');
  const hi = Math.floor(random() * 2 ** 32);
  const lo = Math.floor(random() * 2 ** 32);
  return `${hi.toString(36)}${lo.toString(36)}`;
}

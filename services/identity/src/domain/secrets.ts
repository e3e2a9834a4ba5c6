import { createHash, randomBytes, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';

const KEYLEN = 32;
const COST = { N: 16384, r: 8, p: 1 } as const;

function scryptAsync(password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url parts), so the cost can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEYLEN, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}

/** A new bearer secret: 256 random bits. Only its SHA-256 is stored (high entropy: no slow hash needed). */
export function newTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A readable generated password for bootstrap partners. */
export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}

let decoy: Promise<string> | undefined;

/**
 * Checks `password` against `stored`, or — for a login that does not exist (null) — against a
 * decoy hash: both take the same time, so the answer time does not tell whether a login exists.
 */
export async function verifyPasswordOrDecoy(password: string, stored: string | null): Promise<boolean> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  const ok = await verifyPassword(password, stored ?? (await decoy));
  return stored !== null && ok;
}

import { createHash, randomBytes } from 'node:crypto';
import { KeyRing, keyId } from '../../src/secrets/key-ring';
import { openSecret, sealSecret } from '../../src/secrets/secret-box';
import { isSealedSecret, type SealedSecret } from '../../src/secrets/sealed-secret';
import { TamperedSecretError, UnknownKeyError } from '../../src/secrets/secret-errors';

const PEM =
  '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg…\n-----END PRIVATE KEY-----\n';
const CTX = 'push_applications/app-1/apns_p8';
const b64 = (b: Buffer) => b.toString('base64');
/** The same sealed value with one Base64 field's first byte flipped. */
function flip(sealed: SealedSecret, field: 'iv' | 'tag' | 'data'): SealedSecret {
  const bytes = Buffer.from(sealed[field], 'base64');
  bytes[0] ^= 0x01;
  return { ...sealed, [field]: b64(bytes) };
}

describe('credential encryption (AES-256-GCM envelopes)', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const ringA = new KeyRing(keyA);

  test('round trip: the stored form is {v, kid, iv, tag, data} and holds nothing of the plaintext', () => {
    const sealed = sealSecret(ringA, PEM, CTX);
    expect(Object.keys(sealed).sort()).toEqual(['data', 'iv', 'kid', 'tag', 'v']);
    expect(isSealedSecret(sealed)).toBe(true);
    expect(sealed).toMatchObject({ v: 1, kid: keyId(keyA) });
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(16);
    expect(JSON.stringify(sealed)).not.toContain('PRIVATE KEY');
    expect(openSecret(ringA, sealed, CTX)).toBe(PEM);
    expect(openSecret(ringA, sealSecret(ringA, '', CTX), CTX)).toBe('');
  });

  test('a fresh IV per value: sealing the same plaintext twice gives different ciphertexts', () => {
    const one = sealSecret(ringA, 'same', CTX);
    const two = sealSecret(ringA, 'same', CTX);
    expect(one.iv).not.toBe(two.iv);
    expect(one.data).not.toBe(two.data);
  });

  test('the key id is the first 8 hex digits of SHA-256 of the key', () => {
    expect(ringA.current.kid).toBe(createHash('sha256').update(keyA).digest('hex').slice(0, 8));
    expect(ringA.current.kid).toMatch(/^[0-9a-f]{8}$/);
  });

  test.each(['iv', 'tag', 'data'] as const)('a changed %s does not open (TamperedSecretError)', (field) => {
    const sealed = sealSecret(ringA, PEM, CTX);
    expect(() => openSecret(ringA, flip(sealed, field), CTX)).toThrow(TamperedSecretError);
  });

  test('a value moved to another application or field does not open', () => {
    const sealed = sealSecret(ringA, PEM, CTX);
    expect(() => openSecret(ringA, sealed, 'push_applications/app-2/apns_p8')).toThrow(TamperedSecretError);
    expect(() => openSecret(ringA, sealed, 'push_applications/app-1/google_credentials')).toThrow(TamperedSecretError);
  });

  test('malformed envelopes are refused, not crashed on', () => {
    const sealed = sealSecret(ringA, PEM, CTX);
    expect(() => openSecret(ringA, { ...sealed, iv: b64(randomBytes(8)) }, CTX)).toThrow(TamperedSecretError);
    expect(() => openSecret(ringA, { ...sealed, tag: '' }, CTX)).toThrow(TamperedSecretError);
    expect(() => openSecret(ringA, { ...sealed, v: 2 as 1 }, CTX)).toThrow(TamperedSecretError);
  });

  test('the wrong key: an unknown key id is UnknownKeyError; a forged key id does not authenticate', () => {
    const sealed = sealSecret(ringA, PEM, CTX);
    const ringB = new KeyRing(keyB);
    expect(() => openSecret(ringB, sealed, CTX)).toThrow(UnknownKeyError);
    try {
      openSecret(ringB, sealed, CTX);
    } catch (err) {
      expect((err as UnknownKeyError).kid).toBe(keyId(keyA));
      expect((err as Error).message).toContain(keyId(keyA));
      expect((err as Error).message).not.toContain(b64(keyA));
    }
    expect(() => openSecret(ringB, { ...sealed, kid: keyId(keyB) }, CTX)).toThrow(TamperedSecretError);
  });

  test('rotation: with the old key listed, old values open; new values are sealed with the new key', () => {
    const old = sealSecret(ringA, PEM, CTX);
    const rotated = new KeyRing(keyB, [keyA]);
    expect(rotated.current.kid).toBe(keyId(keyB));
    expect(rotated.kids()).toEqual([keyId(keyB), keyId(keyA)]);
    expect(openSecret(rotated, old, CTX)).toBe(PEM);
    const fresh = sealSecret(rotated, PEM, CTX);
    expect(fresh.kid).toBe(keyId(keyB));
    // Once the old key is dropped, only values re-sealed with the new one open.
    const after = new KeyRing(keyB);
    expect(openSecret(after, fresh, CTX)).toBe(PEM);
    expect(() => openSecret(after, old, CTX)).toThrow(UnknownKeyError);
  });

  test('a key ring refuses keys that are not 32 bytes', () => {
    expect(() => new KeyRing(randomBytes(16))).toThrow(/32 bytes/);
    expect(() => new KeyRing(keyA, [randomBytes(31)])).toThrow(/32 bytes/);
    expect(new KeyRing(keyA, [keyA]).kids()).toEqual([keyId(keyA)]);
  });
});

describe('stored credentials revision', () => {
  const digest = createHash('sha256').update('["service account json", null]').digest('hex').slice(0, 32);

  test('is keyed: the same for one key, different under another, never the plain digest', () => {
    const key = randomBytes(32);
    const ring = new KeyRing(key);
    expect(ring.revision(digest)).toBe(new KeyRing(key, [randomBytes(32)]).revision(digest));
    expect(ring.revision(digest)).toMatch(/^[0-9a-f]{32}$/);
    expect(ring.revision(digest)).not.toBe(digest);
    expect(new KeyRing(randomBytes(32)).revision(digest)).not.toBe(ring.revision(digest));
    expect(ring.revision(`${digest}x`)).not.toBe(ring.revision(digest));
  });
});

import crypto from 'node:crypto';
import { openChunk, payloadKey, sealChunk } from '../src/payload';

/** Chunk nonces as the age spec writes them: an 11-byte big-endian counter, then the last-chunk flag. */
function specNonce(counter: number, last: boolean): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(BigInt(counter), 3);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

const fileKey = crypto.randomBytes(16);
const payloadNonce = crypto.randomBytes(16);
const rawKey = crypto.hkdfSync('sha256', fileKey, payloadNonce, 'payload', 32);
const plaintext = crypto.randomBytes(5000);

test.each([0, 1, 255, 256, 65535, 65536, 2 ** 32 + 5, 2 ** 40 + 3, 2 ** 48 - 1, Number.MAX_SAFE_INTEGER - 1])(
  'chunk %d is sealed with the spec nonce (counter bytes in place), and opens only with it',
  (counter) => {
    const key = payloadKey(fileKey, payloadNonce);
    for (const last of [false, true]) {
      const cipher = crypto.createCipheriv('chacha20-poly1305', Buffer.from(rawKey), specNonce(counter, last), {
        authTagLength: 16,
      });
      const expected = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
      const sealed = Buffer.concat(
        sealChunk(key, counter, last, [plaintext.subarray(0, 1000), plaintext.subarray(1000)]),
      );
      expect(sealed.equals(expected)).toBe(true);
      expect(openChunk(key, counter, last, sealed)?.equals(plaintext)).toBe(true);
      expect(openChunk(key, counter, !last, sealed)).toBeNull();
      expect(openChunk(key, counter + 1, last, sealed)).toBeNull();
    }
  },
);

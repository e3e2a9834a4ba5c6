/**
 * The encrypter's output is an age v1 file with the layout the format fixes (header, 16-byte
 * nonce, 64 KiB chunks of 65,552 bytes, a shorter or full last chunk), whatever pieces the input
 * comes in; it reports its sizes; it encrypts to 1–4 recipients and no other count; and it respects
 * back-pressure (it does not read ahead of a consumer that stopped reading).
 */
import fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AgeKeyError, decryptStream, encryptStream, parseIdentities, parseRecipient } from '../src';
import { digest, EDGE_SIZES, randomBytes, readableOf, through } from './support/bytes';
import { makeKeys, sshKeygen, type TestKeys } from './support/keys';

let keys: TestKeys;
beforeAll(() => (keys = makeKeys()));
afterAll(() => keys.cleanup());

const ageIdentities = () => parseIdentities(fs.readFileSync(keys.ageIdentityFile, 'utf8'));

test.each(EDGE_SIZES)('%i bytes: header, nonce and chunk layout as the format fixes, sizes reported', async (size) => {
  const plaintext = randomBytes(size);
  const enc = encryptStream([keys.ageRecipient]);
  expect(enc.summary).toBeNull();
  const file = await through(enc, readableOf(plaintext));
  const chunks = Math.max(1, Math.ceil(size / 65536));
  const { header_bytes } = enc.summary ?? { header_bytes: -1 };
  expect(enc.summary).toEqual({
    header_bytes,
    plaintext_bytes: size,
    file_bytes: header_bytes + 16 + size + 16 * chunks,
  });
  expect(file.length).toBe(enc.summary?.file_bytes);
  const header = file.subarray(0, header_bytes).toString('latin1');
  expect(header).toMatch(
    /^age-encryption\.org\/v1\n-> X25519 [A-Za-z0-9+/]{43}\n[A-Za-z0-9+/]{43}\n--- [A-Za-z0-9+/]{43}\n$/,
  );
  expect(digest(await through(decryptStream(ageIdentities()), readableOf(file)))).toEqual(digest(plaintext));
});

test('the way the input is cut does not matter', async () => {
  const plaintext = randomBytes(5 * 65536 + 77);
  for (const piece of [1000, 65535, 65536, 65537, 1 << 20]) {
    const file = await through(encryptStream([keys.ageRecipient]), readableOf(plaintext, piece));
    expect(file.length).toBe(file.indexOf('\n--- ') + 49 + 16 + plaintext.length + 6 * 16);
    expect(digest(await through(decryptStream(ageIdentities()), readableOf(file, 4097)))).toEqual(digest(plaintext));
  }
});

test('four recipients (X25519 and ssh-rsa): each identity opens the file; 0 or 5 are refused', async () => {
  const second = sshKeygen(keys.dir, 'second', '-t', 'rsa', '-b', '2048');
  const recipients = [
    keys.ageRecipient,
    keys.rsaPublicKey,
    keys.pemPublicKey,
    fs.readFileSync(`${second}.pub`, 'utf8'),
  ];
  const plaintext = randomBytes(70_000);
  const file = await through(encryptStream(recipients.map(parseRecipient)), readableOf(plaintext));
  expect(file.toString('latin1').match(/\n-> (X25519|ssh-rsa) /g)).toHaveLength(4);
  for (const identityFile of [keys.ageIdentityFile, keys.rsaPrivateFile, keys.pemPrivateFile, second]) {
    const identities = parseIdentities(fs.readFileSync(identityFile, 'utf8'));
    expect(digest(await through(decryptStream(identities), readableOf(file)))).toEqual(digest(plaintext));
  }
  expect(() => encryptStream([])).toThrow(AgeKeyError);
  expect(() => encryptStream([...recipients, keys.ageRecipient])).toThrow(/1 to 4 recipients, not 5/);
  expect(() => encryptStream(['ssh-dss AAAA'])).toThrow(AgeKeyError);
});

test('back-pressure: with the consumer stopped, the encrypter stops reading its source', async () => {
  const total = 64 << 20;
  let pulled = 0;
  const source = new Readable({
    read() {
      if (pulled >= total) return this.push(null);
      pulled += 1 << 16;
      this.push(Buffer.alloc(1 << 16, 1));
    },
  });
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let received = 0;
  const sink = new Writable({
    highWaterMark: 1 << 16,
    write(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      // The consumer stalls after its first megabyte until the test lets it go on.
      if (received > 1 << 20) released.then(() => callback(), callback);
      else callback();
    },
  });
  const done = pipeline(source, encryptStream([keys.ageRecipient]), sink);
  // Let the pipeline run until it settles: a source that keeps being read would not settle below `total`.
  let last = -1;
  while (last !== pulled) {
    last = pulled;
    await new Promise((resolve) => setTimeout(resolve, 50)); // settled is "no progress for a while": a fixed look
  }
  expect(pulled).toBeLessThan(4 << 20);
  release();
  await done;
  expect(pulled).toBe(total);
  expect(received).toBeGreaterThan(total);
});

/**
 * Interoperability with the stock tool (Debian's age 1.1), both ways, with an X25519 identity from
 * age-keygen and RSA keys from ssh-keygen: what this package encrypts, `age -d -i` decrypts
 * byte-identical; what `age -r` / `age -R` encrypts, this package decrypts. Sizes on the format's
 * edges (empty, one byte, around one chunk, three full chunks) and about 5 MB.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { decryptStream, encryptStream, parseIdentities } from '../src';
import { digest, EDGE_SIZES, randomBytes, readableOf, through } from './support/bytes';
import { makeKeys, type TestKeys } from './support/keys';

const run = promisify(execFile);
const SIZES = [...EDGE_SIZES, 5_000_000];
let keys: TestKeys;
beforeAll(() => (keys = makeKeys()));
afterAll(() => keys.cleanup());

/** Runs the age tool; resolves with its stdout as bytes. */
async function age(...args: string[]): Promise<Buffer> {
  const { stdout } = await run('age', args, { encoding: 'buffer', maxBuffer: 64 << 20 });
  return stdout;
}

function write(name: string, bytes: Buffer): string {
  const file = path.join(keys.dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

const identities = (file: string) => parseIdentities(fs.readFileSync(file, 'utf8'));

describe.each(SIZES)('%i bytes', (size) => {
  let plaintext: Buffer;
  beforeAll(() => (plaintext = randomBytes(size)));

  test('encrypted here to an age-keygen key and an ssh-keygen RSA key: age -d -i decrypts with either', async () => {
    const file = write(
      `ours-${size}.age`,
      await through(encryptStream([keys.ageRecipient, keys.rsaPublicKey]), readableOf(plaintext)),
    );
    expect(digest(await age('-d', '-i', keys.ageIdentityFile, file))).toEqual(digest(plaintext));
    expect(digest(await age('-d', '-i', keys.rsaPrivateFile, file))).toEqual(digest(plaintext));
  });

  test('encrypted here to the RSA key alone (a PEM key too): age -d -i decrypts', async () => {
    const file = write(
      `ours-rsa-${size}.age`,
      await through(encryptStream([keys.pemPublicKey]), readableOf(plaintext)),
    );
    expect(digest(await age('-d', '-i', keys.pemPrivateFile, file))).toEqual(digest(plaintext));
  });

  test('encrypted by age -r and by age -R: decrypted here', async () => {
    const input = write(`plain-${size}`, plaintext);
    const x25519 = await age('-r', keys.ageRecipient, input);
    expect(digest(await through(decryptStream(identities(keys.ageIdentityFile)), readableOf(x25519)))).toEqual(
      digest(plaintext),
    );
    const rsa = await age('-R', keys.rsaPublicFile, input);
    expect(digest(await through(decryptStream(identities(keys.rsaPrivateFile)), readableOf(rsa)))).toEqual(
      digest(plaintext),
    );
  });
});

test('age to several recipients of both kinds: each identity decrypts here', async () => {
  const plaintext = randomBytes(200_000);
  const input = write('plain-multi', plaintext);
  const file = await age('-r', keys.ageRecipient, '-R', keys.rsaPublicFile, '-R', `${keys.pemPrivateFile}.pub`, input);
  for (const identityFile of [keys.ageIdentityFile, keys.rsaPrivateFile, keys.pemPrivateFile]) {
    expect(digest(await through(decryptStream(identities(identityFile)), readableOf(file)))).toEqual(digest(plaintext));
  }
});

test('age refuses a file of ours that was altered, as we refuse one of its', async () => {
  const file = await through(encryptStream([keys.ageRecipient]), readableOf(randomBytes(100_000)));
  file[file.length - 5] ^= 1;
  await expect(age('-d', '-i', keys.ageIdentityFile, write('altered.age', file))).rejects.toThrow(/failed/);
});

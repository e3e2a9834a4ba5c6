/**
 * An independent cross-check against the npm age-encryption library (typage), with X25519 keys
 * (it has no ssh-rsa): what this package encrypts it decrypts, and the other way round. It runs in
 * a child process (support/age-encryption-cli.mjs): the library is ESM-only, jest runs CommonJS.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { decryptStream, encryptStream, parseIdentities } from '../src';
import { digest, randomBytes, readableOf, through } from './support/bytes';
import { makeKeys, type TestKeys } from './support/keys';

const run = promisify(execFile);
const CLI = path.join(__dirname, 'support/age-encryption-cli.mjs');
let keys: TestKeys;
beforeAll(() => (keys = makeKeys()));
afterAll(() => keys.cleanup());

async function typage(mode: 'encrypt' | 'decrypt', key: string, input: Buffer): Promise<Buffer> {
  const name = `${mode}-${input.length}-${Math.random().toString(36).slice(2)}`;
  const inFile = path.join(keys.dir, `${name}.in`);
  const outFile = path.join(keys.dir, `${name}.out`);
  fs.writeFileSync(inFile, input);
  await run(process.execPath, [CLI, mode, key, inFile, outFile]);
  return fs.readFileSync(outFile);
}

test.each([0, 1, 65536, 65537, 300_000])('%i bytes: ours → age-encryption, age-encryption → ours', async (size) => {
  const plaintext = randomBytes(size);
  const ours = await through(encryptStream([keys.ageRecipient]), readableOf(plaintext));
  expect(digest(await typage('decrypt', keys.ageIdentityFile, ours))).toEqual(digest(plaintext));
  const theirs = await typage('encrypt', keys.ageRecipient, plaintext);
  const identities = parseIdentities(fs.readFileSync(keys.ageIdentityFile, 'utf8'));
  expect(digest(await through(decryptStream(identities), readableOf(theirs)))).toEqual(digest(plaintext));
});

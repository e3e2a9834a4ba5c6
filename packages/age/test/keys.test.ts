/**
 * Public keys and identities: what is accepted, the fingerprints (ssh-keygen's for RSA), and a
 * clear refusal naming why for everything else — with no secret ever echoed in an error.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { bech32 } from '@scure/base';
import { AgeKeyError, parseIdentities, parseRecipient } from '../src';
import { makeKeys, sshKeygen, type TestKeys } from './support/keys';

let keys: TestKeys;
beforeAll(() => (keys = makeKeys()));
afterAll(() => keys.cleanup());

const sshFingerprint = (file: string) =>
  execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', file], { encoding: 'utf8' }).split(' ')[1];
const refusal = (text: string): string => {
  try {
    parseRecipient(text);
  } catch (err) {
    expect(err).toBeInstanceOf(AgeKeyError);
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('parseRecipient', () => {
  test('an age-keygen recipient: age-x25519, fingerprint shared with its identity, case-insensitive', () => {
    const recipient = parseRecipient(`  ${keys.ageRecipient}\n`);
    expect(recipient.key_type).toBe('age-x25519');
    expect(recipient.public_key).toBe(keys.ageRecipient);
    expect(recipient.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(parseRecipient(keys.ageRecipient.toUpperCase()).fingerprint).toBe(recipient.fingerprint);
    const [identity] = parseIdentities(fs.readFileSync(keys.ageIdentityFile, 'utf8'));
    expect(identity.key_type).toBe('age-x25519');
    expect(identity.fingerprint).toBe(recipient.fingerprint);
  });

  test('an ssh-keygen RSA key: ssh-rsa, its bits and comment, the fingerprint ssh-keygen prints', () => {
    const recipient = parseRecipient(keys.rsaPublicKey);
    expect(recipient).toMatchObject({ key_type: 'ssh-rsa', bits: 3072, comment: 'id_rsa@patchbay-test' });
    expect(recipient.public_key).toBe(keys.rsaPublicKey);
    expect(recipient.fingerprint).toBe(sshFingerprint(keys.rsaPublicFile));
    expect(parseRecipient(keys.pemPublicKey)).toMatchObject({ key_type: 'ssh-rsa', bits: 2048 });
  });

  test('an RSA key under 2048 bits is refused, naming its size', () => {
    const small = sshKeygen(keys.dir, 'id_rsa_small', '-t', 'rsa', '-b', '1024');
    expect(refusal(fs.readFileSync(`${small}.pub`, 'utf8'))).toMatch(/1024 bits; at least 2048/);
  });

  test('other SSH key types are refused by name', () => {
    const ed = sshKeygen(keys.dir, 'id_ed25519', '-t', 'ed25519');
    expect(refusal(fs.readFileSync(`${ed}.pub`, 'utf8'))).toMatch(/"ssh-ed25519" keys are not supported/);
    const blob = fs.readFileSync(`${ed}.pub`, 'utf8').split(' ')[1];
    expect(refusal(`ssh-rsa ${blob}`)).toMatch(/of type "ssh-ed25519", not ssh-rsa/);
  });

  test('damaged keys are refused, saying what is wrong', () => {
    const typo =
      keys.ageRecipient.slice(0, 20) + (keys.ageRecipient[20] === 'q' ? 'p' : 'q') + keys.ageRecipient.slice(21);
    expect(refusal(typo)).toMatch(/not valid Bech32/);
    expect(refusal(bech32.encode('bge', bech32.toWords(new Uint8Array(32))))).toMatch(/recognised/);
    expect(refusal(bech32.encode('age', bech32.toWords(new Uint8Array(16))))).toMatch(/holds 16 bytes/);
    const [, data] = keys.rsaPublicKey.split(' ');
    expect(refusal(`ssh-rsa ${data.slice(0, 200)}`)).toMatch(/base64|truncated/);
    expect(refusal(`ssh-rsa ${data.slice(0, 100)}AAAA`)).toMatch(/truncated/);
    expect(refusal('ssh-rsa')).toMatch(/recognised/);
    expect(refusal('')).toMatch(/empty/);
    expect(refusal(`${keys.ageRecipient}\n${keys.ageRecipient}`)).toMatch(/several lines/);
    expect(refusal('hello')).toMatch(/expected an age X25519 recipient \(age1…\) or an SSH RSA public key/);
  });

  test('X25519 low-order points are refused: all zeros, one, the order-8 points, p-1, p, p+1', () => {
    const le = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
    const ff = 'ff'.repeat(30);
    const lowOrder = [
      '00'.repeat(32),
      `01${'00'.repeat(31)}`,
      'e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800',
      '5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157',
      `ec${ff}7f`,
      `ed${ff}7f`,
      `ee${ff}7f`,
    ];
    for (const hex of lowOrder)
      expect(refusal(bech32.encode('age', bech32.toWords(le(hex)), 100))).toMatch(/low-order X25519 point/);
    // A real key still passes (the probe says nothing about ordinary points).
    expect(parseRecipient(keys.ageRecipient).key_type).toBe('age-x25519');
  });

  test('an ssh-rsa key with an even modulus is refused; an odd one of the same size is not', () => {
    const [type, data, comment] = keys.rsaPublicKey.split(' ');
    const blob = Buffer.from(data, 'base64');
    // The modulus is the blob's last field: its last byte is the modulus's lowest.
    const even = Buffer.from(blob);
    even[even.length - 1] &= 0xfe;
    expect(refusal(`${type} ${even.toString('base64')} ${comment}`)).toMatch(/modulus is even/);
    const odd = Buffer.from(blob);
    odd[odd.length - 1] |= 0x01;
    expect(parseRecipient(`${type} ${odd.toString('base64')} ${comment}`)).toMatchObject({ bits: 3072 });
  });

  test('a secret key pasted as a public key is refused without being repeated', () => {
    const secret = fs.readFileSync(keys.ageIdentityFile, 'utf8').match(/AGE-SECRET-KEY-1\w+/)?.[0] ?? '';
    const message = refusal(secret);
    expect(message).toMatch(/secret key/);
    expect(message).not.toContain(secret.slice(16));
  });
});

describe('parseIdentities', () => {
  test('OpenSSH and PEM RSA private keys: the fingerprint of their public half', () => {
    const [openssh] = parseIdentities(fs.readFileSync(keys.rsaPrivateFile, 'utf8'));
    expect(openssh).toMatchObject({ key_type: 'ssh-rsa', fingerprint: sshFingerprint(keys.rsaPublicFile) });
    const [pem] = parseIdentities(fs.readFileSync(keys.pemPrivateFile, 'utf8'));
    expect(pem).toMatchObject({ key_type: 'ssh-rsa', fingerprint: sshFingerprint(`${keys.pemPrivateFile}.pub`) });
  });

  test('several age identities in one file, comments and blank lines ignored', () => {
    const text =
      `${fs.readFileSync(keys.ageIdentityFile, 'utf8')}\n\n# ` +
      `another\n${fs.readFileSync(keys.ageIdentityFile, 'utf8')}`;
    expect(parseIdentities(text)).toHaveLength(2);
  });

  test('refusals: passphrase, other key types, a damaged or missing identity — never echoing a secret', () => {
    const locked = sshKeygen(keys.dir, 'id_rsa_locked', '-t', 'rsa', '-b', '2048');
    execFileSync('ssh-keygen', ['-q', '-p', '-N', 'secret', '-P', '', '-f', locked]);
    expect(() => parseIdentities(fs.readFileSync(locked, 'utf8'))).toThrow(/passphrase-protected/);
    const ed = sshKeygen(keys.dir, 'id_ed25519_2', '-t', 'ed25519');
    expect(() => parseIdentities(fs.readFileSync(ed, 'utf8'))).toThrow(/"ssh-ed25519" private keys are not supported/);
    expect(() => parseIdentities('# nothing here\n')).toThrow(/holds no identity/);
    expect(() => parseIdentities('age1abc\n')).toThrow(/line 1 of the identity file is not an age identity/);
    const secret = fs.readFileSync(keys.ageIdentityFile, 'utf8').match(/AGE-SECRET-KEY-1\w+/)?.[0] ?? '';
    const damaged = secret.slice(0, 30) + (secret[30] === 'Q' ? 'P' : 'Q') + secret.slice(31);
    let message = '';
    try {
      parseIdentities(damaged);
    } catch (err) {
      expect(err).toBeInstanceOf(AgeKeyError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/not valid Bech32/);
    expect(message).not.toContain(secret.slice(20, 40));
  });
});

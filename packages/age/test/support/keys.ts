/**
 * Real keys for the tests, made by the stock tools at test time: an age X25519 pair from
 * age-keygen, and RSA pairs from ssh-keygen (3072 bits in OpenSSH format, as ssh-keygen writes by
 * default; 2048 bits in PEM format). Each test file makes its own in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestKeys {
  readonly dir: string;
  /** The age-keygen identity file and its recipient (`age1…`). */
  readonly ageIdentityFile: string;
  readonly ageRecipient: string;
  /** ssh-keygen -t rsa -b 3072 (OpenSSH private key format). */
  readonly rsaPrivateFile: string;
  readonly rsaPublicFile: string;
  readonly rsaPublicKey: string;
  /** ssh-keygen -t rsa -b 2048 -m PEM (PKCS#1 private key). */
  readonly pemPrivateFile: string;
  readonly pemPublicKey: string;
  readonly cleanup: () => void;
}

export function sshKeygen(dir: string, name: string, ...args: string[]): string {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-N', '', '-C', `${name}@patchbay-test`, '-f', file, ...args]);
  return file;
}

export function makeKeys(): TestKeys {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-age-'));
  const ageIdentityFile = path.join(dir, 'age-identity.txt');
  execFileSync('age-keygen', ['-o', ageIdentityFile], { stdio: 'ignore' });
  const ageRecipient = execFileSync('age-keygen', ['-y', ageIdentityFile], { encoding: 'utf8' }).trim();
  const rsaPrivateFile = sshKeygen(dir, 'id_rsa', '-t', 'rsa', '-b', '3072');
  const pemPrivateFile = sshKeygen(dir, 'id_rsa_pem', '-t', 'rsa', '-b', '2048', '-m', 'PEM');
  return {
    dir,
    ageIdentityFile,
    ageRecipient,
    rsaPrivateFile,
    rsaPublicFile: `${rsaPrivateFile}.pub`,
    rsaPublicKey: fs.readFileSync(`${rsaPrivateFile}.pub`, 'utf8').trim(),
    pemPrivateFile,
    pemPublicKey: fs.readFileSync(`${pemPrivateFile}.pub`, 'utf8').trim(),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Keys and the stock tool for encrypted-recording tests: an age X25519 pair from age-keygen and a
 * 2048-bit RSA pair from ssh-keygen, made at test time in a directory of their own; `ageDecrypt`
 * runs Debian's `age -d -i` on bytes and returns the plaintext.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PartnerKeys {
  dir: string;
  ageIdentityFile: string;
  ageRecipient: string;
  rsaPrivateFile: string;
  rsaPublicKey: string;
  cleanup(): void;
}

export function makePartnerKeys(): PartnerKeys {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-enc-keys-'));
  const ageIdentityFile = path.join(dir, 'age-identity.txt');
  execFileSync('age-keygen', ['-o', ageIdentityFile], { stdio: 'ignore' });
  const ageRecipient = execFileSync('age-keygen', ['-y', ageIdentityFile], { encoding: 'utf8' }).trim();
  const rsaPrivateFile = path.join(dir, 'id_rsa');
  execFileSync('ssh-keygen', ['-q', '-N', '', '-C', 'partner@test', '-t', 'rsa', '-b', '2048', '-f', rsaPrivateFile]);
  return {
    dir,
    ageIdentityFile,
    ageRecipient,
    rsaPrivateFile,
    rsaPublicKey: fs.readFileSync(`${rsaPrivateFile}.pub`, 'utf8').trim(),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** `age -d -i <identity>` of `encrypted`; rejects when the tool refuses it. */
export async function ageDecrypt(encrypted: Buffer, identityFile: string): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-enc-'));
  try {
    const input = path.join(dir, 'in.age');
    const output = path.join(dir, 'out');
    fs.writeFileSync(input, encrypted);
    await run('age', ['-d', '-i', identityFile, '-o', output, input]);
    return fs.readFileSync(output);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file under `root` (recursively) whose bytes contain `marker`: none may, for a plaintext marker. */
export function filesContaining(root: string, marker: Buffer): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // removed while walking (another test's scratch)
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        try {
          if (fs.readFileSync(p).includes(marker)) found.push(p);
        } catch {
          // removed while walking
        }
      }
    }
  };
  walk(root);
  return found;
}

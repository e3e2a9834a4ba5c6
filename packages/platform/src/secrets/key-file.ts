import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logging/logger';
import { KEY_BYTES } from './key-ring';
import { errorCode } from '../basics/error-fields';

/** The key file exists but does not hold a key: never replaced, because the data needs that key. */
export class KeyFileError extends Error {
  constructor(file: string, reason: string, keyEnv = 'PUSH_CREDENTIALS_KEY') {
    super(`credentials key file ${file}: ${reason} (restore it, or set ${keyEnv} to the key the data was sealed with)`);
    this.name = 'KeyFileError';
  }
}

function readKeyFile(file: string, log: Logger, keyEnv: string): Buffer {
  const stat = fs.statSync(file);
  if ((stat.mode & 0o077) !== 0) {
    fs.chmodSync(file, 0o600);
    log.warn({ file }, 'credentials key file was readable by others; its mode is now 0600');
  }
  const text = fs.readFileSync(file, 'utf8').trim();
  const key = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== KEY_BYTES)
    throw new KeyFileError(file, `does not hold Base64 of ${KEY_BYTES} bytes`, keyEnv);
  return key;
}

/**
 * The generated credentials key of an embedded installation: read from `file`, or made once
 * (32 random bytes, Base64, mode 0600) and reused by every later start. The file is written
 * aside and linked into place, so a crash never leaves half a key and two starts never make two.
 */
export function readOrCreateKeyFile(
  file: string,
  log: Logger,
  opts: { purpose: string; keyEnv: string } = { purpose: 'push', keyEnv: 'PUSH_CREDENTIALS_KEY' },
): Buffer {
  if (fs.existsSync(file)) return readKeyFile(file, log, opts.keyEnv);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(temp, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    fs.linkSync(temp, file);
    log.info({ file }, `generated a credentials key for ${opts.purpose}`);
  } catch (err) {
    // Someone else linked theirs first: use it.
    if (errorCode(err) !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return readKeyFile(file, log, opts.keyEnv);
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@patchbay/platform';
import { KeyFileError, readOrCreateKeyFile } from '../../src/secrets/key-file';

const log = createLogger({ name: 'key-file-test', level: 'silent' });

describe('the generated credentials key file (embedded installations)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-key-file-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('made once with mode 0600 (in a directory made for it), then reused', () => {
    const file = path.join(dir, 'push', 'credentials.key');
    const first = readOrCreateKeyFile(file, log);
    expect(first).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateKeyFile(file, log).equals(first)).toBe(true);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['credentials.key']);
  });

  test('a key file readable by others is locked down to 0600', () => {
    const file = path.join(dir, 'credentials.key');
    const key = readOrCreateKeyFile(file, log);
    fs.chmodSync(file, 0o644);
    expect(readOrCreateKeyFile(file, log).equals(key)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  test('a damaged key file stops start-up and is never replaced', () => {
    const file = path.join(dir, 'credentials.key');
    fs.writeFileSync(file, 'c2hvcnQ=\n', { mode: 0o600 });
    expect(() => readOrCreateKeyFile(file, log)).toThrow(KeyFileError);
    expect(fs.readFileSync(file, 'utf8')).toBe('c2hvcnQ=\n');
  });
});

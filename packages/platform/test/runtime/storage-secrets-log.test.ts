/**
 * Object storage credentials never reach the logs (decisions §28): an external container's attributes, and
 * the request an SDK error carries (Azure's URL with its SAS signature, Google's bearer token), are
 * redacted, whether the error is logged as is or as another error's cause; the message stays.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ApiJson } from '../../../../tests/support/api-json';

const TSX = path.resolve(__dirname, '../../../../node_modules/.bin/tsx');

test('credentials and SDK requests are redacted, the reason is kept', async () => {
  const { stdout } = await promisify(execFile)(TSX, [path.join(__dirname, 'fixtures/storage-secrets.ts')]);
  expect(stdout).not.toMatch(/S3-SECRET-1|AZURE-KEY-1|SAS-SIG-1|SIG-2|GCS-TOKEN-1/);
  const events = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ApiJson);
  expect(events[0].container.external_attributes).toEqual({ bucket: 'b', credentials: '[redacted]' });
  expect(events[2].err.message).toMatch(/refused the credentials/);
  expect(JSON.stringify(events[2].err)).toMatch(/not authorized/);
  expect(events[3].err).toMatchObject({
    message: '403 This request is not authorized',
    request: '[redacted]',
    config: '[redacted]',
  });
});

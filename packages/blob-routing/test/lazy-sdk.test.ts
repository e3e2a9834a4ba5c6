/**
 * A service that never touches a bucket never loads an SDK (docs/contributing.md, How code should
 * look): importing the blob routing loads none; the first store of a type loads that provider's SDK
 * alone.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const TSX = path.resolve(__dirname, '../../../node_modules/.bin/tsx');

test('no SDK is loaded until a store of its type is opened, and then only that one', async () => {
  const { stdout } = await promisify(execFile)(TSX, [path.join(__dirname, 'fixtures/loaded-sdks.ts')]);
  expect(JSON.parse(stdout)).toEqual({ before: [], after: ['@aws-sdk'] });
});

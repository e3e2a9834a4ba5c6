/**
 * The client's types are the document's: src/generated/openapi.ts must be what openapi-typescript
 * writes for the current route table and schemas. Change a route or a schema without running
 * `pnpm --filter @patchbay/client generate`, and this fails. (The generator runs in a child
 * process: openapi-typescript's dependencies are ESM-only, and jest runs CommonJS here.)
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(__dirname, '../scripts/generate-types.ts');
const check = (out?: string) =>
  run(path.join(ROOT, 'node_modules/.bin/tsx'), [SCRIPT, '--check', ...(out ? ['--out', out] : [])], {
    cwd: ROOT,
  }).then(
    () => 0,
    (err: { code: number }) => err.code,
  );

test('src/generated/openapi.ts is up to date with the OpenAPI document', async () => {
  expect(await check()).toBe(0);
  const text = fs.readFileSync(path.join(__dirname, '../src/generated/openapi.ts'), 'utf8');
  expect(text).toContain('"/endpoints/{endpoint_sid}": {');
  expect(text).toContain('"/f/{file_identifier}": {');
}, 60_000);

test('the check does fail on a file that differs', async () => {
  const stale = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pb-client-types-')), 'openapi.ts');
  fs.writeFileSync(stale, 'export interface paths {}\n');
  expect(await check(stale)).toBe(1);
  fs.rmSync(path.dirname(stale), { recursive: true, force: true });
}, 60_000);

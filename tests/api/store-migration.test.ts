/**
 * The embedded store's first start over a data directory the NeDB store wrote (tests/fixtures/nedb-data,
 * made by the release before SQLite with tests/migration/make-nedb-fixture.ts): `patchbay store migrate
 * --check` reports what would move and writes nothing; the start migrates every service's collections;
 * everything is there through the API (partners, tokens, containers, files and their bytes, endpoints,
 * push applications and devices, records), and the NeDB files are kept aside.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { mode } from '../harness/api';
import { startPatchbay, type PatchbayInstance } from '../harness/patchbay';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURE = path.join(ROOT, 'tests/fixtures/nedb-data');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON fixture, read once
const made = require('../fixtures/nedb-data.made.json') as {
  child: { partner_sid: string };
  container: { container_sid: string };
  file: { file_sid: string };
  endpoint: { endpoint_sid: string };
  app: { application_sid: string };
  device: { device_sid: string };
};
const SERVICES = ['endpoint', 'identity', 'push', 'records', 'storage'];

let dataDir: string;
let inst: PatchbayInstance | undefined;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-nedb-'));
  cpSync(FIXTURE, dataDir, { recursive: true });
});
afterAll(async () => {
  await inst?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('store migrate --check reports every collection and writes nothing', async () => {
  const { stdout } = await promisify(execFile)(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    ['packages/cli/src/main.ts', 'store', 'migrate', '--check', '--data-dir', dataDir],
    { cwd: ROOT },
  );
  const report = JSON.parse(stdout) as {
    services: { directory: string; outcome: string; collections: { name: string; documents: number }[] }[];
  };
  expect(report.services.map((s) => path.basename(s.directory))).toEqual(SERVICES);
  for (const s of report.services) expect(s.outcome).toBe('would-migrate');
  const records = report.services.find((s) => s.directory.endsWith('records'));
  expect(records?.collections.filter((c) => c.name !== 'countries')).toEqual([
    { name: 'call_drs', documents: 3, corrupt_lines: 0 },
    { name: 'message_drs', documents: 2, corrupt_lines: 0 },
  ]);
  for (const service of SERVICES) expect(existsSync(path.join(dataDir, service, 'store.sqlite'))).toBe(false);
});

test('the first start migrates everything; the API serves it; the NeDB files are kept aside', async () => {
  inst = await startPatchbay(mode(), { DATA_DIR: dataDir });
  const admin = ['Authorization', `Basic ${Buffer.from(`${inst.login}:${inst.password}`).toString('base64')}`] as const;
  const child = [
    'Authorization',
    `Basic ${Buffer.from('fixture-child:fixture-password-1').toString('base64')}`,
  ] as const;
  const get = async (url: string, auth: readonly [string, string] = admin) => {
    const res = await request(inst!.origin)
      .get(`/core/v2${url}`)
      .set(...auth);
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown> & { items: Record<string, unknown>[] };
  };
  expect((await get(`/partners/${made.child.partner_sid}`)).name).toBe('Fixture child');
  expect((await get('/oauth/tokens', child)).items).toHaveLength(1);
  expect((await get(`/storage/containers/${made.container.container_sid}`)).name).toBe('fixture-container');
  const bytes = await request(inst.origin)
    .get(`/core/v2/storage/files/${made.file.file_sid}/data`)
    .set(...admin);
  expect(bytes.status).toBe(200);
  expect(bytes.text ?? bytes.body.toString()).toBe('hello from the NeDB era\n');
  expect((await get(`/endpoints/${made.endpoint.endpoint_sid}`)).name).toBe('fixture-endpoint');
  expect((await get(`/push/applications/${made.app.application_sid}`)).name).toBe('fixture-app');
  expect((await get(`/push/devices/${made.device.device_sid}`)).token).toBe('fixture-device-token');
  const calls = (await get('/calls/call_drs?limit=10')).items.map((d) => d.dr_sid).sort();
  expect(calls).toEqual([0, 1, 2].map((i) => `00000000-0000-4000-8000-00000000010${i}`));
  expect((await get('/sms/message_drs?limit=10')).items).toHaveLength(2);
  for (const service of SERVICES) {
    expect(existsSync(path.join(dataDir, service, 'store.sqlite'))).toBe(true);
    expect(readdirSync(path.join(dataDir, service)).filter((f) => /\.db~?$/.test(f))).toEqual([]);
    expect(readdirSync(path.join(dataDir, service, 'nedb-migrated')).length).toBeGreaterThan(0);
  }
}, 180_000);

/**
 * `patchbay records export` against the running instance: `--wait --download` starts an export,
 * follows it to its end and saves the file, whose records are those the list returns; a refused
 * export names the field and exits 1.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newPartner, type TestPartner } from '../harness/api';
import { patchbay } from '../support/cli';
import { ingestRecords, walkList } from '../support/record-exports';

let dir: string;
let partner: TestPartner;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-export-cli-'));
  partner = await newPartner();
  await ingestRecords(
    partner,
    '/calls/call_drs',
    Array.from({ length: 300 }, (_, i) => ({
      dr_sid: randomUUID(),
      date_start: new Date(Date.UTC(2024, 6, 1) + i * 1000).toISOString(),
      date_stop: new Date(Date.UTC(2024, 6, 1) + i * 1000 + 30_000).toISOString(),
      direction: i % 2 === 0 ? 'inbound' : 'outbound',
    })),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('--wait --download saves the export: CSV of the filtered records, in listing order', async () => {
  const out = path.join(dir, 'calls.csv');
  const filter = 'direction eq "inbound"';
  const res = await patchbay(
    '--token',
    partner.token,
    'records',
    'export',
    '--kind',
    'calls',
    '--filter',
    filter,
    '--format',
    'csv',
    '--compression',
    'none',
    '--download',
    out,
  );
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  const printed = JSON.parse(res.stdout);
  expect(printed).toMatchObject({ status: 'done', record_count: 150, format: 'csv', filter });
  const rows = (await readFile(out, 'utf8')).trim().split('\r\n');
  const sidCol = rows[0].split(',').indexOf('dr_sid');
  expect(rows.slice(1).map((r) => r.split(',')[sidCol])).toEqual(
    (await walkList(partner, '/calls/call_drs', filter)).map((r) => r.dr_sid),
  );
}, 60_000);

test('a refused export names the field and exits 1', async () => {
  const res = await patchbay('--token', partner.token, 'records', 'export', '--kind', 'calls', '--format', 'xml');
  expect(res.code).toBe(1);
  expect(res.stderr).toContain('format');
});

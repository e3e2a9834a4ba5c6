/**
 * `pnpm patchbay records import --kind calls|messages <file.ndjson>` against the running instance:
 * the file is streamed to the bulk-ingest route; a second import is a harmless replay.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { API, http, newPartner, type TestPartner } from '../harness/api';
import { patchbay } from '../support/cli';

let dir: string;
let partner: TestPartner;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-records-cli-'));
  partner = await newPartner();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('patchbay records import', () => {
  test('imports calls from NDJSON as the caller; a second import only finds duplicates', async () => {
    const file = path.join(dir, 'calls.ndjson');
    const lines = Array.from({ length: 1200 }, (_, i) =>
      JSON.stringify({
        dr_sid: randomUUID(),
        date_start: new Date(Date.UTC(2024, 6, 1) + i * 1000).toISOString(),
        date_stop: new Date(Date.UTC(2024, 6, 1) + i * 1000 + 30_000).toISOString(),
        price: '0.002',
      }),
    );
    await writeFile(file, `${lines.join('\n')}\n`);
    // Three requests of at most 500 records.
    const first = await patchbay(
      '--token',
      partner.token,
      'records',
      'import',
      '--kind',
      'calls',
      '--per-request',
      '500',
      file,
    );
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      received: 1200,
      stored: 1200,
      duplicates: 0,
      rejected: 0,
      complete: true,
    });
    expect(first.stderr).toContain('stored 1200');
    const list = await http()
      .get(`${API}/calls/call_drs?limit=1000&include_fields=partner_sid`)
      .set(...partner.auth);
    expect(list.body.count).toBe(1000);
    expect(list.body.has_more).toBe(true);
    const again = await patchbay('--token', partner.token, 'records', 'import', '--kind', 'calls', file);
    expect(JSON.parse(again.stdout)).toMatchObject({ stored: 0, duplicates: 1200 });
  }, 60_000);

  test('messages, split over requests; refused lines make it exit 2 with the report', async () => {
    const file = path.join(dir, 'messages.ndjson');
    // Positions count non-empty lines across requests (two records per request here).
    await writeFile(
      file,
      [
        JSON.stringify({ dr_sid: randomUUID(), type: 'sms' }),
        '',
        '{oops',
        JSON.stringify({ dr_sid: randomUUID(), mcc: 'x' }),
      ].join('\n'),
    );
    const res = await patchbay(
      '--login',
      partner.login,
      '--password',
      partner.password,
      'records',
      'import',
      '--kind',
      'messages',
      '--per-request',
      '2',
      file,
    );
    expect(res.code).toBe(2);
    const report = JSON.parse(res.stdout);
    expect(report).toMatchObject({ received: 3, stored: 1, rejected: 2 });
    expect(report.errors.map((e: { position: number }) => e.position)).toEqual([1, 2]);
  }, 60_000);

  test('unknown fields are dropped, not refused: their counts are added up over the requests', async () => {
    const file = path.join(dir, 'grown.ndjson');
    const lines = Array.from({ length: 5 }, (_, i) =>
      JSON.stringify({ dr_sid: randomUUID(), type: 'sms', carrier_hint: 'x', ...(i % 2 === 0 && { new_in_v9: i }) }),
    );
    await writeFile(file, `${lines.join('\n')}\n`);
    const res = await patchbay(
      '--token',
      partner.token,
      'records',
      'import',
      '--kind',
      'messages',
      '--per-request',
      '2',
      file,
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      received: 5,
      stored: 5,
      rejected: 0,
      ignored_fields: { carrier_hint: 5, new_in_v9: 3 },
    });
    expect(res.stderr).toContain('dropped: carrier_hint, new_in_v9');
  }, 60_000);

  test('a bad kind or an API error exits 1 with a message', async () => {
    const file = path.join(dir, 'x.ndjson');
    await writeFile(file, '{}\n');
    const kind = await patchbay('--token', partner.token, 'records', 'import', '--kind', 'faxes', file);
    expect(kind.code).toBe(1);
    expect(kind.stderr).toContain('--kind must be one of: calls, messages');
    const reader = await newPartner({ scopes: ['calls.read'] });
    const denied = await patchbay('--token', reader.token, 'records', 'import', '--kind', 'calls', file);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('HTTP 403');
  }, 60_000);
});

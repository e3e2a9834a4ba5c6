/**
 * Lists and errors with the `patchbay` command line, run as a process from a directory of its own:
 * detail records walked by cursor to the end (JSON, CSV), endpoints, and what a failure prints — the
 * URL and cause for a server that is not there, the message and each field for an API error.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { newPartner, type TestPartner } from '../harness/api';
import { patchbayIn, patchbayOnTerminal } from '../support/cli';

let dir: string;
let partner: TestPartner;
const sids: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-cli-lists-'));
  partner = await newPartner();
  // 23 call records, one second apart: the listing order (date_stop) is the order written.
  const lines = Array.from({ length: 23 }, (_, i) => {
    const sid = randomUUID();
    sids.push(sid);
    const start = Date.UTC(2026, 0, 1) + i * 1000;
    return JSON.stringify({
      dr_sid: sid,
      date_start: new Date(start).toISOString(),
      date_stop: new Date(start + 30_000).toISOString(),
      number_src: `+1555000${String(i).padStart(4, '0')}`,
      price: '0.01',
    });
  });
  await writeFile(path.join(dir, 'calls.ndjson'), `${lines.join('\n')}\n`);
  const imported = await as(['records', 'import', '--kind', 'calls', 'calls.ndjson', '--no-progress']);
  if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

const as = (args: string[]) => patchbayIn(dir, ['--token', partner.token, ...args]);

test('records calls list --all follows the cursors to the end: each record once, in order (JSON, CSV)', async () => {
  const [all, csv, one] = await Promise.all([
    as(['records', 'calls', 'list', '--limit', '5', '--all']), // not a terminal: JSON
    as(['records', 'calls', 'list', '--limit', '7', '--all', '--csv', '--filter', 'price eq "0.01"']),
    as(['records', 'calls', 'list', '--limit', '4', '--json']),
  ]);
  expect(all.stderr).toBe('');
  const items = (JSON.parse(all.stdout) as { items: Array<{ dr_sid: string }> }).items;
  expect(items.map((r) => r.dr_sid)).toEqual(sids);

  const rows = csv.stdout.trimEnd().split('\n');
  expect(rows[0].split(',')).toContain('dr_sid');
  const col = rows[0].split(',').indexOf('dr_sid');
  expect(rows.slice(1).map((r) => r.split(',')[col])).toEqual(sids);

  // One page: the API's envelope as it is, with the link to go on by hand.
  const page = JSON.parse(one.stdout) as { items: Array<{ dr_sid: string }>; pagination: { next?: string } };
  expect(page.items.map((r) => r.dr_sid)).toEqual(sids.slice(0, 4));
  expect(page.pagination.next).toMatch(/offset=4/);
}, 60_000);

test('endpoints: create, list by type, get, delete', async () => {
  const created = await as(['endpoints', 'create', '--type', 'flexml', '--name', 'cli-ivr']);
  expect(created.code).toBe(0);
  const sid = (JSON.parse(created.stdout) as { endpoint_sid: string }).endpoint_sid;
  const [listed, got] = await Promise.all([
    as(['endpoints', 'list', '--type', 'flexml', '--json']),
    as(['endpoints', 'get', sid]),
  ]);
  expect(
    (JSON.parse(listed.stdout) as { items: Array<{ endpoint_sid: string }> }).items.map((e) => e.endpoint_sid),
  ).toEqual([sid]);
  expect(JSON.parse(got.stdout)).toMatchObject({ endpoint_sid: sid, type: 'flexml', name: 'cli-ivr' });
  const del = await as(['endpoints', 'delete', sid]);
  expect(del.code).toBe(0);
  expect((await as(['endpoints', 'get', sid])).stderr).toContain('HTTP 404');
}, 60_000);

test('errors: no server names the URL and "connection refused"; an API error prints each field', async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo; // why: listening on TCP
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const url = `http://127.0.0.1:${port}/core/v2`;

  const [down, bad, nothing] = await Promise.all([
    patchbayIn(dir, ['containers', 'list'], { PATCHBAY_URL: url, PATCHBAY_TOKEN: partner.token }),
    as(['containers', 'create', '--name', 'x', '--set', 'quota_bytes=-5', '--set', 'allow_publish="maybe"']),
    as(['partner', 'update', partner.partner_sid]),
  ]);
  expect(down.code).toBe(1);
  expect(down.stderr.split('\n')[0]).toBe(`cannot reach ${url}: connection refused`);
  expect(down.stderr).not.toContain(partner.token);

  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/^HTTP 400: validation error\n/);
  expect(bad.stderr).toContain('\n  - quota_bytes: must be >= 0');
  expect(bad.stderr).toContain('\n  - allow_publish: must be boolean');

  expect(nothing.code).toBe(1);
  expect(nothing.stderr).toContain('nothing to change');
}, 60_000);

test('on a terminal: a list is a table that says how many of how many; an upload draws a progress bar', async () => {
  await writeFile(path.join(dir, 'big.bin'), Buffer.alloc(3_000_000, 7));
  const env = { PATCHBAY_TOKEN: partner.token };
  const [calls, up] = await Promise.all([
    patchbayOnTerminal(dir, ['records', 'calls', 'list', '--limit', '3'], env),
    patchbayOnTerminal(dir, ['files', 'upload', 'big.bin', '--name', 'big.bin'], env),
  ]);
  expect(calls.code).toBe(0);
  const lines = calls.stdout.replace(/\r/g, '').trimEnd().split('\n');
  expect(lines[0]).toMatch(/^dr_sid +date_start +date_stop +direction/);
  expect(lines.slice(1, 4).map((l) => l.split(/ +/)[0])).toEqual(sids.slice(0, 3));
  expect(lines[4]).toBe('3 shown (more follow: --all for every page)'); // records are not counted (total null)
  expect(up.code).toBe(0);
  expect(up.stdout).toMatch(/uploading .*100% \| 3000000\/3000000 bytes/);
}, 60_000);

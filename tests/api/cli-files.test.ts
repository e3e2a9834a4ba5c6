/**
 * The daily storage tasks with the `patchbay` command line, run as a process from a directory of
 * its own (not the checkout) with relative paths, against the running instance: containers up to
 * the limit and past it once raised, files up, listed, down and deleted.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { instance, newPartner, type TestPartner } from '../harness/api';
import { patchbayIn, pnpmPatchbayIn } from '../support/cli';

let dir: string;
let partner: TestPartner;
const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-cli-files-'));
  partner = await newPartner();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const as = (args: string[]) => patchbayIn(dir, ['--token', partner.token, ...args]);

test('containers: create, hit the limit (the error says how to raise it), raise it, update, list, delete', async () => {
  const second = await as(['containers', 'create', '--name', 'archive', '--quota-files', '50']);
  expect(second.stderr).toBe('');
  expect(second.code).toBe(0);
  const archive = json(second.stdout);
  expect(archive).toMatchObject({ name: 'archive', quota_files: 50, is_default: false });

  const third = await as(['containers', 'create', '--name', 'third']);
  expect(third.code).toBe(1);
  expect(third.stderr).toContain('HTTP 422');
  expect(third.stderr).toContain('partner has reached its limit of 2 containers');
  expect(third.stderr).toContain(`patchbay partner update ${partner.partner_sid} --max-containers 3`);

  // The operator raises it; the partner's other attributes are kept.
  const admin = ['--token', instance().token, 'partner', 'update', partner.partner_sid];
  await patchbayIn(dir, [...admin, '--attribute', 'plan="gold"']);
  const raised = await patchbayIn(dir, [...admin, '--max-containers', '3']);
  expect(raised.code).toBe(0);
  expect(json(raised.stdout).attributes).toEqual({ plan: 'gold', max_containers: 3 });
  const now = await as(['containers', 'create', '--name', 'third']);
  expect(now.code).toBe(0);
  const third2 = json(now.stdout);

  const [got, updated] = await Promise.all([
    as(['containers', 'get', String(archive.container_sid)]),
    as(['containers', 'update', String(third2.container_sid), '--name', 'renamed', '--set', 'quota_bytes=1048576']),
  ]);
  expect(json(got.stdout).name).toBe('archive');
  expect(json(updated.stdout)).toMatchObject({ name: 'renamed', quota_bytes: 1048576 });

  const list = await as(['containers', 'list', '--all', '--json']);
  const names = (json(list.stdout).items as Array<{ name: string }>).map((c) => c.name).sort();
  expect(names).toEqual(['archive', 'default', 'renamed']);

  const del = await as(['containers', 'delete', String(third2.container_sid)]);
  expect(del.code).toBe(0);
  expect(del.stderr).toBe(`deleted container ${third2.container_sid}\n`);
  const gone = await as(['containers', 'get', String(third2.container_sid)]);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain('HTTP 404');
}, 60_000);

test('files: upload a relative path, list, download to -o and by name, refuse to overwrite, delete', async () => {
  const bytes = randomBytes(200_000);
  await mkdir(path.join(dir, 'in'), { recursive: true });
  await writeFile(path.join(dir, 'in', 'tone.bin'), bytes);

  const up = await as(['files', 'upload', 'in/tone.bin', '--publish']);
  expect(up.stderr).toBe(''); // not a terminal: no progress bar
  expect(up.code).toBe(0);
  const file = json(up.stdout);
  expect(file).toMatchObject({ name: 'tone.bin', file_bytes: bytes.length, publish: 'file_sid' });
  expect(file.publish_uri).toEqual(expect.stringContaining('/f/'));
  const sid = String(file.file_sid);

  const [listed, other, got] = await Promise.all([
    as(['files', 'list', '--filter', 'name eq "tone.bin"', '--json']),
    as(['files', 'list', '--filter', 'name eq "not-there"', '--json']),
    as(['files', 'get', sid]),
  ]);
  expect((json(listed.stdout).items as Array<{ file_sid: string }>).map((f) => f.file_sid)).toEqual([sid]);
  expect(json(other.stdout).items).toEqual([]);
  expect(json(got.stdout).file_sid).toBe(sid);

  // -o is relative to where the command runs; without -o the file's name, here.
  const [named, byName] = await Promise.all([
    as(['files', 'download', sid, '-o', 'in/copy.bin']),
    as(['files', 'download', sid]),
  ]);
  expect(named.code).toBe(0);
  expect(byName.code).toBe(0);
  expect(await readFile(path.join(dir, 'in', 'copy.bin'))).toEqual(bytes);
  expect(await readFile(path.join(dir, 'tone.bin'))).toEqual(bytes);
  const again = await as(['files', 'download', sid, '-o', 'in/copy.bin']);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('in/copy.bin exists');

  const del = await as(['files', 'delete', sid]);
  expect(del.code).toBe(0);
  const after = await as(['files', 'get', sid]);
  expect(after.stderr).toContain('HTTP 404');
}, 60_000);

test('through pnpm, paths are the directory pnpm was called from (INIT_CWD), not the checkout', async () => {
  const sub = path.join(dir, 'pnpm-here');
  await mkdir(sub, { recursive: true });
  await writeFile(path.join(sub, 'note.txt'), 'hello from a subdirectory\n');
  const up = await pnpmPatchbayIn(sub, ['--token', partner.token, 'files', 'upload', 'note.txt', '--name', 'n.txt']);
  expect(up.stderr).toBe('');
  const sid = String(json(up.stdout).file_sid);
  const down = await pnpmPatchbayIn(sub, ['--token', partner.token, 'files', 'download', sid, '-o', 'back.txt']);
  expect(down.code).toBe(0);
  expect(await readFile(path.join(sub, 'back.txt'), 'utf8')).toBe('hello from a subdirectory\n');
  await expect(stat(path.resolve(__dirname, '../..', 'back.txt'))).rejects.toThrow();
}, 60_000);

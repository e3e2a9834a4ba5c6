/**
 * Logs for people and for machines (decisions §24): on a terminal one readable line per event, JSON
 * when the output is not a terminal or LOG_FORMAT=json, and credentials redacted either way. A real
 * process writes the events (fixtures/log-lines.ts); util-linux's `script` gives it a terminal.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const FIXTURE = path.join(__dirname, 'fixtures/log-lines.ts');
// eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
const ANSI = /\u001b\[[0-9;]*m/g;

/** The fixture's output lines, from a terminal (`tty`) or a pipe, with LOG_FORMAT as given. */
async function logLines(where: 'tty' | 'pipe', logFormat?: string): Promise<{ raw: string; lines: string[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_FORMAT: logFormat ?? '' };
  delete env.FORCE_COLOR;
  const { stdout } =
    where === 'tty'
      ? await run('script', ['-qfec', `${TSX} ${FIXTURE}`, '/dev/null'], { env })
      : await run(TSX, [FIXTURE], { env });
  return { raw: stdout, lines: stdout.replace(ANSI, '').split(/\r?\n/).filter(Boolean) };
}

const READABLE = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (INFO|WARN|ERROR): /;

test('on a terminal: one readable line per event, with its service and module, secrets redacted', async () => {
  const { raw, lines } = await logLines('tty');
  expect(lines).toHaveLength(4);
  for (const line of lines) expect(line).toMatch(READABLE);
  expect(lines[0]).toMatch(
    /INFO: \[storage\/uploads\] file stored \{"file_sid":"f-1","bytes":42,"password":"\[redacted\]"\}$/,
  );
  expect(lines[1]).toMatch(/WARN: \[storage\/uploads\] something odd \{"partner":\{"token":"\[redacted\]"\}\}$/);
  expect(lines[2]).toMatch(
    /ERROR: \[storage\/uploads\] upload failed — Error: disk full \(at .*log-lines\.ts:\d+:\d+\)$/,
  );
  expect(lines[3]).toMatch(/INFO: plain line$/);
  expect(raw).not.toMatch(/hunter2|tok-secret/);
  expect(raw).toMatch(ANSI); // coloured, since it is a terminal
});

test('on a terminal with LOG_FORMAT=json: JSON lines', async () => {
  const { lines } = await logLines('tty', 'json');
  expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['file stored', 'something odd', 'upload failed', 'plain line']);
});

test('through a pipe: JSON lines by default, with the whole error and secrets redacted', async () => {
  const { raw, lines } = await logLines('pipe');
  const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(events[0]).toMatchObject({
    level: 30,
    svc: 'storage',
    mod: 'uploads',
    file_sid: 'f-1',
    password: '[redacted]',
    msg: 'file stored',
  });
  expect(events[2]).toMatchObject({
    level: 50,
    err: { type: 'Error', message: 'disk full', stack: expect.stringContaining('log-lines.ts') },
  });
  expect(raw).not.toMatch(/hunter2|tok-secret/);
});

test('through a pipe with LOG_FORMAT=pretty: readable lines, without colours', async () => {
  const { raw, lines } = await logLines('pipe', 'pretty');
  expect(lines).toHaveLength(4);
  for (const line of lines) expect(line).toMatch(READABLE);
  expect(raw).not.toMatch(ANSI);
});

/**
 * Every command of the command line has a description and an example in its --help, and the
 * connection's secrets never show in it; paths resolve against where the user ran the command.
 */
import type { Command } from 'commander';
import { allCommands, buildProgram } from '../src/program';
import { userDir } from '../src/paths';

function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}

const commands = allCommands(buildProgram({ PATCHBAY_TOKEN: 'secret-token-1', PATCHBAY_PASSWORD: 'secret-pw' }));

test('the daily commands exist', () => {
  const names = commands.map((c) => {
    const path: string[] = [];
    for (let x: Command | null = c; x; x = x.parent) path.unshift(x.name());
    return path.join(' ');
  });
  for (const expected of [
    'patchbay containers list',
    'patchbay containers create',
    'patchbay containers update',
    'patchbay containers delete',
    'patchbay files upload',
    'patchbay files download',
    'patchbay files list',
    'patchbay files delete',
    'patchbay records calls list',
    'patchbay records messages list',
    'patchbay endpoints create',
    'patchbay endpoints delete',
    'patchbay partner update',
  ])
    expect(names).toContain(expected);
});

test.each(commands.map((c) => [c.name(), c] as const))('%s: --help has a description and an example', (_n, cmd) => {
  const help = helpOf(cmd);
  expect(cmd.description()).not.toBe('');
  expect(help).toMatch(/\nExamples:\n( {2}\$ .*\n)* {2}\$ (\w+=\S+ )?patchbay /);
  expect(help).not.toContain('secret-token-1');
  expect(help).not.toContain('secret-pw');
});

test('paths: INIT_CWD only when run as the pnpm script, else the working directory', () => {
  expect(userDir({ npm_lifecycle_event: 'patchbay', INIT_CWD: '/home/me/calls' }, '/checkout')).toBe('/home/me/calls');
  expect(userDir({ npm_lifecycle_event: 'test', INIT_CWD: '/checkout' }, '/tmp/x')).toBe('/tmp/x');
  expect(userDir({}, '/tmp/y')).toBe('/tmp/y');
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { instance } from '../harness/api';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

async function exec(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  try {
    // No inherited INIT_CWD / npm_lifecycle_event: the command sees only what its own runner sets.
    const { INIT_CWD: _i, npm_lifecycle_event: _e, ...inherited } = process.env;
    const { stdout, stderr } = await run(file, args, { cwd, env: { ...inherited, ...env } });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number }; // why: execFile's error carries these
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/** `pnpm patchbay …` against this project's running instance, over its public HTTP API. */
export async function patchbay(...args: string[]): Promise<CliResult> {
  return exec(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    [path.join(ROOT, 'packages/cli/src/main.ts'), '--url', instance().baseUrl, ...args],
    ROOT,
  );
}

/**
 * The `patchbay` bin (what `npx patchbay` runs) in `cwd`, as a user in that directory would run it:
 * relative paths are theirs. `--url` is the instance's unless `env` gives PATCHBAY_URL.
 */
export function patchbayIn(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const url = env.PATCHBAY_URL ? [] : ['--url', instance().baseUrl];
  return exec(path.join(ROOT, 'node_modules/.bin/patchbay'), [...url, ...args], cwd, env);
}

/** `pnpm -C <checkout> patchbay …` typed in `cwd`: pnpm runs it in the checkout and says `cwd` in INIT_CWD. */
export function pnpmPatchbayIn(cwd: string, args: string[]): Promise<CliResult> {
  return exec('pnpm', ['--silent', '-C', ROOT, 'patchbay', '--url', instance().baseUrl, ...args], cwd);
}

/**
 * The `patchbay` bin in `cwd` on a terminal (a pseudo-terminal from util-linux's `script`), as a
 * person at a shell runs it: stdout and stderr are that terminal, together in `stdout`.
 */
export function patchbayOnTerminal(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const line = [path.join(ROOT, 'node_modules/.bin/patchbay'), '--url', instance().baseUrl, ...args].map(quote);
  return exec('script', ['-qec', line.join(' '), '/dev/null'], cwd, { COLUMNS: '160', ...env });
}

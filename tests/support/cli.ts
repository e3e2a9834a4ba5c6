import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { instance } from '../harness/api';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/** `pnpm patchbay …` against this project's running instance, over its public HTTP API. */
export async function patchbay(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      [path.join(ROOT, 'packages/cli/src/main.ts'), '--url', instance().baseUrl, ...args],
      { cwd: ROOT },
    );
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

import path from 'node:path';

/**
 * The directory the user ran the command in. Through `pnpm patchbay` the process runs in the
 * checkout root, and pnpm says where it was called from in INIT_CWD; run any other way (`npx
 * patchbay`, the bin, tsx) it is the working directory. INIT_CWD is only trusted while this process
 * is that pnpm script (npm_lifecycle_event), since any child of another script (`pnpm test`) inherits
 * its INIT_CWD too.
 */
export function userDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return env.npm_lifecycle_event === 'patchbay' && env.INIT_CWD ? env.INIT_CWD : cwd;
}

/** A path the user typed, resolved against the directory they ran the command in (`-` stays stdout/stdin). */
export function userPath(p: string): string {
  return p === '-' ? p : path.resolve(userDir(), p);
}

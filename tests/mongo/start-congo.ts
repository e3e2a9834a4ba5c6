/**
 * An in-memory CongoDB in a child process, for jest tests: jest's CommonJS module system cannot
 * load the ESM-only package, so `congo-main.ts` runs it under tsx and prints its URL.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const START_LIMIT_MS = 20_000;

export interface CongoProcess {
  url: string;
  /** Stops the server (closing its stdin, then SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

export async function startCongoProcess(): Promise<CongoProcess> {
  const child = spawn(TSX, [path.join(__dirname, 'congo-main.ts')], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (b: Buffer) => {
    log = (log + b.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`CongoDB did not start within ${START_LIMIT_MS} ms:\n${log}`)),
      START_LIMIT_MS,
    );
    readline.createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { url: string }).url);
      } catch {
        reject(new Error(`unexpected first line from CongoDB: ${line}\n${log}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CongoDB exited with ${code}:\n${log}`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGTERM'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

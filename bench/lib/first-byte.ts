import http from 'node:http';
import { spawn } from 'node:child_process';

/** When an answer's first body byte came and when it ended (ms from the start), and its bytes. */
export interface Timed {
  firstMs: number;
  totalMs: number;
  body: Buffer;
}

/** A GET timed to its first body byte and to its end; rejects on a status other than 200 or a cut answer. */
export function timedGet(url: string): Promise<Timed> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`${url}: ${res.statusCode}`));
          return;
        }
        let firstMs = -1;
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => {
          if (firstMs < 0) firstMs = performance.now() - t;
          chunks.push(b);
        });
        res.once('end', () => {
          if (!res.complete) reject(new Error(`${url}: cut`));
          else resolve({ firstMs, totalMs: performance.now() - t, body: Buffer.concat(chunks) });
        });
        res.once('error', reject);
      })
      .once('error', reject);
  });
}

/** A command's stdout timed the same way: the baseline of a streamed answer (ffmpeg writing to a pipe). */
export function timedCommand(command: string, args: string[]): Promise<Timed> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let firstMs = -1;
    const chunks: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => {
      if (firstMs < 0) firstMs = performance.now() - t;
      chunks.push(b);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`${command} exited with ${code}`));
      else resolve({ firstMs, totalMs: performance.now() - t, body: Buffer.concat(chunks) });
    });
  });
}

import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** GETs `url` (optionally a Range) and drains the body; resolves with bytes received. */
export function fetchDrain(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => {
          n += c.length;
        });
        res.on('end', () =>
          res.statusCode && res.statusCode < 300 ? resolve(n) : reject(new Error(`${url}: ${res.statusCode}`)),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Runs `total` calls of `one(i)` with `concurrency` in flight; resolves with elapsed ms. */
export async function hammer(
  total: number,
  concurrency: number,
  one: (i: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(next++);
    }),
  );
  return performance.now() - started;
}

/**
 * Two small HTTP servers on 127.0.0.1 port 0 for what s3rver cannot show: one that answers every
 * request with a given S3 error (s3rver checks no signature and no policy), and a recording proxy in
 * front of s3rver (to see which requests the adapter sent).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface FakeServer {
  endpoint: string;
  seen: Seen[];
  stop(): Promise<void>;
}

/** Answers `status` with S3's XML error body for `code` (no body for HEAD, as S3 does). */
export function startS3ErrorServer(status: number, code: string): Promise<FakeServer> {
  return serve((req, res, seen) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    const body =
      `<?xml version="1.0" ` +
      `encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${code}</Message><RequestId>1</RequestId></Error>`;
    res.writeHead(status, {
      'content-type': 'application/xml',
      'content-length': req.method === 'HEAD' ? 0 : Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}

/** Forwards every request to `target` and records it. */
export function startRecordingProxy(target: string): Promise<FakeServer> {
  const { hostname, port } = new URL(target);
  return serve((req, res, seen) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    const upstream = http.request(
      { host: hostname, port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
}

function serve(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen[]) => void,
): Promise<FakeServer> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => handle(req, res, seen));
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

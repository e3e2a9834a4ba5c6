/**
 * A small fake of the Google Cloud Storage JSON API on 127.0.0.1 port 0, for what
 * `@google-cloud/storage` 7 does with `apiEndpoint` set (no auth calls then): resumable uploads
 * (session POST, one PUT of the whole body, DELETE to cancel), media downloads with Range, object
 * metadata, delete, list by prefix with pages, and GCS's JSON errors. Objects live in memory and are replaced
 * whole when an upload completes, as on GCS; an upload cut short leaves nothing.
 *
 * Buckets are declared at start: `ok` works, `denied` answers 403 to everything (a service account
 * without the role), `unauthorized` 401 (credentials GCS does not accept), `failing-uploads` opens
 * sessions but answers their PUT with a 503 at once, without reading the body, `corrupting-uploads`
 * stores every upload with its first byte flipped (and hashes of what it stored). Any other bucket is 404.
 */
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32c } from './crc32c';

export type BucketMode = 'ok' | 'denied' | 'unauthorized' | 'failing-uploads' | 'corrupting-uploads';

interface StoredObject {
  data: Buffer;
  generation: number;
  updated: Date;
  md5: string;
  crc32c: string;
}

export interface FakeGcs {
  endpoint: string;
  /** Open resumable sessions: what an upload that neither completed nor was cancelled leaves. */
  sessions: Map<string, { bucket: string; name: string }>;
  /** `METHOD path?query` of every request, for assertions on what the library sent. */
  seen: string[];
  /** Upload PUTs whose request has neither ended nor been closed by the client. */
  openUploads(): number;
  /** Flips a byte of a stored object, leaving its recorded hashes as they were. */
  corrupt(bucket: string, name: string): void;
  stop(): Promise<void>;
}

export async function startFakeGcs(buckets: Record<string, BucketMode>): Promise<FakeGcs> {
  const objects = new Map<string, Map<string, StoredObject>>(Object.keys(buckets).map((b) => [b, new Map()]));
  const sessions = new Map<string, { bucket: string; name: string }>();
  const seen: string[] = [];
  let openUploads = 0;
  let generation = 1;
  let endpoint = '';

  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://fake');
    seen.push(`${req.method} ${url.pathname}${url.search}`);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      const text = body === undefined ? '' : JSON.stringify(body);
      res.writeHead(status, {
        ...(text ? { 'content-type': 'application/json; charset=UTF-8' } : {}),
        'content-length': String(Buffer.byteLength(text)),
        ...headers,
      });
      res.end(text);
    };
    const m = /^\/(upload\/)?storage\/v1\/b\/([^/]+)\/o(?:\/(.+))?$/.exec(url.pathname);
    if (!m) return send(404, gcsError(404, 'Not Found', 'notFound'));
    const [, upload, bucket, encodedName] = m;
    const mode = buckets[bucket!];
    if (!mode) return drain(req, () => send(404, gcsError(404, 'The specified bucket does not exist.', 'notFound')));
    if (mode === 'denied') {
      return drain(req, () =>
        send(
          403,
          gcsError(
            403,
            `probe@patchbay-test.iam.gserviceaccount.com does not have ` +
              `storage.objects.${req.method === 'GET' ? 'get' : 'create'} access to ` +
              `the Google Cloud Storage object. Permission denied on resource (or it ` +
              `may not exist).`,
            'forbidden',
          ),
        ),
      );
    }
    if (mode === 'unauthorized') return drain(req, () => send(401, gcsError(401, 'Invalid Credentials', 'authError')));
    const store = objects.get(bucket!)!;
    const name = encodedName === undefined ? undefined : decodeURIComponent(encodedName);

    if (upload && req.method === 'POST' && url.searchParams.get('uploadType') === 'resumable') {
      const id = randomUUID();
      sessions.set(id, { bucket: bucket!, name: url.searchParams.get('name')! });
      return drain(req, () =>
        send(200, undefined, {
          location: `${endpoint}/upload/storage/v1/b/${bucket}/o?uploadType=resumable&upload_id=${id}`,
        }),
      );
    }
    if (upload && req.method === 'DELETE' && sessions.delete(url.searchParams.get('upload_id') ?? '')) {
      return drain(req, () => send(499)); // GCS's answer to a cancelled upload
    }
    if (upload && req.method === 'PUT') {
      const id = url.searchParams.get('upload_id') ?? '';
      const session = sessions.get(id);
      if (!session) return drain(req, () => send(404, gcsError(404, 'No such upload', 'notFound')));
      if (mode === 'failing-uploads') return send(503, gcsError(503, 'Backend Error', 'backendError'));
      const chunks: Buffer[] = [];
      openUploads += 1;
      req.once('close', () => {
        openUploads -= 1;
      });
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        // Our client sends the whole object in one request, ending it: the object exists from now on.
        sessions.delete(id);
        const data = Buffer.concat(chunks);
        if (mode === 'corrupting-uploads' && data.length > 0) data[0] ^= 0xff;
        const obj = {
          data,
          generation: generation++,
          updated: new Date(),
          md5: createHash('md5').update(data).digest('base64'),
          crc32c: crc32c(data),
        };
        store.set(session.name, obj);
        send(200, metadata(bucket!, session.name, obj));
      });
      return undefined;
    }
    if (!upload && req.method === 'GET' && name === undefined) return send(200, list(bucket!, store, url.searchParams));
    const obj = name === undefined ? undefined : store.get(name);
    if (!upload && name !== undefined && !obj)
      return drain(req, () => send(404, gcsError(404, `No such object: ${bucket}/${name}`, 'notFound')));
    if (!upload && req.method === 'DELETE' && obj) {
      store.delete(name!);
      return send(204);
    }
    if (!upload && req.method === 'GET' && obj && url.searchParams.get('alt') === 'media') return media(req, res, obj);
    if (!upload && req.method === 'GET' && obj) return send(200, metadata(bucket!, name!, obj));
    return drain(req, () => send(405, gcsError(405, 'Method not allowed', 'methodNotAllowed')));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    sessions,
    seen,
    openUploads: () => openUploads,
    corrupt(bucket, name) {
      const obj = objects.get(bucket)!.get(name)!;
      obj.data = Buffer.from(obj.data);
      obj.data[0] ^= 0xff;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `alt=media`: the bytes, or the asked range of them, with GCS's hash headers. */
function media(req: http.IncomingMessage, res: http.ServerResponse, obj: StoredObject): void {
  const size = obj.data.length;
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'x-goog-hash': `crc32c=${obj.crc32c},md5=${obj.md5}`,
    'x-goog-stored-content-encoding': 'identity',
    'x-goog-generation': String(obj.generation),
  };
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  if (!range) {
    res.writeHead(200, { ...headers, 'content-length': String(size) });
    res.end(obj.data);
    return;
  }
  const start = Number(range[1]);
  const end = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
  if (start >= size) {
    const text = JSON.stringify(
      gcsError(416, 'The requested range cannot be satisfied.', 'requestedRangeNotSatisfiable'),
    );
    res.writeHead(416, {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
    return;
  }
  res.writeHead(206, {
    ...headers,
    'content-length': String(end - start + 1),
    'content-range': `bytes ${start}-${end}/${size}`,
  });
  res.end(obj.data.subarray(start, end + 1));
}

function list(bucket: string, store: Map<string, StoredObject>, q: URLSearchParams): unknown {
  const prefix = q.get('prefix') ?? '';
  const max = Math.min(Number(q.get('maxResults') ?? 1000), 1000);
  const after = q.get('pageToken') ? Buffer.from(q.get('pageToken')!, 'base64url').toString() : '';
  const names = [...store.keys()].filter((n) => n.startsWith(prefix) && n > after).sort();
  const page = names.slice(0, max);
  return {
    kind: 'storage#objects',
    ...(page.length ? { items: page.map((n) => metadata(bucket, n, store.get(n)!)) } : {}),
    ...(names.length > max ? { nextPageToken: Buffer.from(page[page.length - 1]!).toString('base64url') } : {}),
  };
}

function metadata(bucket: string, name: string, o: StoredObject): Record<string, string> {
  return {
    kind: 'storage#object',
    id: `${bucket}/${name}/${o.generation}`,
    name,
    bucket,
    generation: String(o.generation),
    metageneration: '1',
    contentType: 'application/octet-stream',
    storageClass: 'STANDARD',
    size: String(o.data.length),
    md5Hash: o.md5,
    crc32c: o.crc32c,
    timeCreated: o.updated.toISOString(),
    updated: o.updated.toISOString(),
    etag: `CA${o.generation}=`,
  };
}

function gcsError(code: number, message: string, reason: string): unknown {
  return { error: { code, message, errors: [{ message, domain: 'global', reason }] } };
}

/** Reads a request body to its end before answering, as GCS does. */
function drain(req: http.IncomingMessage, then: () => void): void {
  req.resume();
  if (req.readableEnded) then();
  else req.once('end', then);
}

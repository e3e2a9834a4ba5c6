import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SingleBar, Presets } from 'cli-progress';
import { data, idempotent, ok, rawBody, type PatchbayClient, type Schemas, type UploadFields } from '@patchbay/client';
import { nodeReadable, webBody } from '@patchbay/client/src/node-streams';
import { mimeOfFormat } from '@patchbay/contracts/src/media-formats';
import { errorCode } from '@patchbay/platform/src/basics/error-fields';

/** A byte counter between a stream and where it goes, drawing a bar on stderr when that is a terminal. */
function meter(label: string, total: number | null): { through: Transform; done: () => void } {
  const show = process.stderr.isTTY === true && total !== null && total > 0;
  const bar = new SingleBar(
    { format: `${label} {bar} {percentage}% | {value}/{total} bytes | ETA {eta}s`, stream: process.stderr },
    Presets.shades_classic,
  );
  if (show) bar.start(total, 0);
  let moved = 0;
  const through = new Transform({
    transform(chunk: Buffer, _enc, next) {
      moved += chunk.length;
      if (show) bar.update(moved);
      next(null, chunk);
    },
  });
  return { through, done: () => show && bar.stop() };
}

/** The partner's default container (the one an upload goes to without --container). */
export async function defaultContainer(pb: PatchbayClient): Promise<string> {
  const page = await data(
    pb.api.GET('/storage/containers', { params: { query: { filter: 'is_default eq true', limit: 1 } } }),
  );
  const first = page.items[0];
  if (!first?.container_sid) throw new Error('no default container found: give --container <container_sid>');
  return first.container_sid;
}

/**
 * Uploads the file at `file` (an absolute path), streamed from disk and never read whole, with one
 * Idempotency-Key for every attempt: a retry after a lost answer stores it once. Resolves with the File.
 */
export async function uploadFile(
  pb: PatchbayClient,
  file: string,
  fields: UploadFields,
  idempotencyKey?: string,
): Promise<Schemas['File']> {
  const { size } = await fs.promises.stat(file);
  const type = mimeOfFormat(path.extname(file).slice(1).toLowerCase()) ?? 'application/octet-stream';
  let progress: { done: () => void } | undefined;
  try {
    return await data(
      idempotent(
        (headers) => {
          progress?.done();
          const m = meter('uploading', size);
          progress = m;
          // Opened anew for each attempt: a stream is read once.
          const body = webBody(fs.createReadStream(file).pipe(m.through));
          return pb.api.POST('/storage/files', {
            params: { query: fields },
            ...rawBody(body, type, { 'Content-Length': String(size), ...headers }),
          });
        },
        { idempotencyKey },
      ),
    );
  } finally {
    progress?.done();
  }
}

/**
 * Downloads a file's data (Download Data) into `out` (an absolute path, or `-` for stdout). An
 * existing file is refused unless `overwrite`; a download that fails leaves no partial file behind.
 * Resolves with the bytes written.
 */
export async function downloadFile(pb: PatchbayClient, fileSid: string, out: string, overwrite: boolean) {
  const { data: bytes, response } = await ok(
    pb.api.GET('/storage/files/{file_sid}/data', { params: { path: { file_sid: fileSid } }, parseAs: 'stream' }),
  );
  const length = Number(response.headers.get('content-length'));
  const m = meter('downloading', Number.isFinite(length) && length > 0 ? length : null);
  if (out === '-') {
    await pipeline(nodeReadable(bytes), m.through, process.stdout).finally(m.done);
    return;
  }
  const sink = fs.createWriteStream(out, { flags: overwrite ? 'w' : 'wx' });
  try {
    await pipeline(nodeReadable(bytes), m.through, sink);
  } catch (err) {
    if (errorCode(err) === 'EEXIST')
      throw new Error(`${out} exists: give -o <another path>, or --force to overwrite it`);
    await fs.promises.rm(out, { force: true });
    throw err;
  } finally {
    m.done();
  }
}

/**
 * Multipart uploads as clients send them (decisions §41): a `data` part without a filename (what
 * `curl -F 'data=<file'` sends) is the file, however large and whatever its bytes; `file_object`
 * sent as a file part (`curl -F 'file_object=@fields.json'`) is read as the File fields. Checked
 * with hand-made bodies split at awkward places and with curl itself.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { API, http, instance, newPartner, type TestPartner } from '../harness/api';
import { createContainer } from '../support/storage';

const run = promisify(execFile);
let p: TestPartner;
let container = '';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-multipart-'));

beforeAll(async () => {
  p = await newPartner();
  container = (await createContainer(p)).container_sid;
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Part = { name: string; headers?: string; value: Buffer | string };

function body(parts: Part[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts)
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.headers ?? ''}\r\n\r\n`),
      Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const dataOf = async (fileSid: string): Promise<Buffer> =>
  (
    await http()
      .get(`${API}/storage/files/${fileSid}/data`)
      .set(...p.auth)
      .buffer(true)
      .parse((res, cb) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => cb(null, Buffer.concat(parts)));
      })
  ).body as Buffer;

/** Sends `raw` in small writes, so part headers and boundaries straddle chunks. */
async function sendInPieces(raw: Buffer, boundary: string) {
  const { origin } = instance();
  const pieces: Buffer[] = [];
  for (let i = 0; i < raw.length;) {
    const size = i < 400 ? 7 : 65_536;
    pieces.push(raw.subarray(i, i + size));
    i += size;
  }
  const res = await fetch(`${origin}${API}/storage/files`, {
    method: 'POST',
    headers: { [p.auth[0]]: p.auth[1], 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: new ReadableStream({
      pull(controller) {
        const next = pieces.shift();
        if (next) controller.enqueue(new Uint8Array(next));
        else controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test('a data part without a filename is the file: 300 KiB of every byte value, in either order', async () => {
  const bytes = randomBytes(300 * 1024);
  const fields = JSON.stringify({ container_sid: container, name: 'nofilename.bin' });
  for (const parts of [
    [
      { name: 'file_object', value: fields },
      { name: 'data', value: bytes },
    ],
    [
      { name: 'data', value: bytes },
      { name: 'file_object', value: fields },
    ],
  ]) {
    const res = await sendInPieces(body(parts, 'nofilename-boundary'), 'nofilename-boundary');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'nofilename.bin', file_bytes: bytes.length });
    expect((await dataOf(res.body.file_sid as string)).equals(bytes)).toBe(true);
  }
}, 60_000);

test('file_object as a file part (with a filename and a file content type) gives the File fields', async () => {
  for (const headers of [
    '; filename="fields.json"\r\nContent-Type: application/json',
    '; filename="fields.json"\r\nContent-Type: application/octet-stream',
  ]) {
    const raw = body(
      [
        { name: 'file_object', headers, value: JSON.stringify({ container_sid: container, name: 'asfile.txt' }) },
        { name: 'data', headers: '; filename="x.txt"\r\nContent-Type: text/plain', value: 'as a file part' },
      ],
      'fo-boundary',
    );
    const res = await sendInPieces(raw, 'fo-boundary');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'asfile.txt', file_bytes: 14 });
  }
});

test('still refused: no data part at all (400 naming data); a file part of another name (400 naming it)', async () => {
  const fields = JSON.stringify({ container_sid: container });
  const none = await sendInPieces(body([{ name: 'file_object', value: fields }], 'b1'), 'b1');
  expect(none.status).toBe(400);
  expect((none.body.errors as Array<{ field: string }>)[0].field).toBe('data');
  const other = await sendInPieces(
    body(
      [
        { name: 'file_object', value: fields },
        { name: 'other', headers: '; filename="o.bin"', value: 'x' },
      ],
      'b2',
    ),
    'b2',
  );
  expect(other.status).toBe(400);
  expect((other.body.errors as Array<{ field: string }>)[0].field).toBe('other');
});

test('curl -F as people type it: data=<file and file_object=@fields.json', async () => {
  const { origin } = instance();
  const bytes = Buffer.from('curl sends this as a field, without a filename\n'.repeat(2000));
  const dataFile = path.join(tmp, 'payload.txt');
  const fieldsFile = path.join(tmp, 'fields.json');
  fs.writeFileSync(dataFile, bytes);
  fs.writeFileSync(fieldsFile, JSON.stringify({ container_sid: container, name: 'curl.txt' }));
  const { stdout } = await run('curl', [
    '-sS',
    '-H',
    `${p.auth[0]}: ${p.auth[1]}`,
    '-F',
    `file_object=@${fieldsFile};type=application/json`,
    '-F',
    `data=<${dataFile}`,
    '-w',
    '\n%{http_code}',
    `${origin}${API}/storage/files`,
  ]);
  const [json, code] = stdout.split('\n');
  expect(code).toBe('201');
  const file = JSON.parse(json) as { file_sid: string; name: string; file_bytes: number };
  expect(file).toMatchObject({ name: 'curl.txt', file_bytes: bytes.length });
  expect((await dataOf(file.file_sid)).equals(bytes)).toBe(true);
});

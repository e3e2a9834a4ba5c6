/**
 * Plaintext ranges read from only the chunks that hold them, through a fetchRange callback — here
 * HTTP Range requests to a real local server, as the client library will make them. Every range
 * equals the same slice of the original; only the header and the needed chunks are fetched; an
 * altered chunk, a wrong file size or a wrong header_bytes fails.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AgeFormatError,
  AgeIntegrityError,
  AgeRangeReader,
  encryptStream,
  type FetchRange,
  type Identity,
  parseIdentities,
  readPlaintextRange,
} from '../src';
import { digest, randomBytes, readableOf, through } from './support/bytes';
import { makeKeys, type TestKeys } from './support/keys';

interface Stored {
  plaintext: Buffer;
  file: Buffer;
  header_bytes: number;
}

let keys: TestKeys;
let server: http.Server;
let base: string;
const files = new Map<string, Buffer>();
/** Every Range request the server answered, as [start, end]. */
const requests: [number, number][] = [];

beforeAll(async () => {
  keys = makeKeys();
  // A minimal file server with single byte ranges (206), as the public file server answers them.
  server = http.createServer((req, res) => {
    const file = files.get(req.url ?? '');
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!file || !range) return res.writeHead(400).end();
    const [start, end] = [Number(range[1]), Math.min(Number(range[2]), file.length - 1)];
    requests.push([start, end]);
    res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${file.length}` }).end(file.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`; // cast: a TCP server's address is an object
});
afterAll(async () => {
  keys.cleanup();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => (requests.length = 0));

async function store(name: string, size: number, recipients = [keys.ageRecipient]): Promise<Stored> {
  const plaintext = randomBytes(size);
  const enc = encryptStream(recipients);
  const file = await through(enc, readableOf(plaintext));
  files.set(`/${name}`, file);
  return { plaintext, file, header_bytes: enc.summary?.header_bytes ?? -1 };
}

const httpRange =
  (name: string): FetchRange =>
  async (start, end) => {
    const res = await fetch(`${base}/${name}`, { headers: { range: `bytes=${start}-${end}` } });
    return new Uint8Array(await res.arrayBuffer());
  };

const ageIds = (): Identity[] => parseIdentities(fs.readFileSync(keys.ageIdentityFile, 'utf8'));
const options = (name: string, s: Stored, identities = ageIds()) => ({
  fetchRange: httpRange(name),
  identities,
  header_bytes: s.header_bytes,
  file_bytes: s.file.length,
});

test('ranges inside one chunk, across chunks and at the end equal the same slice of the original', async () => {
  const s = await store('five', 5 * 65536 + 1234);
  const reader = await AgeRangeReader.open(options('five', s));
  expect(reader.plaintextBytes).toBe(s.plaintext.length);
  const size = s.plaintext.length;
  for (const [start, end] of [
    [0, 0],
    [100, 200],
    [65535, 65536],
    [65000, 3 * 65536 + 7],
    [0, size - 1],
    [size - 1234, size - 1],
    [size - 10, size + 10_000],
    [4 * 65536, 5 * 65536],
  ]) {
    const got = await reader.read(start, end);
    expect(digest(got)).toEqual(digest(s.plaintext.subarray(start, end + 1)));
  }
  expect(await reader.read(size, size + 5)).toHaveLength(0);
});

test('only the header and the chunks that hold the range are fetched', async () => {
  const s = await store('ten', 10 * 65536);
  const got = await readPlaintextRange(options('ten', s), 3 * 65536 + 10, 4 * 65536 + 10);
  expect(digest(got)).toEqual(digest(s.plaintext.subarray(3 * 65536 + 10, 4 * 65536 + 11)));
  const chunk = (i: number) => s.header_bytes + 16 + i * 65552;
  expect(requests).toEqual([
    [0, s.header_bytes + 15],
    [chunk(3), chunk(5) - 1],
  ]);
  requests.length = 0;
  const reader = await AgeRangeReader.open({ ...options('ten', s), chunksPerFetch: 1 });
  await reader.read(65536 * 8, 65536 * 10);
  expect(requests.slice(1)).toEqual([
    [chunk(8), chunk(9) - 1],
    [chunk(9), s.file.length - 1],
  ]);
});

test.each([0, 1, 65535, 65536, 65537, 3 * 65536])('%i bytes, an RSA identity: whole and last byte', async (size) => {
  const s = await store(`edge-${size}`, size, [keys.rsaPublicKey]);
  const rsa = parseIdentities(fs.readFileSync(keys.rsaPrivateFile, 'utf8'));
  const reader = await AgeRangeReader.open(options(`edge-${size}`, s, rsa));
  expect(digest(await reader.read(0, size + 1))).toEqual(digest(s.plaintext));
  expect(digest(await reader.read(Math.max(0, size - 1), size - 1 + 1))).toEqual(digest(s.plaintext.subarray(-1)));
});

test('an altered chunk, a file size that is not the real one, a wrong header_bytes: errors, not bytes', async () => {
  const s = await store('tamper', 4 * 65536 + 5);
  const altered = Buffer.from(s.file);
  altered[s.header_bytes + 16 + 2 * 65552 + 9] ^= 1;
  files.set('/altered', altered);
  const reader = await AgeRangeReader.open(options('altered', s));
  expect(digest(await reader.read(0, 2 * 65536 - 1))).toEqual(digest(s.plaintext.subarray(0, 2 * 65536)));
  await expect(reader.read(2 * 65536, 2 * 65536)).rejects.toThrow(/chunk #2 does not verify/);
  // Claiming the file ends after chunk 2: chunk 2 is then opened as the last, and it is not.
  const short = { ...options('tamper', s), file_bytes: s.header_bytes + 16 + 3 * 65552 };
  await expect(readPlaintextRange(short, 2 * 65536, 2 * 65536 + 5)).rejects.toThrow(AgeIntegrityError);
  const longer = { ...options('tamper', s), file_bytes: s.file.length + 65552 };
  await expect(readPlaintextRange(longer, 0, 10 ** 7)).rejects.toThrow(/came back as|does not verify/);
  const offHeader = { ...options('tamper', s), header_bytes: s.header_bytes - 1 };
  await expect(readPlaintextRange(offHeader, 0, 5)).rejects.toThrow(AgeFormatError);
});

/**
 * Memory stays flat: 512 MiB of plaintext goes through the encrypter and straight into the decrypter
 * in one process, and the resident set and the heap grow by a few tens of megabytes at most —
 * nothing holds the file (buffering it whole, or a third of it, would pass the 160 MiB bound). The
 * output is checked against the input by SHA-256, so the bytes are right too. (1 GiB until the
 * test tier had to fit in ten minutes: half the size proves the same bound at half the CPU.)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decryptStream, encryptStream, parseIdentities } from '../src';
import { makeKeys, type TestKeys } from './support/keys';

const MiB = 1 << 20;
const TOTAL = 512 * MiB;
let keys: TestKeys;
beforeAll(() => (keys = makeKeys()));
afterAll(() => keys.cleanup());

test('512 MiB through encrypt and decrypt: RSS and heap stay small, bytes intact', async () => {
  const block = crypto.randomBytes(MiB + 17); // odd-sized blocks, so pieces never align with chunks
  const sent = crypto.createHash('sha256');
  let produced = 0;
  const source = new Readable({
    read() {
      if (produced >= TOTAL) return this.push(null);
      const piece = block.subarray(0, Math.min(block.length - (produced % 17), TOTAL - produced));
      produced += piece.length;
      sent.update(piece);
      this.push(piece);
    },
  });
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  let received = 0;
  const got = crypto.createHash('sha256');
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      got.update(chunk);
      received += chunk.length;
      if (received % (16 * MiB) < chunk.length) {
        // Sampled here, in the data path: timers may not run while the pipeline keeps the loop busy.
        const now = process.memoryUsage();
        peakRss = Math.max(peakRss, now.rss);
        peakHeap = Math.max(peakHeap, now.heapUsed);
      }
      callback();
    },
  });
  const enc = encryptStream([keys.ageRecipient]);
  const dec = decryptStream(parseIdentities(fs.readFileSync(keys.ageIdentityFile, 'utf8')));
  await pipeline(source, enc, dec, sink);
  expect(received).toBe(TOTAL);
  expect(got.digest('hex')).toBe(sent.digest('hex'));
  expect(enc.summary?.plaintext_bytes).toBe(TOTAL);
  expect(enc.summary?.file_bytes).toBe((enc.summary?.header_bytes ?? 0) + 16 + TOTAL + (TOTAL / 65536) * 16);
  expect((peakRss - before.rss) / MiB).toBeLessThan(160);
  expect((peakHeap - before.heapUsed) / MiB).toBeLessThan(64);
}, 300_000);

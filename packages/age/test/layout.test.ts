/**
 * The arithmetic of where plaintext lives: chunk i at header_bytes + 16 + i × 65552, the last chunk
 * shorter or full, the empty file one empty chunk; sizes no age file can have are refused.
 */
import { AgeFormatError, ciphertextRange, payloadShape } from '../src';

const H = 200; // a header length
const file = (plaintext: number) => H + 16 + plaintext + 16 * Math.max(1, Math.ceil(plaintext / 65536));
const layout = (plaintext: number) => ({ header_bytes: H, file_bytes: file(plaintext) });

test('the plaintext size and chunk count follow from header_bytes and file_bytes', () => {
  for (const [plaintext, chunks] of [
    [0, 1],
    [1, 1],
    [65535, 1],
    [65536, 1],
    [65537, 2],
    [3 * 65536, 3],
    [3 * 65536 + 1, 4],
  ]) {
    expect(payloadShape(layout(plaintext))).toEqual({ chunks, plaintextBytes: plaintext });
  }
});

test('sizes no age file has are refused', () => {
  expect(() => payloadShape({ header_bytes: H, file_bytes: H + 16 + 15 })).toThrow(AgeFormatError);
  // A full chunk followed by an empty one (or a torn tag): the format never writes that.
  expect(() => payloadShape({ header_bytes: H, file_bytes: H + 16 + 65552 + 16 })).toThrow(AgeFormatError);
  expect(() => payloadShape({ header_bytes: H, file_bytes: H + 16 + 65552 + 8 })).toThrow(AgeFormatError);
  expect(() => payloadShape({ header_bytes: 0, file_bytes: 100 })).toThrow(AgeFormatError);
  expect(() => payloadShape({ header_bytes: H, file_bytes: 1.5 })).toThrow(AgeFormatError);
});

test('a range inside one chunk, across chunks, at the end (clamped), past the end, of an empty file', () => {
  const l = layout(3 * 65536 + 1000); // four chunks, the last holding 1000 bytes
  const at = (i: number) => H + 16 + i * 65552;
  expect(ciphertextRange(l, 10, 20)).toEqual({
    start: at(0),
    end: at(1) - 1,
    firstChunk: 0,
    lastChunk: 0,
    plaintextStart: 10,
    plaintextEnd: 20,
  });
  expect(ciphertextRange(l, 65530, 2 * 65536)).toMatchObject({
    start: at(0),
    end: at(3) - 1,
    firstChunk: 0,
    lastChunk: 2,
  });
  expect(ciphertextRange(l, 3 * 65536 + 500, 10 ** 9)).toEqual({
    start: at(3),
    end: l.file_bytes - 1,
    firstChunk: 3,
    lastChunk: 3,
    plaintextStart: 3 * 65536 + 500,
    plaintextEnd: 3 * 65536 + 999,
  });
  expect(ciphertextRange(l, 3 * 65536 + 1000, 3 * 65536 + 2000)).toBeNull();
  expect(ciphertextRange(layout(0), 0, 10)).toBeNull();
});

test('exact multiples of 64 KiB: the last chunk is full and nothing follows it', () => {
  const l = layout(2 * 65536);
  expect(ciphertextRange(l, 65536, 65536)).toMatchObject({
    start: H + 16 + 65552,
    end: l.file_bytes - 1,
    lastChunk: 1,
  });
  expect(ciphertextRange(l, 2 * 65536, 2 * 65536)).toBeNull();
  expect(ciphertextRange(l, 65535, 65536)).toMatchObject({ firstChunk: 0, lastChunk: 1 });
});

test('a range that is not one is a RangeError', () => {
  expect(() => ciphertextRange(layout(10), 5, 4)).toThrow(RangeError);
  expect(() => ciphertextRange(layout(10), -1, 4)).toThrow(RangeError);
  expect(() => ciphertextRange(layout(10), 0.5, 4)).toThrow(RangeError);
});

import { BoundaryStripper } from '../../src/idempotency/boundary-stripper';

/** What the stripper passes on for `body` cut into pieces of `size` bytes. */
function stripped(boundary: string, body: string, size: number): string {
  const s = new BoundaryStripper(boundary);
  const out: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) out.push(s.push(Buffer.from(body.slice(i, i + size), 'latin1')));
  out.push(s.end());
  return Buffer.concat(out).toString('latin1');
}

const form = (b: string) =>
  `--${b}\r\nContent-Disposition: form-data; name="data"\r\n\r\nbytes -- here\r\n--${b}--\r\n`;

test('forms that differ only in their boundaries strip to the same bytes, however they are cut', () => {
  for (const size of [1, 2, 3, 7, 16, 1000]) {
    expect(stripped('----formdata-undici-0123', form('----formdata-undici-0123'), size)).toBe(form(''));
    expect(stripped('X-boundary-of-another-length-99', form('X-boundary-of-another-length-99'), size)).toBe(form(''));
  }
});

test('only the boundary goes: a near miss, and the content, stay as they are', () => {
  expect(stripped('B1', 'x--B1y', 1)).toBe('x--y');
  expect(stripped('B1', 'x--B2y', 2)).toBe('x--B2y');
  expect(stripped('B1', 'xB', 2)).toBe('xB');
});

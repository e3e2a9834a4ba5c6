import { BLOCK, BlockCache } from '../../src/blob-store/block-cache';

/** BlockCache: slices of held blocks only, the budget held at every put, recently used blocks kept longer. */
const block = (fill: number, length = BLOCK) => Buffer.alloc(length, fill);

it('answers only when every block of the bytes is held, as slices of them', () => {
  const cache = new BlockCache(8 * BLOCK);
  cache.put('f', 0, block(1));
  expect(cache.slices('f', 10, 20)?.map((b) => [b[0], b.length])).toEqual([[1, 20]]);
  expect(cache.slices('f', BLOCK - 5, 10)).toBeUndefined();
  expect(cache.missing('f', BLOCK - 5, 10)).toEqual([1]);
  cache.put('f', 1, block(2, 100)); // the last, short block of the file
  expect(cache.slices('f', BLOCK - 5, 10)?.map((b) => [b[0], b.length])).toEqual([
    [1, 5],
    [2, 5],
  ]);
  expect(cache.slices('g', 0, 1)).toBeUndefined();
});

it('never holds more than its budget, and drops blocks not used since the hand passed first', () => {
  const cache = new BlockCache(4 * BLOCK);
  for (let i = 0; i < 4; i++) cache.put('f', i, block(i));
  cache.slices('f', 0, 1); // block 0 used
  cache.put('f', 4, block(4));
  expect(cache.size).toBe(4 * BLOCK);
  expect(cache.missing('f', 0, 5 * BLOCK)).toEqual([1]);
  for (let i = 5; i < 1000; i++) {
    cache.put(`g${i % 7}`, i, block(i % 256));
    expect(cache.size).toBeLessThanOrEqual(4 * BLOCK);
  }
  expect(new BlockCache(BLOCK - 1).enabled).toBe(false);
});

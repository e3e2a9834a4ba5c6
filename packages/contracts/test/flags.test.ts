import { BadRequestError } from '../src/errors';
import { parseFlag, parseWithRelated } from '../src/flags';

test('with_related: true or false in any case; absent or empty is false; anything else a 400 naming it', () => {
  expect(parseWithRelated({})).toBe(false);
  expect(parseWithRelated({ with_related: '' })).toBe(false);
  expect(parseWithRelated({ with_related: 'true' })).toBe(true);
  expect(parseWithRelated({ with_related: 'TRUE' })).toBe(true);
  expect(parseWithRelated({ with_related: 'False' })).toBe(false);
  for (const bad of ['maybe', 'yes', '1', ['true', 'true']]) {
    try {
      parseWithRelated({ with_related: bad });
      throw new Error(`accepted ${JSON.stringify(bad)}`);
    } catch (err) {
      expect(err).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).errors.map((e) => e.field)).toEqual(['with_related']);
    }
  }
});

test('any flag: its own default when absent, its own name in the 400', () => {
  expect(parseFlag({}, 'reuse', true)).toBe(true);
  expect(parseFlag({ reuse: 'false' }, 'reuse', true)).toBe(false);
  expect(() => parseFlag({ reuse: 'sometimes' }, 'reuse', true)).toThrow(
    expect.objectContaining({
      errors: [expect.objectContaining({ field: 'reuse', message: 'reuse must be true or false' })],
    }),
  );
  // Inherited properties are not parameters.
  expect(parseFlag(Object.create({ reuse: 'false' }) as Record<string, unknown>, 'reuse', true)).toBe(true);
});

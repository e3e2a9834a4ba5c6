import { BadRequestError, MAX_JSON_DEPTH, assertJsonDepth, jsonDepth, safeContentType } from '../src';

describe('jsonDepth / assertJsonDepth', () => {
  const nest = (depth: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
    return v;
  };

  it('counts containers, not scalars, and stops counting past the limit', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth(null)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [1, { b: [] }] })).toBe(4);
    expect(jsonDepth(nest(MAX_JSON_DEPTH))).toBe(MAX_JSON_DEPTH);
    // A million levels is walked without recursion and without going past limit + 1.
    expect(jsonDepth(nest(1_000_000))).toBe(MAX_JSON_DEPTH + 1);
  });

  it('refuses more than MAX_JSON_DEPTH levels with a 400 naming the field', () => {
    expect(() => assertJsonDepth(nest(MAX_JSON_DEPTH))).not.toThrow();
    const err = (() => {
      try {
        assertJsonDepth(nest(MAX_JSON_DEPTH + 1), 'file_object');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).errors[0]).toMatchObject({ field: 'file_object' });
  });
});

describe('safeContentType', () => {
  it('keeps a valid media type, with parameters', () => {
    for (const m of [
      'audio/mpeg',
      'text/plain; charset=utf-8',
      'application/vnd.ms-excel',
      'multipart/x; boundary="a b"',
    ])
      expect(safeContentType(m)).toBe(m);
  });

  it('never lets a stored value that would break a header through', () => {
    for (const m of [
      'text/plain\r\nSet-Cookie: a=b',
      'audio/mpeg\u0000',
      'text/plaïn',
      'no-slash',
      '',
      null,
      undefined,
      `a/${'b'.repeat(300)}`,
    ]) {
      expect(safeContentType(m)).toBe('application/octet-stream');
    }
  });
});

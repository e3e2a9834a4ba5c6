import { BadRequestError } from '@patchbay/contracts';
import { tokenize } from '../src/filter/lexer';
import { MAX_FILTER_BYTES, MAX_FILTER_CONDITIONS, parseFilter } from '../src/filter/parser';

/** Runs `fn`, expects a 400 naming `filter`, returns its message. */
function filterError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    const err = e as BadRequestError;
    expect(err.status).toBe(400);
    expect(err.errors[0].field).toBe('filter');
    return err.errors[0].message;
  }
  throw new Error('expected a BadRequestError');
}

const values = (input: string): string[] => parseFilter(input).flatMap((c) => c.values.map((v) => v.text));

describe('lexer', () => {
  it('splits words, strings, parentheses and commas with 1-based positions', () => {
    expect(tokenize(`a eq "x y" and t in ('p',q)`)).toEqual([
      { kind: 'word', text: 'a', pos: 1 },
      { kind: 'word', text: 'eq', pos: 3 },
      { kind: 'string', text: 'x y', pos: 6 },
      { kind: 'word', text: 'and', pos: 12 },
      { kind: 'word', text: 't', pos: 16 },
      { kind: 'word', text: 'in', pos: 18 },
      { kind: '(', text: '(', pos: 21 },
      { kind: 'string', text: 'p', pos: 22 },
      { kind: ',', text: ',', pos: 25 },
      { kind: 'word', text: 'q', pos: 26 },
      { kind: ')', text: ')', pos: 27 },
    ]);
  });
  it('resolves \\\\, \\" and \\\' and keeps other backslashes for like patterns', () => {
    expect(tokenize(String.raw`"a\"b" 'c\'d' "e\\f" "g\%h\_i\n"`).map((t) => t.text)).toEqual([
      'a"b',
      "c'd",
      'e\\f',
      'g\\%h\\_i\\n',
    ]);
  });
  it('lets each quote contain the other one', () => {
    expect(tokenize(`"it's" 'say "hi"'`).map((t) => t.text)).toEqual(["it's", 'say "hi"']);
  });
  it('treats tabs and newlines as spaces', () => {
    expect(tokenize('a\teq\n1').map((t) => t.text)).toEqual(['a', 'eq', '1']);
  });
  it('rejects an unterminated string, saying where it starts', () => {
    expect(filterError(() => tokenize(`name eq "abc`))).toMatch(/unterminated string starting at character 9/);
    expect(filterError(() => tokenize(`name eq 'abc\\'`))).toMatch(/unterminated/);
  });
});

describe('parser', () => {
  it('parses one condition', () => {
    expect(parseFilter('type eq flexml')).toEqual([
      { attr: 'type', op: 'eq', values: [{ text: 'flexml', quoted: false, pos: 9 }], pos: 1 },
    ]);
  });
  it('parses the empty and blank filter as no condition', () => {
    expect(parseFilter('')).toEqual([]);
    expect(parseFilter('   ')).toEqual([]);
  });
  it('joins conditions with a case-insensitive and, and accepts any operator case', () => {
    const ast = parseFilter('a EQ 1 AND b Ne 2 aNd c ge 3');
    expect(ast.map((c) => [c.attr, c.op])).toEqual([
      ['a', 'eq'],
      ['b', 'ne'],
      ['c', 'ge'],
    ]);
  });
  it('accepts every operator', () => {
    for (const op of ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'like', 'ilike', 'in', 'notin', 'bit']) {
      expect(parseFilter(`a ${op} 1`)[0].op).toBe(op);
    }
  });
  it('parses in/notin lists, with or without spaces, and a single unparenthesised value', () => {
    expect(values(`type in ("flexml", voicemail ,'x')`)).toEqual(['flexml', 'voicemail', 'x']);
    expect(values('type notin(a,b)')).toEqual(['a', 'b']);
    expect(values('type in flexml')).toEqual(['flexml']);
  });
  it('marks quoted values, so only a bare null is null', () => {
    const [c1, c2] = parseFilter(`a eq null and b eq "null"`);
    expect(c1.values[0]).toMatchObject({ text: 'null', quoted: false });
    expect(c2.values[0]).toMatchObject({ text: 'null', quoted: true });
  });
  it('takes a bare `and` in value position as a value', () => {
    expect(values('a eq and and b eq 1')).toEqual(['and', '1']);
  });
  it('keeps dates, UUIDs and dot paths as single words', () => {
    const ast = parseFilter(
      'addresses.ip eq 1.1.2.13 and date_stop ge ' +
        '2019-03-01T02:12:30.250-01:00 and container_sid eq ' +
        '1e4b0f6c-55d4-4d4e-9b6f-0c7f8a1b2c3d',
    );
    expect(ast.map((c) => [c.attr, c.values[0].text])).toEqual([
      ['addresses.ip', '1.1.2.13'],
      ['date_stop', '2019-03-01T02:12:30.250-01:00'],
      ['container_sid', '1e4b0f6c-55d4-4d4e-9b6f-0c7f8a1b2c3d'],
    ]);
  });
  it('re-joins a date-time whose unencoded + became a space', () => {
    expect(values('d gt 2019-03-01T02:12:30.250 01:00 and x eq 1')).toEqual(['2019-03-01T02:12:30.250+01:00', '1']);
    expect(values('d in (2019-03-01T02:12 0130)')).toEqual(['2019-03-01T02:12+0130']);
    expect(() => parseFilter('d gt 2019-03-01T02:12:30  01:00')).toThrow(BadRequestError); // two spaces: not joined
    expect(() => parseFilter('d gt 2019-03-01 01:00')).toThrow(BadRequestError); // a bare date has no zone
  });

  it.each([
    ['type', /expected an operator after 'type', found end of filter/],
    ['type eq', /expected a value, found end of filter/],
    ['type equals x', /unknown operator 'equals' at character 6/],
    ['type eq x y', /expected 'and', found 'y' at character 11/],
    ['type eq x and', /expected a condition after 'and' at character 11/],
    ['type eq x or a eq y', /'or' is not supported \(character 11\)/],
    ['(type eq x)', /expected an attribute name, found '\(' at character 1/],
    ['type eq (x)', /expected a value, found '\(' at character 9/],
    ['type in (a, b', /expected ',' or '\)', found end of filter/],
    ['type in (a,)', /expected a value, found '\)' at character 12/],
    ['type in ()', /expected a value, found '\)'/],
    ['"type" eq x', /expected an attribute name, found 'type' at character 1/],
    ['type "eq" x', /expected an operator after 'type', found 'eq' at character 6/],
    ['type eq x, y', /expected 'and', found ',' at character 10/],
    ['and', /expected an operator after 'and'/],
  ])('rejects %j', (input, message) => {
    expect(filterError(() => parseFilter(input))).toMatch(message);
  });
});

describe('bounds (decisions §51)', () => {
  const conjunction = (n: number): string => Array.from({ length: n }, (_, i) => `type eq v${i}`).join(' and ');

  it(`accepts ${MAX_FILTER_CONDITIONS} conditions and refuses one more, naming filter`, () => {
    expect(parseFilter(conjunction(MAX_FILTER_CONDITIONS))).toHaveLength(MAX_FILTER_CONDITIONS);
    expect(filterError(() => parseFilter(conjunction(MAX_FILTER_CONDITIONS + 1)))).toMatch(/at most 50 conditions/);
  });
  it('refuses a 1,000-condition filter at once (it would exceed the byte bound anyway)', () => {
    expect(filterError(() => parseFilter('a eq 1 and '.repeat(999) + 'a eq 1'))).toMatch(/at most 4096 are accepted/);
  });
  it(`accepts ${MAX_FILTER_BYTES} bytes and refuses one more, counting UTF-8 bytes rather than characters`, () => {
    const fits = `name eq "${'x'.repeat(MAX_FILTER_BYTES - 'name eq ""'.length)}"`;
    expect(Buffer.byteLength(fits)).toBe(MAX_FILTER_BYTES);
    expect(parseFilter(fits)[0].values[0].text).toHaveLength(MAX_FILTER_BYTES - 10);
    expect(filterError(() => parseFilter(`${fits} `))).toMatch(/4097 bytes long/);
    const wide = `name eq "${'é'.repeat(2044)}"`; // 2,054 characters, 4,098 bytes
    expect(filterError(() => parseFilter(wide))).toMatch(/4098 bytes long/);
  });
});

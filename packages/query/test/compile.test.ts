import { BadRequestError } from '@patchbay/contracts';
import { defineListSpec } from '../src/fields';
import { compileFilterString, likeToRegex, parseInstant } from '../src/filter/compile';

const spec = defineListSpec({
  fields: {
    dr_sid: 'uuid',
    name: 'string',
    'addresses.ip': 'string',
    'addresses.port': 'integer',
    duration: 'integer',
    price: 'number',
    srtp: 'boolean',
    date_stop: 'date',
    flags: 'integer',
  },
  defaultOrder: { field: 'date_stop', dir: 'desc' },
  sidField: 'dr_sid',
});
const compile = (f: string) => compileFilterString(f, spec);

function filterError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    expect((e as BadRequestError).errors[0].field).toBe('filter');
    return (e as BadRequestError).errors[0].message;
  }
  throw new Error('expected a BadRequestError');
}

describe('compileFilter: operators and types', () => {
  it('compiles comparisons to $eq $ne $lt $lte $gt $gte', () => {
    expect(compile('duration eq 5')).toEqual({ duration: { $eq: 5 } });
    expect(compile('duration ne 5')).toEqual({ duration: { $ne: 5 } });
    expect(compile('duration lt 5')).toEqual({ duration: { $lt: 5 } });
    expect(compile('duration le 5')).toEqual({ duration: { $lte: 5 } });
    expect(compile('duration gt 5')).toEqual({ duration: { $gt: 5 } });
    expect(compile('duration ge 5')).toEqual({ duration: { $gte: 5 } });
  });
  it('reads values by the attribute type, quoted or not', () => {
    expect(compile('name eq 4915112345')).toEqual({ name: { $eq: '4915112345' } });
    expect(compile('duration eq "39984"')).toEqual({ duration: { $eq: 39984 } });
    expect(compile('duration eq -7 and price lt 1.5e2')).toEqual({ duration: { $eq: -7 }, price: { $lt: 150 } });
    expect(compile('price ge .25')).toEqual({ price: { $gte: 0.25 } });
    expect(compile('srtp eq TRUE and name eq true')).toEqual({ srtp: { $eq: true }, name: { $eq: 'true' } });
    expect(compile(`srtp ne 'false'`)).toEqual({ srtp: { $ne: false } });
  });
  it('compiles bare null to equality with null and quoted "null" to the string', () => {
    expect(compile('name eq null and duration ne NULL')).toEqual({ name: { $eq: null }, duration: { $ne: null } });
    expect(compile('name eq "null"')).toEqual({ name: { $eq: 'null' } });
    expect(compile('name in (null, a)')).toEqual({ name: { $in: [null, 'a'] } });
  });
  it('compiles in and notin to $in and $nin, coercing every element', () => {
    expect(compile('duration in (1, "2", 3)')).toEqual({ duration: { $in: [1, 2, 3] } });
    expect(compile(`name notin ("a b", 'c')`)).toEqual({ name: { $nin: ['a b', 'c'] } });
  });
  it('compiles bit to $bitsAnySet on integer fields only', () => {
    expect(compile('flags bit 6')).toEqual({ flags: { $bitsAnySet: 6 } });
    expect(filterError(() => compile('name bit 1'))).toMatch(/'bit' needs an integer attribute; 'name' is string/);
    expect(filterError(() => compile('flags bit -1'))).toMatch(/mask between 0 and 2147483647/);
    expect(filterError(() => compile('flags bit 2147483648'))).toMatch(/mask between/);
    expect(filterError(() => compile('flags bit null'))).toMatch(/mask between/);
  });
  it('keeps dot paths, which reach into arrays in the store', () => {
    expect(compile('addresses.ip eq "1.1.2.13" and addresses.port ne 5060')).toEqual({
      'addresses.ip': { $eq: '1.1.2.13' },
      'addresses.port': { $ne: 5060 },
    });
  });
  it('puts conditions on the same attribute into $and so all must hold', () => {
    expect(compile('duration gt 1 and duration lt 9 and name eq a')).toEqual({
      $and: [{ duration: { $gt: 1 } }, { duration: { $lt: 9 } }, { name: { $eq: 'a' } }],
    });
    expect(compile('name ne a and name ne b')).toEqual({ $and: [{ name: { $ne: 'a' } }, { name: { $ne: 'b' } }] });
  });
  it('maps public paths through storePath', () => {
    const mapped = defineListSpec({ ...spec, storePath: (p: string) => (p === 'name' ? 'meta.name' : p) });
    expect(compileFilterString('name eq x and duration eq 1', mapped)).toEqual({
      'meta.name': { $eq: 'x' },
      duration: { $eq: 1 },
    });
  });
  it('compiles the empty filter to {}', () => {
    expect(compile('')).toEqual({});
  });
});

describe('compileFilter: 400s naming filter', () => {
  it.each([
    ['nope eq 1', /unknown attribute 'nope' at character 1/],
    ['constructor eq 1', /unknown attribute 'constructor'/],
    ['name eq a and __proto__ eq 1', /unknown attribute '__proto__' at character 15/],
    ['duration eq abc', /'abc' is not an integer for 'duration' at character 13/],
    ['duration eq 1.5', /not an integer/],
    ['duration eq 99999999999999999999', /not an integer/],
    ['price eq 1,5', /expected 'and'/],
    ['price eq 1e999', /not a number/],
    ['price eq 0x10', /not a number/],
    ['srtp eq yes', /not true or false/],
    ['date_stop gt yesterday', /not a date/],
    ['date_stop gt 2019-02-30', /not a date/],
    ['duration like 1%', /'like' needs a text attribute; 'duration' is integer/],
    ['date_stop ilike 2019%', /'ilike' needs a text attribute/],
    ['name like null', /null cannot be used with 'like'/],
    ['duration lt null', /null can only be used with eq, ne, in and notin/],
  ])('rejects %j', (input, message) => {
    expect(filterError(() => compile(input))).toMatch(message);
  });
});

describe('parseInstant', () => {
  it.each([
    ['2019-03-01', '2019-03-01T00:00:00.000Z'],
    ['2019-03-01T02:12:30', '2019-03-01T02:12:30.000Z'],
    ['2019-03-01T02:12', '2019-03-01T02:12:00.000Z'],
    ['2019-03-01T02:12:30Z', '2019-03-01T02:12:30.000Z'],
    ['2019-03-01t02:12:30z', '2019-03-01T02:12:30.000Z'],
    ['2019-03-01 02:12:30', '2019-03-01T02:12:30.000Z'],
    ['2019-03-01T02:12:30.250+00:00', '2019-03-01T02:12:30.250Z'],
    ['2019-03-01T02:12:30.25+01:00', '2019-03-01T01:12:30.250Z'],
    ['2019-03-01T02:12:30.2509-0130', '2019-03-01T03:42:30.250Z'],
    ['2019-03-01T00:30:00+01', '2019-02-28T23:30:00.000Z'],
    ['2020-02-29T23:59:59.999Z', '2020-02-29T23:59:59.999Z'],
    ['0099-01-01', '0099-01-01T00:00:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });
  it.each([
    '2019-02-29',
    '2019-13-01',
    '2019-00-10',
    '2019-04-31',
    '2019-03-01T24:00',
    '2019-03-01T10:60',
    '2019-03-01T10:00:60',
    '2019-03-01T10:00+24:00',
    '2019-03-01Z',
    '2019-3-1',
    '20190301',
    'tomorrow',
    '2019-03-01T10',
  ])('refuses %s', (text) => {
    expect(parseInstant(text)).toBeNull();
  });
  it('compiles date filters to Date instants, quoted or not', () => {
    expect(compile(`date_stop ge 2019-03-01 and date_stop lt '2019-03-02T00:00:00+00:00'`)).toEqual({
      $and: [
        { date_stop: { $gte: new Date('2019-03-01T00:00:00Z') } },
        { date_stop: { $lt: new Date('2019-03-02T00:00:00Z') } },
      ],
    });
  });
});

describe('like and ilike', () => {
  const re = (pattern: string): RegExp => new RegExp(likeToRegex(pattern));
  it('anchors, and turns % and _ into wildcards that also cross newlines', () => {
    expect(re('ab%').test('abc\ndef')).toBe(true);
    expect(re('ab%').test('xabc')).toBe(false);
    expect(re('a_c').test('a\nc')).toBe(true);
    expect(re('a_c').test('abbc')).toBe(false);
    expect(re('abc').test('abc\n')).toBe(false); // PCRE's `$` would match here; the anchor does not
  });
  it('escapes every regex metacharacter', () => {
    const meta = 'a.b*c+d?e^f$g(h)i[j]k{l}m|n\\o/p-q';
    expect(re(meta.replace(/\\/g, '\\\\')).test(meta)).toBe(true);
    expect(re('a.c').test('abc')).toBe(false);
    expect(re('(a|b)').test('a')).toBe(false);
  });
  it('lets \\ make % and _ literal', () => {
    expect(re('100\\%').test('100%')).toBe(true);
    expect(re('100\\%').test('1000')).toBe(false);
    expect(re('a\\_b').test('axb')).toBe(false);
  });
  it('writes control characters as \\xHH (MongoDB refuses NUL in a pattern)', () => {
    expect(likeToRegex('a\u0000b\n')).toBe('^a\\x00b\\x0a(?![\\s\\S])');
  });
  it('keeps a digit after a backreference out of its group number', () => {
    expect(re('%a%0%').test('xa0')).toBe(true);
    expect(re('%1%2%3%4%5%6%7%8%9%10%11%').test('1234567891011')).toBe(true);
  });
  it('stays fast on patterns that make naive regexes backtrack', () => {
    const started = Date.now();
    expect(re('%a%a%a%a%a%a%a%b').test('a'.repeat(5000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
  });
  it('compiles like to $regex and ilike to $regex with $options i', () => {
    expect(compile('name like "ab%"')).toEqual({ name: { $regex: '^ab[\\s\\S]*(?![\\s\\S])' } });
    expect(compile('name ilike ab_')).toEqual({ name: { $regex: '^ab[\\s\\S](?![\\s\\S])', $options: 'i' } });
    expect(compile('dr_sid like 1e4b%')).toEqual({ dr_sid: { $regex: '^1e4b[\\s\\S]*(?![\\s\\S])' } });
  });
});

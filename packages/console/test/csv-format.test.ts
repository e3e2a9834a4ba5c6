import { toCsv } from '../src/csv-format';

describe('the records CSV', () => {
  test('a header line, CRLF line ends, RFC 4180 quoting; null as empty, arrays as JSON', () => {
    const rows = [
      { dr_sid: 'a', message: 'Hello, "world"', media_urls: ['https://x/1.jpg'], price: null },
      { dr_sid: 'b', message: 'two\nlines', media_urls: [], price: '0.0040' },
    ];
    expect(toCsv(['dr_sid', 'message', 'media_urls', 'price'], rows)).toBe(
      'dr_sid,message,media_urls,price\r\n' +
        'a,"Hello, ""world""","[""https://x/1.jpg""]",\r\n' +
        'b,"two\nlines",[],0.0040\r\n',
    );
  });

  test('no rows: the header alone', () => {
    expect(toCsv(['dr_sid'], [])).toBe('dr_sid\r\n');
  });
});

describe('formulas in the CSV (OWASP CSV injection)', () => {
  test('a cell starting with =, +, -, @, tab or CR gets a leading quote, and is quoted as RFC 4180 needs', () => {
    const row = {
      a: '=HYPERLINK("http://evil.example","click")',
      b: "=cmd|' /C calc'!A0",
      c: '+1+2',
      d: '-2+3+cmd|x',
      e: '@SUM(A1:A2)',
      f: '\tcell',
      g: '\rcell',
    };
    expect(toCsv(Object.keys(row), [row]).split('\r\n')[1]).toBe(
      `"'=HYPERLINK(""http://evil.example"",""click"")",'=cmd|' /C ` +
        `calc'!A0,'+1+2,'-2+3+cmd|x,'@SUM(A1:A2),'\tcell,"'\rcell"`,
    );
  });

  test('plain numbers, signed or not, and text with a formula sign elsewhere stay as they are', () => {
    const row = { price: '-0.0040', n: -12, e: '+1e5', text: 'a=b', mail: 'x@y.example' };
    expect(toCsv(Object.keys(row), [row]).split('\r\n')[1]).toBe('-0.0040,-12,+1e5,a=b,x@y.example');
  });
});

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

import { pageStatus } from '../src/format';

test('a page says which items it shows of how many; an empty list says "0 of 0", never "1–0"', () => {
  expect(pageStatus({ offset: 0, count: 0, total: 0 })).toBe('0 of 0');
  expect(pageStatus({ offset: 0, count: 10, total: 57 })).toBe('1–10 of 57');
  expect(pageStatus({ offset: 50, count: 7, total: 57 })).toBe('51–57 of 57');
  expect(pageStatus({ offset: 20, count: 0, total: 20 })).toBe('0 of 20');
  expect(pageStatus({ offset: 0, count: 3, total: null })).toBe('1–3 of ?');
});

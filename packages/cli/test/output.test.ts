/** How lists print: a table for a person, CSV and JSON for programs, streamed page by page. */
import { printList, table, type Page } from '../src/output';

async function* pagesOf<T>(...pages: Array<Page<T>>): AsyncGenerator<Page<T>> {
  yield* pages;
}

async function captured(work: () => Promise<unknown>): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  // why: jest gives no other handle on what a function prints to stdout.
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  try {
    await work();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

const page = (items: object[], extra: Partial<Page<object>> = {}): Page<object> => ({
  items,
  count: items.length,
  ...extra,
});

test('a table aligns its columns and says how many of how many; an empty list is "0 of 0"', async () => {
  expect(
    table(
      [
        { a: 'x', b: 1 },
        { a: 'longer', b: null },
      ],
      ['a', 'b'],
    ),
  ).toBe('a       b\nx       1\nlonger');
  const out = await captured(() =>
    printList(pagesOf(page([{ name: 'one' }], { total: 3, has_more: true })), 'table', ['name'], false),
  );
  expect(out).toBe('name\none\n1 of 3 shown (more follow: --all for every page)\n');
  expect(await captured(() => printList(pagesOf(page([], { total: 0 })), 'table', ['name'], false))).toBe(
    '0 of 0 shown\n',
  );
});

test('CSV: a header from the first item, every page, quoting what needs it', async () => {
  const out = await captured(() =>
    printList(pagesOf(page([{ a: 'x,y', b: { n: 1 } }]), page([{ a: 'say "hi"', b: null }])), 'csv', ['a'], true),
  );
  expect(out).toBe('a,b\n"x,y","{""n"":1}"\n"say ""hi""",\n');
});

test('JSON: one page as the API answers it; with --all every item under "items", parseable', async () => {
  const one = page([{ a: 1 }], { total: 1 });
  expect(JSON.parse(await captured(() => printList(pagesOf(one), 'json', [], false)))).toEqual(one);
  const all = await captured(() => printList(pagesOf(page([{ a: 1 }, { a: 2 }]), page([{ a: 3 }])), 'json', [], true));
  expect(JSON.parse(all)).toEqual({ items: [{ a: 1 }, { a: 2 }, { a: 3 }] });
  expect(JSON.parse(await captured(() => printList(pagesOf(page([])), 'json', [], true)))).toEqual({ items: [] });
});

import type { Command } from 'commander';
import { isJsonObject } from '@patchbay/platform/src/basics/json-object';

/** How a list is printed: a table for a person at a terminal, JSON or CSV for a program. */
export type ListFormat = 'table' | 'json' | 'csv';

/** The options every `list` command takes. */
export interface ListFlags {
  limit?: string;
  all?: boolean;
  json?: boolean;
  csv?: boolean;
}

/** One page of a list as the API answers it (docs/interface-notes.md, Pagination and cursors). */
export interface Page<T> {
  items: T[];
  count: number;
  total?: number | null;
  has_more?: boolean;
  pagination?: { next?: string; previous?: string };
}

export const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

/** Adds --limit, --all, --json and --csv to a list command. */
export function listOptions(cmd: Command, what: string): Command {
  return cmd
    .option('--limit <n>', `${what} per page (1 to 1000; default 10, or 1000 with --all)`)
    .option('--all', 'every page, following the links (or cursors) to the end')
    .option('--json', 'print JSON (the default when the output is not a terminal)')
    .option('--csv', 'print CSV with a header line');
}

export function listFormat(o: ListFlags): ListFormat {
  if (o.json && o.csv) throw new Error('give --json or --csv, not both');
  if (o.json) return 'json';
  if (o.csv) return 'csv';
  return process.stdout.isTTY ? 'table' : 'json';
}

/** A cell as text: strings as they are, null/undefined empty, the rest as JSON. */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvField(value: unknown): string {
  const t = text(value);
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

const clip = (t: string, width: number) => (t.length > width ? `${t.slice(0, width - 1)}…` : t);

/** Rows as an aligned text table under a header of the column names. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  const cells = rows.map((r) => columns.map((c) => clip(text(r[c]).replace(/\s+/g, ' '), 48)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

/**
 * Prints a list, page by page as `pages` yields them: JSON (the page as the API answers it, or with
 * --all `{"items": […]}` streamed item by item), CSV (the first item's keys as the header, streamed)
 * or a table of `columns` with a line saying how many there are. Returns how many items it printed.
 */
export async function printList<T extends object>(
  pages: AsyncIterable<Page<T>>,
  format: ListFormat,
  columns: string[],
  all: boolean,
): Promise<number> {
  const out = process.stdout;
  let printed = 0;
  let header: string[] | undefined;
  const rows: Array<Record<string, unknown>> = [];
  let last: Page<T> | undefined;
  if (format === 'json' && all) out.write('{\n  "items": [');
  for await (const page of pages) {
    last = page;
    if (format === 'json' && !all) {
      printJson(page);
      return page.items.length;
    }
    for (const row of page.items) {
      // API items are JSON objects; printing reads them by key.
      if (!isJsonObject(row)) throw new Error('a list item is not a JSON object');
      if (format === 'json') out.write(`${printed === 0 ? '\n' : ',\n'}    ${JSON.stringify(row)}`);
      else if (format === 'csv') {
        header ??= Object.keys(row);
        if (printed === 0) out.write(`${header.join(',')}\n`);
        out.write(`${header.map((k) => csvField(row[k])).join(',')}\n`);
      } else rows.push(row);
      printed++;
    }
  }
  if (format === 'json') out.write(printed === 0 ? ']\n}\n' : '\n  ]\n}\n');
  if (format === 'table') {
    if (rows.length > 0) out.write(`${table(rows, columns)}\n`);
    const total = !all && typeof last?.total === 'number' ? last.total : null;
    const more = !all && (last?.has_more || last?.pagination?.next) ? ' (more follow: --all for every page)' : '';
    out.write(`${total !== null ? `${printed} of ${total}` : `${printed}`} shown${more}\n`);
  }
  return printed;
}

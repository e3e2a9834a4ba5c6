import type { Command } from 'commander';
import { data, type Schemas } from '@patchbay/client';
import { apiClient, type ClientOptions } from '../client';
import { examples } from '../help';
import { listFormat, printJson, printList, table } from '../output';

/** Each kind's usage path and the numbers of its items, in table order. */
const KINDS = {
  calls: { path: '/calls/call_drs/usage', numbers: ['calls', 'answered', 'minutes', 'cost', 'asr', 'acd'] },
  messages: { path: '/sms/message_drs/usage', numbers: ['messages', 'segments', 'cost'] },
} as const;
type Kind = keyof typeof KINDS;

/** `--kind`: calls or messages (call or message too, as the usage routes name their records). */
function kindOf(given: string): Kind {
  const k = given.endsWith('s') ? given : `${given}s`;
  if (k !== 'calls' && k !== 'messages') throw new Error('--kind must be calls or messages');
  return k;
}

interface UsageFlags {
  kind: string;
  groupBy: string;
  by?: string;
  tz?: string;
  filter?: string;
  json?: boolean;
  csv?: boolean;
}

type Usage = Schemas['CallUsage'] | Schemas['MessageUsage'];

/** Sums of a column over the items (the ratios are not sums: the table leaves them out). */
function totals(items: Array<Record<string, unknown>>, numbers: readonly string[]): string {
  const sums = numbers
    .filter((n) => n !== 'asr' && n !== 'acd')
    .map((n) => {
      const sum = items.reduce((s, i) => s + (typeof i[n] === 'number' ? i[n] : 0), 0);
      return `${n} ${Math.round(sum * 1e6) / 1e6}`;
    });
  return `${items.length} buckets; total ${sums.join(', ')}`;
}

/** `patchbay records usage --group-by day [--by direction] [--tz zone] [--filter expr] [--kind calls|messages]` */
export function registerRecordUsage(records: Command, opts: () => ClientOptions): void {
  const cmd = records
    .command('usage')
    .description('totals per hour, day or month: calls, answered, minutes, cost, ASR, ACD (or messages)')
    .option('--kind <kind>', 'calls (the default) or messages', 'calls')
    .option('--group-by <unit>', 'hour, day (the default) or month', 'day')
    .option('--by <field>', 'a second key, e.g. direction (an item per bucket and value)')
    .option('--tz <zone>', 'IANA time zone of the buckets (default UTC)')
    .option('--filter <expr>', 'the list grammar; its date range is the range (default: the last 30 days)')
    .option('--json', 'print the answer as JSON (the default when the output is not a terminal)')
    .option('--csv', 'print the items as CSV with a header line')
    .action(async (o: UsageFlags) => {
      const kind = kindOf(o.kind);
      const format = listFormat(o);
      const query = {
        group_by: o.by ? `${o.groupBy},${o.by}` : o.groupBy,
        ...(o.tz !== undefined && { tz: o.tz }),
        ...(o.filter !== undefined && { filter: o.filter }),
      };
      // why: both usage routes take the same query; the answer is one of the two usage shapes.
      const answer = (await data(
        apiClient(opts()).api.GET(KINDS[kind].path as '/calls/call_drs/usage', { params: { query } }),
      )) as Usage;
      const items: Array<Record<string, unknown>> = answer.items;
      if (format === 'json') return printJson(answer);
      const columns = ['date', ...(o.by ? [o.by] : []), ...KINDS[kind].numbers];
      if (format === 'csv') {
        // The table's columns, in its order (the answer's keys come in no particular order).
        const rows = items.map((i) => Object.fromEntries(columns.map((c) => [c, i[c]])));
        await printList(
          (async function* () {
            yield { items: rows, count: rows.length };
          })(),
          'csv',
          columns,
          true,
        );
        return;
      }
      process.stdout.write(`${answer.group_by} in ${answer.tz}, ${answer.from} to ${answer.to}\n`);
      if (items.length > 0) process.stdout.write(`${table(items, columns)}\n`);
      process.stdout.write(`${totals(items, KINDS[kind].numbers)}\n`);
    });
  examples(
    cmd,
    'patchbay records usage --group-by day',
    "patchbay records usage --group-by month --tz Europe/Paris --filter 'date_stop ge 2026-01-01'",
    'patchbay records usage --kind messages --group-by day --by direction --csv > sms-usage.csv',
  );
}

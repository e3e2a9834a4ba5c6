import type { Command } from 'commander';
import { data, type PatchbayClient } from '@patchbay/client';
import { apiClient, type ClientOptions } from '../client';
import { examples } from '../help';
import { pageSize } from '../lists';
import { listFormat, listOptions, printList, type ListFlags, type Page } from '../output';

/** Each kind of detail record: its list path, the field its cursor pages are ordered by, its table. */
const KINDS = {
  calls: {
    path: '/calls/call_drs',
    cursorField: 'date_stop',
    columns: ['dr_sid', 'date_start', 'date_stop', 'direction', 'number_src', 'number_dst', 'duration', 'price'],
  },
  messages: {
    path: '/sms/message_drs',
    cursorField: 'date_insert',
    columns: ['dr_sid', 'date_insert', 'type', 'direction', 'number_src', 'number_dst', 'status', 'price'],
  },
} as const;

interface RecordFlags extends ListFlags {
  filter?: string;
  order?: string;
  after?: string;
}

/**
 * The pages of a record list, walked by cursor (docs/interface-notes.md, Pagination and cursors):
 * each page asks `after=<dr_sid of the last record>` with the same filter, order and limit, so a walk
 * over millions of records never skips, repeats or pays for a large offset. Ends at a short page.
 */
async function* recordPages(
  pb: PatchbayClient,
  kind: keyof typeof KINDS,
  o: RecordFlags,
): AsyncGenerator<Page<{ dr_sid: string }>> {
  const { path, cursorField } = KINDS[kind];
  const limit = pageSize(o) ?? 10;
  const base = { limit, filter: o.filter, order: o.order ?? `${cursorField} asc` };
  let after = o.after;
  for (;;) {
    // why: both record lists take the same query and answer envelopes of records with a dr_sid.
    const page = (await data(
      pb.api.GET(path as '/calls/call_drs', { params: { query: { ...base, after } } }),
    )) as Page<{ dr_sid: string }>;
    yield page;
    const last = page.items[page.items.length - 1];
    if (!o.all || !last || page.items.length < limit) return;
    after = last.dr_sid;
  }
}

function registerKind(records: Command, kind: keyof typeof KINDS, opts: () => ClientOptions): void {
  const noun = kind === 'calls' ? 'call' : 'message';
  const k = records.command(kind).description(`${noun} detail records`);
  examples(k, `patchbay records ${kind} list --limit 50`);
  examples(
    listOptions(k.command('list').description(`${noun} detail records, oldest first`), 'records')
      .option('--filter <expr>', `e.g. '${KINDS[kind].cursorField} ge "2026-01-01T00:00:00Z"'`)
      .option('--order <order>', `${KINDS[kind].cursorField} asc (the default) or ${KINDS[kind].cursorField} desc`)
      .option('--after <dr_sid>', 'start after this record')
      .action(async (o: RecordFlags) => {
        await printList(
          recordPages(apiClient(opts()), kind, o),
          listFormat(o),
          [...KINDS[kind].columns],
          Boolean(o.all),
        );
      }),
    `patchbay records ${kind} list --limit 20`,
    `patchbay records ${kind} list --all --csv --filter 'date_start ge "2026-11-01T00:00:00Z"' > ${kind}.csv`,
  );
}

/** `patchbay records calls list` and `patchbay records messages list` */
export function registerRecordLists(records: Command, opts: () => ClientOptions): void {
  registerKind(records, 'calls', opts);
  registerKind(records, 'messages', opts);
}

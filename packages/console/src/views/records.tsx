import { useState } from 'preact/hooks';
import { data, type Schemas } from '@patchbay/client';
import { Field, ProblemBanner } from '../components/field';
import { Pager } from '../components/pager';
import { download, toCsv } from '../csv';
import { otherMessages } from '../errors';
import { when } from '../format';
import { cursorLinks, usePagedList } from '../list';
import { wholeItems } from '../whole';
import type { Session } from '../session';
import { RecordExports } from './record-exports';

type Kind = 'calls' | 'messages';
const KIND_ORDER: readonly Kind[] = ['calls', 'messages'];
/** A record's field by column name (the columns are field names of the record). */
const cell = (r: Row, column: string): unknown => Reflect.get(r, column);
/** A date field's text (ISO 8601), null when it has none. */
const dateText = (v: unknown): string | null => (typeof v === 'string' ? v : null);
type Row = Schemas['CallRecord'] | Schemas['MessageRecord'];
const PAGE = 20;

/** What each kind shows: its order (and date) field, and the columns of the table. */
const KINDS: Record<Kind, { label: string; date: 'date_stop' | 'date_insert'; columns: readonly string[] }> = {
  calls: {
    label: 'Calls',
    date: 'date_stop',
    columns: [
      'dr_sid',
      'date_start',
      'date_stop',
      'direction',
      'number_src',
      'number_dst',
      'duration',
      'sipcause',
      'price',
    ],
  },
  messages: {
    label: 'Messages',
    date: 'date_insert',
    columns: [
      'dr_sid',
      'date_insert',
      'direction',
      'type',
      'number_src',
      'number_dst',
      'status',
      'message_segments',
      'price',
    ],
  },
};

/** The date-range filter on the kind's date field (whole days, UTC; the end day included). */
function rangeFilter(field: string, from: string, to: string): string | undefined {
  const parts: string[] = [];
  if (from) parts.push(`${field} ge ${from}T00:00:00Z`);
  if (to) parts.push(`${field} le ${to}T23:59:59.999Z`);
  return parts.length ? parts.join(' and ') : undefined;
}

/**
 * Call and message records: a page at a time in date order with cursor paging (the API's own
 * next/previous links: `after`/`before` a record's SID), a date range, and the page as CSV.
 */
export function RecordsView({ session }: { session: Session }) {
  const [kind, setKind] = useState<Kind>('calls');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [applied, setApplied] = useState({ from: '', to: '' });
  const spec = KINDS[kind];
  const filter = rangeFilter(spec.date, applied.from, applied.to);
  const query = { limit: PAGE, order: `${spec.date} desc`, ...(filter ? { filter } : {}) };
  const list = usePagedList<Row>(
    session.token,
    `${kind}|${filter ?? ''}`,
    async () =>
      wholeItems<Row>(
        kind === 'calls'
          ? await data(session.client.api.GET('/calls/call_drs', { params: { query } }))
          : await data(session.client.api.GET('/sms/message_drs', { params: { query } })),
      ),
    cursorLinks<Row>((r) => r.dr_sid),
  );
  const rows: readonly Row[] = list.page?.items ?? [];
  const exportCsv = () => {
    const columns = rows.length ? Object.keys(rows[0]) : [...spec.columns];
    download(`${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`, toCsv(columns, rows));
  };
  return (
    <section aria-labelledby="records-title">
      <h1 id="records-title">Records</h1>
      <div class="tabs sub" role="group" aria-label="Kind of record">
        {KIND_ORDER.map((k) => (
          <button key={k} type="button" data-kind={k} aria-pressed={kind === k} onClick={() => setKind(k)}>
            {KINDS[k].label}
          </button>
        ))}
      </div>
      <form
        id="records-range"
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ from, to });
        }}
      >
        <Field form="records-range" label={`From (${spec.date}, UTC)`} name="from" problem={null}>
          {(id) => <input id={id} type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />}
        </Field>
        <Field form="records-range" label="To (included)" name="to" problem={null}>
          {(id) => <input id={id} type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />}
        </Field>
        <button type="submit">Apply</button>
        <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
          Download CSV (this page)
        </button>
      </form>
      <RecordExports client={session.client} kind={kind} filter={filter} />
      <ProblemBanner messages={otherMessages(list.problem, [])} />
      <div class="scroll">
        <table class="record-list" data-kind={kind}>
          <caption>{spec.label}, newest first</caption>
          <thead>
            <tr>
              {spec.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && !list.busy && (
              <tr>
                <td colSpan={spec.columns.length}>No records.</td>
              </tr>
            )}
            {rows.map((r) => (
              <tr key={String(r.dr_sid)} data-dr-sid={String(r.dr_sid)}>
                {spec.columns.map((c, i) =>
                  i === 0 ? (
                    <th key={c} scope="row">
                      <code class="sid">{String(cell(r, c))}</code>
                    </th>
                  ) : (
                    <td key={c}>
                      {c.startsWith('date_')
                        ? when(dateText(cell(r, c)))
                        : cell(r, c) === null || cell(r, c) === undefined
                          ? '—'
                          : String(cell(r, c))}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        label="Records pages"
        busy={list.busy}
        hasPrevious={!!list.page?.pagination.previous}
        hasNext={!!list.page?.pagination.next}
        onPrevious={list.previous}
        onNext={list.next}
        status={list.page ? `${list.page.count} shown` : 'Loading…'}
      />
    </section>
  );
}

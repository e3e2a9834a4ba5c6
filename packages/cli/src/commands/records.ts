import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { PassThrough, Readable, Transform } from 'node:stream';
import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { data, rawBody, type Schemas } from '@patchbay/client';
import { apiClient, type ClientOptions } from '../client';
import { webBody } from '@patchbay/client/src/node-streams';
import { examples } from '../help';
import { printJson } from '../output';
import { userPath } from '../paths';
import { registerRecordExport } from './records-export';
import { registerRecordLists } from './records-list';
import { registerRecordUsage } from './records-usage';

/** Where each kind of record is ingested. */
const KINDS: Record<string, '/calls/call_drs' | '/sms/message_drs'> = {
  calls: '/calls/call_drs',
  messages: '/sms/message_drs',
};

/**
 * Records per request. One request per file would do, but a long upload may outlast the server's
 * request timeout (Node's default is 5 minutes) or a proxy's; a few shorter requests do not, and
 * re-sending is harmless (ingest is idempotent by dr_sid).
 */
const RECORDS_PER_REQUEST = 100_000;

/**
 * The ingest report (RecordIngestReport), summed over the requests; positions count the file's
 * non-empty lines, `ignored_fields` (fields the server does not know, dropped) are added up by name.
 */
export type ImportReport = Schemas['RecordIngestReport'];

/** POSTs a streamed NDJSON body; resolves with the report, rejects with PatchbayApiError. */
async function postStream(
  opts: ClientOptions,
  path: '/calls/call_drs' | '/sms/message_drs',
  body: Readable,
): Promise<ImportReport> {
  // why: both ingest routes take the same body and answer the same report: one call for either path.
  return data(apiClient(opts).api.POST(path as '/calls/call_drs', rawBody(webBody(body), 'application/x-ndjson')));
}

/**
 * Streams an NDJSON file to the bulk-ingest route, line by line (never loaded whole), in requests of
 * `perRequest` records, with a progress bar by bytes on stderr when asked. Resolves with the summed
 * report; stops at the first request the server could not read to its end.
 */
export async function importRecords(
  opts: ClientOptions,
  kind: string,
  file: string,
  showProgress: boolean,
  perRequest = RECORDS_PER_REQUEST,
): Promise<ImportReport> {
  const path = KINDS[kind];
  if (!path) throw new Error(`--kind must be one of: ${Object.keys(KINDS).join(', ')}`);
  const { size } = await stat(file);
  const bar = new SingleBar(
    { format: 'importing {bar} {percentage}% | {value}/{total} bytes | ETA {eta}s', stream: process.stderr },
    Presets.shades_classic,
  );
  if (showProgress) bar.start(size, 0);
  let read = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      read += chunk.length;
      if (showProgress) bar.update(read);
      done(null, chunk);
    },
  });
  const lines = createInterface({ input: createReadStream(file).pipe(meter), crlfDelay: Infinity });
  const total: ImportReport = {
    complete: true,
    duplicates: 0,
    errors: [],
    ignored_fields: {},
    received: 0,
    rejected: 0,
    stored: 0,
  };
  const ignored = new Map<string, number>();
  let part: { body: PassThrough; answer: Promise<ImportReport>; settled: boolean; count: number } | undefined;

  const finish = async (): Promise<void> => {
    if (!part) return;
    const { body, answer } = part;
    part = undefined;
    body.end();
    const r = await answer;
    for (const e of r.errors) total.errors.push({ ...e, position: e.position + total.received });
    total.stored += r.stored;
    total.duplicates += r.duplicates;
    total.rejected += r.rejected;
    total.received += r.received; // every line sent, when the server read its body to the end
    total.complete &&= r.complete;
    for (const [name, n] of Object.entries(r.ignored_fields ?? {})) ignored.set(name, (ignored.get(name) ?? 0) + n);
  };
  try {
    for await (const line of lines) {
      if (line === '') continue; // the server skips empty lines too
      if (!part) {
        const body = new PassThrough();
        const p = { body, answer: postStream(opts, path, body), settled: false, count: 0 };
        p.answer.then(
          () => {
            p.settled = true;
          },
          () => {
            p.settled = true;
          },
        );
        part = p;
      }
      // An answer before the body ended means the server stopped reading (an error, or a broken body).
      if (part.settled) break;
      part.count++;
      if (!part.body.write(`${line}\n`)) await Promise.race([once(part.body, 'drain'), part.answer]);
      if (part.count >= perRequest) await finish();
    }
    await finish();
  } finally {
    lines.close();
    if (showProgress) bar.stop();
  }
  total.complete &&= read >= size;
  total.ignored_fields = Object.fromEntries([...ignored].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return total;
}

/** `patchbay records import --kind calls|messages <file.ndjson>`, `records calls|messages list`, `records usage` */
export function registerRecords(program: Command, opts: () => ClientOptions): void {
  const r = program.command('records').description('call and message detail records');
  examples(r, 'patchbay records calls list', 'patchbay records import --kind calls calls.ndjson');
  registerRecordLists(r, opts);
  registerRecordExport(r, opts);
  registerRecordUsage(r, opts);
  const imp = r
    .command('import <file>')
    .description('bulk-import detail records from an NDJSON file (one JSON record per line); idempotent by dr_sid')
    .requiredOption('--kind <kind>', 'calls or messages')
    .option('--per-request <n>', `records per request (default ${RECORDS_PER_REQUEST})`, (v) => Number.parseInt(v, 10))
    .option('--no-progress', 'do not show the progress bar')
    .action(async (file: string, o: { kind: string; progress: boolean; perRequest?: number }) => {
      if (o.perRequest !== undefined && !(o.perRequest > 0))
        throw new Error('--per-request must be a positive integer');
      const report = await importRecords(
        opts(),
        o.kind,
        userPath(file),
        o.progress && process.stderr.isTTY === true,
        o.perRequest,
      );
      printJson(report);
      const ignored = Object.keys(report.ignored_fields);
      process.stderr.write(
        `received ${report.received}, stored ${report.stored}, duplicates ` +
          `${report.duplicates}, rejected ` +
          `${report.rejected}${report.complete ? '' : ', file not read to its end'}\n`,
      );
      if (ignored.length > 0)
        process.stderr.write(`fields the server does not know were dropped: ${ignored.join(', ')}\n`);
      // Partial success: the report says what was refused; exit 2 so scripts notice.
      if (report.rejected > 0 || !report.complete) process.exitCode = 2;
    });
  examples(
    imp,
    'patchbay records import --kind calls calls.ndjson',
    'patchbay records import --kind messages sms.ndjson',
  );
}

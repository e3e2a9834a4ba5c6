import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { data, type PatchbayClient, type Schemas } from '@patchbay/client';
import { apiClient, type ClientOptions } from '../client';
import { examples } from '../help';
import { printJson } from '../output';
import { userPath } from '../paths';
import { downloadFile } from './file-transfer';

type RecordExport = Schemas['RecordExport'];
type ExportBody = Schemas['RecordExportCreate'];

/** Where each kind of record is exported. */
const PATHS = { calls: '/calls/call_drs/exports', messages: '/sms/message_drs/exports' } as const;
type Kind = keyof typeof PATHS;
const ENDED = ['done', 'failed', 'cancelled'];
const POLL_MS = 500;

function kindOf(value: string): Kind {
  // --kind takes the nouns of `records import` and the API's singular too (`call`, `message`).
  const k = value === 'call' ? 'calls' : value === 'message' ? 'messages' : value;
  if (k !== 'calls' && k !== 'messages') throw new Error('--kind must be one of: calls, messages');
  return k;
}

async function getExport(pb: PatchbayClient, kind: Kind, sid: string): Promise<RecordExport> {
  const params = { params: { path: { export_sid: sid } } };
  return kind === 'calls'
    ? data(pb.api.GET('/calls/call_drs/exports/{export_sid}', params))
    : data(pb.api.GET('/sms/message_drs/exports/{export_sid}', params));
}

/** Polls the export until it has ended, with a progress bar on stderr when asked; resolves with it. */
async function waitFor(pb: PatchbayClient, kind: Kind, sid: string, showProgress: boolean): Promise<RecordExport> {
  const bar = new SingleBar(
    { format: 'exporting {bar} {percentage}% | {records} records', stream: process.stderr },
    Presets.shades_classic,
  );
  if (showProgress) bar.start(100, 0, { records: 0 });
  try {
    for (;;) {
      const ex = await getExport(pb, kind, sid);
      if (showProgress) bar.update(ex.progress, { records: ex.record_count });
      if (ENDED.includes(ex.status)) return ex;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    if (showProgress) bar.stop();
  }
}

interface ExportOptions {
  kind: string;
  filter?: string;
  format?: string;
  compression?: string;
  container?: string;
  name?: string;
  callbackUrl?: string;
  wait?: boolean;
  download?: string;
  force?: boolean;
  progress: boolean;
}

/**
 * `patchbay records export --kind calls|messages [--filter …] [--format ndjson|csv]
 * [--compression gzip|none] [--container <sid>] [--name …] [--callback-url …] [--wait]
 * [--download <path>]`: starts an export (docs/interface-notes.md section 23) and prints it; with
 * `--wait` follows it to its end (a progress bar on a terminal), with `--download` also saves the
 * file. Exits 1 when the export failed or was cancelled.
 */
export function registerRecordExport(records: Command, opts: () => ClientOptions): void {
  const cmd = records
    .command('export')
    .description('export detail records into a file of a container (a server-side job); --wait to follow it')
    .requiredOption('--kind <kind>', 'calls or messages')
    .option('--filter <filter>', 'the list filter grammar, e.g. \'date_stop ge "2025-01-01T00:00:00Z"\'')
    .option('--format <format>', 'ndjson (default) or csv')
    .option('--compression <compression>', 'gzip (default) or none')
    .option('--container <container_sid>', 'the container the file goes into (default: your default container)')
    .option('--name <name>', 'the file name')
    .option('--callback-url <url>', 'called once (signed POST) when the export has ended')
    .option('--wait', 'wait until the export has ended')
    .option('--download <path>', 'wait, then save the file there (- for stdout)')
    .option('--force', 'with --download: overwrite an existing file')
    .option('--no-progress', 'do not show the progress bar')
    .action(async (o: ExportOptions) => {
      const kind = kindOf(o.kind);
      const pb = apiClient(opts());
      // why: the API checks the values (a 400 naming the field); the CLI passes them on as given.
      const body = {
        ...(o.filter !== undefined ? { filter: o.filter } : {}),
        ...(o.format !== undefined ? { format: o.format } : {}),
        ...(o.compression !== undefined ? { compression: o.compression } : {}),
        ...(o.container !== undefined ? { container_sid: o.container } : {}),
        ...(o.name !== undefined ? { name: o.name } : {}),
        ...(o.callbackUrl !== undefined ? { callback_url: o.callbackUrl } : {}),
      } as ExportBody;
      const created =
        kind === 'calls'
          ? await data(pb.api.POST(PATHS.calls, { body }))
          : await data(pb.api.POST(PATHS.messages, { body }));
      if (!o.wait && o.download === undefined) {
        printJson(created);
        return;
      }
      const ended = await waitFor(pb, kind, created.export_sid, o.progress && process.stderr.isTTY === true);
      if (ended.status === 'done' && ended.file_sid && o.download !== undefined) {
        const out = o.download === '-' ? '-' : userPath(o.download);
        await downloadFile(pb, ended.file_sid, out, o.force === true);
      }
      if (o.download !== '-') printJson(ended);
      if (ended.status !== 'done') {
        process.stderr.write(`export ${ended.status}${ended.error ? `: ${ended.error}` : ''}\n`);
        process.exitCode = 1;
      }
    });
  examples(
    cmd,
    'patchbay records export --kind calls --filter \'date_stop ge "2025-01-01T00:00:00Z"\' --wait',
    'patchbay records export --kind messages --format csv --compression none --download sms.csv',
  );
}

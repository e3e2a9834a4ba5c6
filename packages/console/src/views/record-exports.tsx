import { useEffect, useState } from 'preact/hooks';
import { data, type PatchbayClient, type Schemas } from '@patchbay/client';
import { ProblemBanner } from '../components/field';
import { otherMessages, problemOf, type Problem } from '../errors';
import { when } from '../format';
import { wholeItems } from '../whole';

type RecordExport = Schemas['RecordExport'];
type Kind = 'calls' | 'messages';
/** How often the list is read again while an export is queued or running (ms). */
const REFRESH_MS = 1000;
const SHOWN = 5;

async function listExports(client: PatchbayClient, kind: Kind): Promise<RecordExport[]> {
  const query = { limit: SHOWN };
  const page =
    kind === 'calls'
      ? await data(client.api.GET('/calls/call_drs/exports', { params: { query } }))
      : await data(client.api.GET('/sms/message_drs/exports', { params: { query } }));
  return wholeItems<RecordExport>(page).items;
}

/** Saves a file's bytes (Download Data, with the session's token) under `name`. */
async function saveFile(client: PatchbayClient, fileSid: string, name: string): Promise<void> {
  const blob = await data(
    client.api.GET('/storage/files/{file_sid}/data', { params: { path: { file_sid: fileSid } }, parseAs: 'blob' }),
  );
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The Records view's exports (docs/interface-notes.md section 23): "Export to a file" writes every
 * record of the current kind and date range — not just the page — into a CSV file of the default
 * container, on the server; the latest exports are listed with their state, and a finished one
 * can be downloaded.
 */
export function RecordExports({ client, kind, filter }: { client: PatchbayClient; kind: Kind; filter?: string }) {
  const [exports, setExports] = useState<RecordExport[]>([]);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [tick, setTick] = useState(0);
  const active = exports.some((e) => e.status === 'queued' || e.status === 'running');
  useEffect(() => {
    let live = true;
    listExports(client, kind).then(
      (items) => live && setExports(items),
      (err: unknown) => live && setProblem(problemOf(err)),
    );
    return () => {
      live = false;
    };
  }, [client, kind, tick]);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setTick((t) => t + 1), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [active, exports]);
  const start = async () => {
    setProblem(null);
    const body = { format: 'csv' as const, compression: 'none' as const, ...(filter ? { filter } : {}) };
    try {
      if (kind === 'calls') await data(client.api.POST('/calls/call_drs/exports', { body }));
      else await data(client.api.POST('/sms/message_drs/exports', { body }));
      setTick((t) => t + 1);
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  const download = (e: RecordExport) => {
    if (e.file_sid) saveFile(client, e.file_sid, e.name).catch((err: unknown) => setProblem(problemOf(err)));
  };
  return (
    <div class="record-exports">
      <p>
        <button type="button" onClick={() => void start()}>
          Export to a file (every record of the range)
        </button>
      </p>
      <ProblemBanner messages={otherMessages(problem, [])} />
      {exports.length > 0 && (
        <div class="scroll">
          <table class="export-list" data-kind={kind}>
            <caption>Exports, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">Records</th>
                <th scope="col">File</th>
              </tr>
            </thead>
            <tbody>
              {exports.map((e) => (
                <tr key={e.export_sid} data-export-sid={e.export_sid} data-status={e.status}>
                  <td>{when(e.date_created)}</td>
                  <td>
                    {e.status === 'running' ? `running, ${e.progress}%` : e.status}
                    {e.error ? ` (${e.error})` : ''}
                  </td>
                  <td>{e.record_count}</td>
                  <td>
                    {e.status === 'done' && e.file_sid ? (
                      <button type="button" onClick={() => download(e)}>
                        Download {e.name}
                      </button>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

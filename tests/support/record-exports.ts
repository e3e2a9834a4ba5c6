import { gunzipSync } from 'node:zlib';
import { API, http, instance, type TestPartner } from '../harness/api';
import type { ApiJson } from './api-json';
import { until } from './poll';

/** Ingests NDJSON records of a kind (`/calls/call_drs` or `/sms/message_drs`); fails unless every one is stored. */
export async function ingestRecords(p: TestPartner, path: string, records: object[]): Promise<void> {
  const res = await http()
    .post(`${API}${path}`)
    .set(...p.auth)
    .set('Content-Type', 'application/x-ndjson')
    .send(records.map((r) => JSON.stringify(r)).join('\n'));
  if (res.status !== 200 || res.body.stored !== records.length)
    throw new Error(`ingest failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Starts an export; returns the whole answer (status and body). */
export function startExport(p: TestPartner, path: string, body: Record<string, unknown>) {
  return http()
    .post(`${API}${path}/exports`)
    .set(...p.auth)
    .send(body);
}

/** Polls the export until it has ended (done, failed or cancelled); returns it. */
export function exportEnded(p: TestPartner, path: string, sid: string, timeoutMs = 60_000): Promise<ApiJson> {
  return until(`export ${sid} to end`, timeoutMs, async () => {
    const res = await http()
      .get(`${API}${path}/exports/${sid}`)
      .set(...p.auth);
    if (res.status !== 200) throw new Error(`export get: ${res.status} ${JSON.stringify(res.body)}`);
    return ['done', 'failed', 'cancelled'].includes(String(res.body.status)) ? (res.body as ApiJson) : undefined;
  });
}

/** The bytes of a file by SID (`GET /storage/files/{sid}/data`). */
export async function fileBytes(p: TestPartner, fileSid: string): Promise<Buffer> {
  const res = await fetch(`${instance().origin}${API}/storage/files/${fileSid}/data`, {
    headers: { Authorization: p.auth[1] },
  });
  if (res.status !== 200) throw new Error(`download: ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The text of an export's file, gunzipped when it is gzip. */
export async function exportText(p: TestPartner, fileSid: string): Promise<string> {
  const bytes = await fileBytes(p, fileSid);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Every record the list returns for `filter`, walking `after` cursors in the listing's order (date_stop). */
export async function walkList(p: TestPartner, path: string, filter?: string): Promise<ApiJson[]> {
  const out: ApiJson[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await http()
      .get(`${API}${path}`)
      .query({ limit: 1000, order: 'date_stop', ...(filter ? { filter } : {}), ...(after ? { after } : {}) })
      .set(...p.auth);
    if (res.status !== 200) throw new Error(`list: ${res.status} ${JSON.stringify(res.body)}`);
    const items = res.body.items as ApiJson[];
    out.push(...items);
    if (items.length === 0 || !res.body.pagination?.next) return out;
    after = String(items[items.length - 1].dr_sid);
  }
}

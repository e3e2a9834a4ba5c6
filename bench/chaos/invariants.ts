/**
 * What must hold after the chaos soak's quiet period, checked through the public API (and the blob
 * store for orphans): every acknowledged upload reads back with the same bytes, no retried write was
 * stored twice, every call record is listed once, every media file has its duration, the container's
 * counters equal its files, and no blob is left without a file.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { instanceBlobs } from '../../tests/harness/stores';
import type { PatchbayInstance } from '../../tests/harness/patchbay';
import type { Ledger, Target } from './workload';

interface FileItem {
  file_sid: string;
  name: string;
  file_bytes: number;
  content_duration: number | null;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function getJson<T>(url: string, token: string): Promise<T> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T; /* the API's list or object answer for this route */
}

/** Every item of a list, following pagination.next (offset or cursor pages alike). */
async function listAll<T>(url: string, token: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | undefined = url;
  while (next) {
    const page: { items: T[]; pagination: { next?: string } } = await getJson(next, token);
    items.push(...page.items);
    next = page.items.length > 0 ? page.pagination.next : undefined;
  }
  return items;
}

const check = (name: string, ok: boolean, detail: string): Check => ({ name, ok, detail });
const dupes = (names: string[]) => {
  const seen = new Map<string, number>();
  for (const n of names) seen.set(n, (seen.get(n) ?? 0) + 1);
  return [...seen].filter(([, c]) => c > 1).map(([n]) => n);
};

export async function checkInvariants(inst: PatchbayInstance, target: Target, ledger: Ledger): Promise<Check[]> {
  const { baseUrl, token, containerSid } = target;
  const checks: Check[] = [];
  const inContainer = encodeURIComponent(`container_sid eq "${containerSid}"`);
  const filesUrl = `${baseUrl}/storage/files?limit=1000&filter=${inContainer}`;
  let files = await listAll<FileItem>(filesUrl, token);

  // 1. Every acknowledged upload is there, once, with its bytes.
  const bySid = new Map(files.map((f) => [f.file_sid, f]));
  const missing = ledger.uploads.filter((u) => !bySid.has(u.fileSid));
  const wrong: string[] = [];
  for (const u of ledger.uploads.filter((x) => bySid.has(x.fileSid))) {
    const res = await fetch(`${baseUrl}/storage/files/${u.fileSid}/data`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const hash = createHash('sha256')
      .update(Buffer.from(await res.arrayBuffer()))
      .digest('hex');
    const f = bySid.get(u.fileSid);
    if (res.status !== 200 || hash !== u.sha256)
      wrong.push(
        `${u.fileSid} (${u.name}): ${res.status}, ${u.bytes} bytes sent, file_bytes ${f?.file_bytes}, ` +
          `attempts ${u.history}, started ${new Date(u.startedAt).toISOString()}`,
      );
  }
  checks.push(
    check(
      'every acknowledged upload reads back with the same bytes',
      missing.length === 0 && wrong.length === 0,
      `${ledger.uploads.length} acknowledged, ${missing.length} missing, ${wrong.length} with other bytes` +
        wrong
          .slice(0, 5)
          .map((w) => `\n        ${w}`)
          .join(''),
    ),
  );

  // 2. No retried write stored twice: one file per upload name, one endpoint per name.
  const dupFiles = dupes(files.map((f) => f.name));
  const unackedStored = ledger.unacknowledgedUploads.filter((n) => files.some((f) => f.name === n)).length;
  checks.push(
    check(
      'no duplicate from a retried upload',
      dupFiles.length === 0,
      `${files.length} files, ${dupFiles.length} names stored twice; ` +
        `${ledger.unacknowledgedUploads.length} given up by the client, ${unackedStored} of them stored once`,
    ),
  );
  const endpoints = await listAll<{ endpoint_sid: string; name: string }>(`${baseUrl}/endpoints?limit=1000`, token);
  const chaosEndpoints = endpoints.filter((e) => e.name.startsWith('chaos-ep-'));
  const dupEndpoints = dupes(chaosEndpoints.map((e) => e.name.replace(/-renamed$/, '')));
  const endpointSids = new Set(chaosEndpoints.map((e) => e.endpoint_sid));
  const lostEndpoints = ledger.endpoints.filter((e) => !endpointSids.has(e.endpointSid)).length;
  const unpatched = ledger.endpoints.filter(
    (e) => e.patched && chaosEndpoints.find((x) => x.endpoint_sid === e.endpointSid)?.name !== e.patched,
  ).length;
  checks.push(
    check(
      'every acknowledged endpoint create and update holds, none twice',
      dupEndpoints.length === 0 && lostEndpoints === 0 && unpatched === 0,
      `${ledger.endpoints.length} acknowledged, ${lostEndpoints} missing, ${unpatched} updates lost, ` +
        `${dupEndpoints.length} created twice`,
    ),
  );

  // 3. Every call record once.
  const records = await listAll<{ dr_sid: string }>(`${baseUrl}/calls/call_drs?limit=1000`, token);
  const listed = records.map((r) => r.dr_sid);
  const listedSet = new Set(listed);
  const lostRecords = ledger.callRecords.filter((s) => !listedSet.has(s)).length;
  checks.push(
    check(
      'every acknowledged call record listed once',
      lostRecords === 0 && listed.length === listedSet.size,
      `${ledger.callRecords.length} acknowledged, ${listed.length} listed, ${lostRecords} missing, ` +
        `${listed.length - listedSet.size} listed twice`,
    ),
  );

  // 4. Every media file with its duration (the probe is retried for up to 90 s after the faults).
  const mediaSids = new Set(ledger.uploads.filter((u) => u.media).map((u) => u.fileSid));
  const withoutDuration = () => files.filter((f) => mediaSids.has(f.file_sid) && f.content_duration === null);
  const deadline = Date.now() + 90_000;
  while (withoutDuration().length > 0 && Date.now() < deadline) {
    await sleep(5_000);
    files = await listAll<FileItem>(filesUrl, token);
  }
  checks.push(
    check(
      'every media file has its duration',
      withoutDuration().length === 0,
      `${mediaSids.size} media files, ${withoutDuration().length} without content_duration` +
        withoutDuration()
          .slice(0, 5)
          .map((f) => {
            const u = ledger.uploads.find((x) => x.fileSid === f.file_sid);
            const started = new Date(u?.startedAt ?? 0).toISOString();
            return `\n        ${f.file_sid} (${f.name}), attempts ${u?.history}, started ${started}`;
          })
          .join(''),
    ),
  );

  // 5. Counters equal the files.
  const container = await getJson<{ total_files: number; total_bytes: number }>(
    `${baseUrl}/storage/containers/${containerSid}`,
    token,
  );
  const bytes = files.reduce((s, f) => s + f.file_bytes, 0);
  checks.push(
    check(
      'container counters equal its files',
      container.total_files === files.length && container.total_bytes === bytes,
      `total_files ${container.total_files} vs ${files.length} files; total_bytes ${container.total_bytes} vs ${bytes}`,
    ),
  );

  // 6. No orphan blob: every blob under files/ belongs to a listed file (after the sweeps had their chance).
  const blobs = await instanceBlobs(inst);
  try {
    const fileSids = new Set(files.map((f) => f.file_sid));
    const orphans = async () =>
      (await blobs.keys('files/')).filter((k) => !fileSids.has((k.split('/')[2] ?? '').split('.')[0]));
    let left = await orphans();
    const until = Date.now() + 60_000;
    while (left.length > 0 && Date.now() < until) {
      await sleep(5_000);
      left = await orphans();
    }
    const incomplete = await blobs.incomplete();
    checks.push(
      check(
        'no orphan blob',
        left.length === 0 && incomplete.length === 0,
        `${left.length} blobs without a file, ${incomplete.length} partial writes left` +
          [...left, ...incomplete]
            .slice(0, 5)
            .map((k) => `\n        ${k}`)
            .join(''),
      ),
    );
  } finally {
    await blobs.close();
  }
  return checks;
}

/**
 * The chaos soak's mixed workload: writers that each loop over one kind of write until told to stop,
 * every write with an Idempotency-Key and sent until acknowledged (send.ts). The ledger keeps what
 * was acknowledged — the bytes' hash of each upload, every call record's dr_sid, each endpoint — for
 * the invariants checked at the end (invariants.ts).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sendUntilAcknowledged, type Attempt, type WriteResult } from './send';

/** Each attempt's status, `r` marking a replay: "0,409,200r". */
const historyOf = (attempts: Attempt[]) => attempts.map((a) => `${a.status}${a.replayed ? 'r' : ''}`).join(',');

export interface Target {
  baseUrl: string;
  /** Every gateway replica's API root: writes go to each in turn. */
  gateways: string[];
  token: string;
  containerSid: string;
}

export interface AckedUpload {
  name: string;
  sha256: string;
  bytes: number;
  fileSid: string;
  media: boolean;
  /** When the write started (epoch ms) and what each attempt got ("0" for no answer). */
  startedAt: number;
  history: string;
}

export interface Ledger {
  uploads: AckedUpload[];
  /** Upload names whose write was never acknowledged (given up): they may exist once, never twice. */
  unacknowledgedUploads: string[];
  callRecords: string[];
  unacknowledgedRecords: string[];
  endpoints: Array<{ endpointSid: string; name: string; patched: string | null }>;
  attempts: Attempt[];
  /** Writes answered with a final 4xx: the workload sends only valid writes, so each is a finding. */
  refused: Array<{ what: string; status: number; refusal: string; history: string }>;
}

export const newLedger = (): Ledger => ({
  uploads: [],
  unacknowledgedUploads: [],
  callRecords: [],
  unacknowledgedRecords: [],
  endpoints: [],
  attempts: [],
  refused: [],
});

/** A WAV of `seconds` of 8 kHz 16-bit mono noise: unique bytes, a duration the probe must find. */
export function noiseWav(seconds: number): Buffer {
  const data = randomBytes(8000 * 2 * seconds);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(16000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export interface Writers {
  /** Resolves when every writer has finished its current write after stop(). */
  stop(): Promise<void>;
}

/**
 * Starts `concurrency` writers per kind against `target`. Each write gives up `giveUpMs` after it
 * started (a client that stops retrying); stop() lets writes in flight finish.
 */
export function startWriters(target: Target, ledger: Ledger, opts: { concurrency: number; giveUpMs: number }): Writers {
  let running = true;
  let n = 0;
  const until = () => Date.now() + opts.giveUpMs;
  const api = () => target.gateways[n % target.gateways.length];
  const record = (what: string, r: WriteResult<unknown>) => {
    ledger.attempts.push(...r.attempts);
    if (!r.body && r.status !== undefined)
      ledger.refused.push({ what, status: r.status, refusal: r.refusal ?? '', history: historyOf(r.attempts) });
  };

  async function upload(media: boolean): Promise<void> {
    const i = n++;
    const startedAt = Date.now();
    const data = media ? noiseWav(1 + (i % 3)) : randomBytes(1024 + Math.floor(Math.random() * 256 * 1024));
    const name = media ? `chaos-${i}.wav` : `chaos-${i}.bin`;
    const qs = new URLSearchParams({ container_sid: target.containerSid, name });
    const r = await sendUntilAcknowledged<{ file_sid: string }>({
      method: 'POST',
      url: `${api()}/storage/files?${qs}`,
      token: target.token,
      key: `upload-${name}-${randomUUID()}`,
      body: data,
      contentType: 'application/octet-stream',
      until: until(),
      attemptTimeoutMs: 20_000,
    });
    record(media ? 'WAV upload' : 'upload', r);
    if (r.body?.file_sid) {
      const history = historyOf(r.attempts);
      ledger.uploads.push({
        name,
        sha256: sha256(data),
        bytes: data.length,
        fileSid: r.body.file_sid,
        media,
        startedAt,
        history,
      });
    } else ledger.unacknowledgedUploads.push(name);
  }

  async function callRecords(): Promise<void> {
    const stop = new Date(Date.UTC(2026, 0, 1) + n++ * 1000);
    const batch = Array.from({ length: 25 }, (_, j) => ({
      dr_sid: randomUUID(),
      date_start: new Date(stop.getTime() - 60_000 - j).toISOString(),
      date_stop: new Date(stop.getTime() - j).toISOString(),
      direction: 'outbound',
      price: '0.0025',
      rate: '0.005',
      number_src: '15550000000',
    }));
    const r = await sendUntilAcknowledged<{ stored: number; duplicates: number }>({
      method: 'POST',
      url: `${api()}/calls/call_drs`,
      token: target.token,
      key: `cdr-${randomUUID()}`,
      body: JSON.stringify(batch),
      contentType: 'application/json',
      until: until(),
    });
    record('call records', r);
    (r.body ? ledger.callRecords : ledger.unacknowledgedRecords).push(...batch.map((b) => b.dr_sid));
  }

  async function endpoint(): Promise<void> {
    const name = `chaos-ep-${n++}`;
    const created = await sendUntilAcknowledged<{ endpoint_sid: string }>({
      method: 'POST',
      url: `${api()}/endpoints`,
      token: target.token,
      key: `ep-${name}-${randomUUID()}`,
      body: JSON.stringify({ type: 'third_party', name, addresses: [{ ip: '192.0.2.10' }] }),
      contentType: 'application/json',
      until: until(),
    });
    record('endpoint create', created);
    if (!created.body) return;
    const entry = { endpointSid: created.body.endpoint_sid, name, patched: null as string | null };
    ledger.endpoints.push(entry);
    const renamed = `${name}-renamed`;
    const patched = await sendUntilAcknowledged<{ name: string }>({
      method: 'PATCH',
      url: `${api()}/endpoints/${entry.endpointSid}`,
      token: target.token,
      key: `ep-patch-${name}-${randomUUID()}`,
      body: JSON.stringify({ name: renamed }),
      contentType: 'application/json',
      until: until(),
    });
    record('endpoint update', patched);
    if (patched.body) entry.patched = renamed;
  }

  const kinds: Array<() => Promise<void>> = [() => upload(false), () => upload(true), callRecords, endpoint];
  const loops = kinds.flatMap((kind) =>
    Array.from({ length: opts.concurrency }, async () => {
      while (running) await kind();
    }),
  );
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

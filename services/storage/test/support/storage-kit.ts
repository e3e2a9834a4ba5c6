/**
 * One storage service in-process, for the fast tier (jest project `fast`): a MemoryBus pair (the
 * service's own and a caller's, on one hub), an in-memory SQLite document store and a blob store in
 * a tmp dir. No nats-server, no ffmpeg, no Patchbay instance. Tests speak to it on the storage
 * subjects, as the gateway, the transcoder and the threshold-worker do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  Subjects,
  unwrapReply,
  type BusReply,
  type Container,
  type Prepared,
  type Principal,
  type StoredFile,
} from '@patchbay/contracts';
import {
  DirBlobStore,
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  reply,
  type Stoppable,
  type Subscription,
} from '@patchbay/platform';
import type { StorageSettings } from '../../src/config';
import { startStorageService } from '../../src/service';

export interface StorageKit {
  /** The callers' bus (the gateway's, the transcoder's): requests to storage and stand-in responders. */
  bus: MemoryBus;
  /** The storage service's own bus, on the same hub. */
  storageBus: MemoryBus;
  docs: SqliteDocStore;
  blobs: DirBlobStore;
  storage: Stoppable;
  /** Stops the service and closes and removes everything the kit made. */
  stop(): Promise<void>;
}

export interface StorageKitOptions {
  /** Names the tmp dir, the logger and the metrics registry. */
  name: string;
  /**
   * Runs after the buses and stores exist and before the service starts: to serve the transcoder's
   * subjects on `bus`, or to wrap `storageBus` (a fault in the service's own publishing).
   */
  beforeStart?: (parts: Pick<StorageKit, 'bus' | 'storageBus' | 'docs' | 'blobs'>) => Promise<unknown> | void;
  settings?: Partial<StorageSettings>;
}

/** Settings that keep the service's own timers out of a test's way (an hour between sweeps). */
const TEST_SETTINGS: StorageSettings = {
  storageUrl: 'http://files.test',
  uploadStaleMs: 3_600_000,
  sweepIntervalMs: 3_600_000,
  busTimeoutMs: 5000,
};

export async function startStorageKit(opts: StorageKitOptions): Promise<StorageKit> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `pb-${opts.name}-`));
  const hub = MemoryBus.hub();
  const bus = new MemoryBus(hub);
  const storageBus = new MemoryBus(hub);
  const docs = new SqliteDocStore();
  const blobs = new DirBlobStore({ dir: path.join(root, 'blobs') });
  const closeAll = async () => {
    await bus.close();
    await storageBus.close();
    await docs.close();
    fs.rmSync(root, { recursive: true, force: true });
  };
  let storage: Stoppable;
  try {
    await opts.beforeStart?.({ bus, storageBus, docs, blobs });
    storage = await startStorageService(
      {
        bus: storageBus,
        docs,
        blobs,
        logger: createLogger({ name: opts.name, level: 'silent' }),
        metrics: createMetricsRegistry(opts.name),
      },
      { ...TEST_SETTINGS, ...opts.settings },
    );
  } catch (err) {
    await closeAll();
    throw err;
  }
  return {
    bus,
    storageBus,
    docs,
    blobs,
    storage,
    async stop() {
      await storage.stop();
      await closeAll();
    },
  };
}

/** A principal of `partnerSid` (a new partner when left out) that may manage its storage. */
export const principalOf = (partnerSid: string = `P-${randomUUID()}`): Principal => ({
  partner_sid: partnerSid,
  login: partnerSid,
  scopes: ['storage.manage'],
  token_sid: null,
});

/** A new partner and its default container, made as the gateway has it made. */
export async function newPartner(
  kit: Pick<StorageKit, 'bus'>,
): Promise<{ principal: Principal; container: Container }> {
  const principal = principalOf();
  const container = unwrapReply<Container>(
    await kit.bus.request(Subjects.storage.containerDefault, { partner_sid: principal.partner_sid }),
  );
  return { principal, container };
}

/** A gateway request on a storage subject: the principal, its path params and body. */
export function gatewayRequest(
  kit: Pick<StorageKit, 'bus'>,
  subject: string,
  principal: Principal,
  req: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown } = {},
): Promise<BusReply> {
  return kit.bus.request(subject, {
    principal,
    params: req.params ?? {},
    query: req.query ?? {},
    url: 'http://api.test/core/v2/storage',
    ...(req.body === undefined ? {} : { body: req.body }),
  });
}

/** One upload as the gateway makes it (JSON source): prepare, the bytes into the blob store, commit. */
export async function uploadFile(
  kit: Pick<StorageKit, 'bus' | 'blobs'>,
  principal: Principal,
  fields: Record<string, unknown>,
  bytes: Buffer = Buffer.alloc(1024, 1),
): Promise<StoredFile> {
  const prepared = unwrapReply<Prepared>(
    await kit.bus.request(Subjects.storage.uploadPrepare, { principal, fields, source: 'json' }),
  );
  await kit.blobs.put(prepared.blob_key, Readable.from([bytes]));
  return unwrapReply<StoredFile>(
    await kit.bus.request(Subjects.storage.uploadCommit, {
      principal,
      file_sid: prepared.file_sid,
      size: bytes.length,
      head: bytes.subarray(0, 512).toString('base64'),
    }),
  );
}

/** Whether the blob store holds `key`. */
export const blobExists = async (kit: Pick<StorageKit, 'blobs'>, key: string): Promise<boolean> =>
  (await kit.blobs.stat(key).catch(() => undefined)) !== undefined;

/** A string field of a request's payload (a stand-in's view of what storage sent it). */
function fieldOf(payload: unknown, field: string): string {
  const value: unknown = typeof payload === 'object' && payload !== null ? Reflect.get(payload, field) : undefined;
  if (typeof value !== 'string') throw new Error(`stand-in: the request has no ${field}`);
  return value;
}

/** The identity service's partner look-up, each partner with `attributesOf(partner_sid)` (none by default). */
export function serveIdentity(
  bus: MemoryBus,
  attributesOf: (partnerSid: string) => Record<string, unknown> = () => ({}),
): Promise<Subscription> {
  return bus.serve(Subjects.identity.partnerLookup, 'identity', async (payload) => {
    const partnerSid = fieldOf(payload, 'partner_sid');
    return reply(200, { partner_sid: partnerSid, attributes: attributesOf(partnerSid) });
  });
}

/** The endpoint service's answer to which endpoints name a container: `using(container_sid)` (none by default). */
export function serveEndpoint(
  bus: MemoryBus,
  using: (containerSid: string) => string[] = () => [],
): Promise<Subscription> {
  return bus.serve(Subjects.endpoint.usingContainer, 'endpoint', async (payload) =>
    reply(200, { endpoint_sids: using(fieldOf(payload, 'container_sid')) }),
  );
}

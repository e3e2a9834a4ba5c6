import { StorageClient, StorageEvents, Subjects, type PublicFile } from '@patchbay/contracts';
import { listenEvents, type Bus, type Logger, type Subscription } from '@patchbay/platform';

/** What storage tells the file server about a published file (messages/storage.ts). */
export type { PublicFile };

/**
 * Resolves `/f/<id>` through storage (which applies the publish rules), keeping answers for
 * `ttlMs`. File events drop entries at once, so an unpublished or deleted file stops being served
 * immediately on every replica; unknown ids are never cached, so a newly published file is visible
 * at once.
 */
export class Resolver {
  private readonly cache = new Map<string, { file: PublicFile; expires: number }>();
  private subs: Subscription[] = [];
  private readonly storage: StorageClient;

  /** `onForget(fileSid)`: also runs for every dropped file (the file server drops the blobs it keeps open). */
  constructor(
    private readonly bus: Bus,
    private readonly ttlMs: number,
    timeoutMs: number,
    private readonly log: Logger,
    private readonly onForget?: (fileSid: string) => void,
  ) {
    this.storage = new StorageClient(bus, { timeoutMs });
  }

  async start(): Promise<void> {
    // A fan-out (every replica drops its own entries); none on a bus that cannot fan out.
    this.subs = await listenEvents(
      this.bus,
      StorageEvents,
      {
        [Subjects.events.fileUpdated]: async ({ file_sid: sid }) => this.forget(sid),
        [Subjects.events.fileDeleted]: async ({ file_sid: sid }) => this.forget(sid),
      },
      this.log,
    );
  }

  async resolve(id: string, requestId?: string): Promise<PublicFile> {
    const hit = this.cache.get(id);
    if (hit && hit.expires > Date.now()) return hit.file;
    const file = await this.storage.resolvePublic(id, { requestId });
    if (this.ttlMs > 0) this.cache.set(id, { file, expires: Date.now() + this.ttlMs });
    return file;
  }

  forget(fileSid: string): void {
    for (const [id, entry] of this.cache) if (entry.file.file_sid === fileSid || id === fileSid) this.cache.delete(id);
    if (fileSid) this.onForget?.(fileSid);
  }

  async stop(): Promise<void> {
    await Promise.all(this.subs.map((s) => s.stop()));
  }
}

import { Subjects, unwrapReply } from '@patchbay/contracts';
import type { Bus, Subscription } from '@patchbay/platform';

/** What storage tells the file server about a published file. */
export interface PublicFile {
  file_sid: string;
  blob_key: string;
  file_bytes: number;
  mime_type: string;
  name: string;
  file_access_name: string;
  content_format: string | null;
  content_bitrate: number | null;
  /** When the bytes last changed (ISO 8601): Last-Modified, and what If-Range is compared with. */
  last_modified: string;
  /** What storage sent before `last_modified` (the metadata's time); read only during a rolling update. */
  date_modified?: string;
}

/**
 * Resolves `/f/<id>` through storage (which applies the publish rules), keeping answers for
 * `ttlMs`. File events drop entries at once, so an unpublished or deleted file stops being served
 * immediately on every replica; unknown ids are never cached, so a newly published file is visible
 * at once.
 */
export class Resolver {
  private readonly cache = new Map<string, { file: PublicFile; expires: number }>();
  private subs: Subscription[] = [];

  /** `onForget(fileSid)`: also runs for every dropped file (the file server drops the blobs it keeps open). */
  constructor(private readonly bus: Bus, private readonly ttlMs: number, private readonly timeoutMs: number, private readonly onForget?: (fileSid: string) => void) {}

  async start(): Promise<void> {
    if (!this.bus.listen) return;
    const drop = async (payload: unknown) => this.forget(String((payload as { file_sid?: string }).file_sid ?? ''));
    this.subs = await Promise.all([this.bus.listen(Subjects.events.fileUpdated, drop), this.bus.listen(Subjects.events.fileDeleted, drop)]);
  }

  async resolve(id: string, requestId?: string): Promise<PublicFile> {
    const hit = this.cache.get(id);
    if (hit && hit.expires > Date.now()) return hit.file;
    const file = unwrapReply<PublicFile>(await this.bus.request(Subjects.storage.fileResolvePublic, { id }, { timeoutMs: this.timeoutMs, requestId }));
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

import type { Logger } from '@patchbay/platform';
import type { Route } from '../domain/send-plan';
import type { OpenedApplication } from '../domain/documents';
import type { SenderFactory } from './sender-factory';
import type { PushSender } from './sender';

interface Entry {
  version: number;
  senders: Map<Route, PushSender>;
  lastUsed: number;
}

/**
 * The open provider clients, per application: one FCM client and one APNs client per
 * environment, built on first use and reused by every later send. An application's clients are
 * closed when its credentials change (here, or — seen through `credentials_version` — on another
 * replica), when it is deleted, and after `idleMs` without use. Each application has its own
 * clients and connections, so a slow or failing provider of one partner holds up no one else.
 */
export class SenderPool {
  private readonly entries = new Map<string, Entry>();
  private readonly idleCheck: NodeJS.Timeout;

  constructor(
    private readonly build: SenderFactory,
    private readonly idleMs: number,
    private readonly log: Logger,
  ) {
    this.idleCheck = setInterval(() => this.closeIdle(), Math.min(idleMs, 60_000));
    this.idleCheck.unref();
  }

  /**
   * The client for this application and route. A document older than the open clients (a send
   * that read it before an update) uses the newer clients; a newer one replaces them. Throws
   * SenderConfigError when the credentials do not open.
   */
  get(app: OpenedApplication, route: Route): PushSender {
    let entry = this.entries.get(app.application_sid);
    if (entry && entry.version < app.credentials_version) {
      void this.retire(app.application_sid, entry, 'credentials changed'); // retire logs its own failures
      entry = undefined;
    }
    if (!entry) {
      entry = { version: app.credentials_version, senders: new Map(), lastUsed: Date.now() };
      this.entries.set(app.application_sid, entry);
    }
    entry.lastUsed = Date.now();
    let sender = entry.senders.get(route);
    if (!sender) {
      sender = this.build(app, route);
      entry.senders.set(route, sender);
      this.log.info({ application_sid: app.application_sid, route, version: entry.version }, 'provider client opened');
    }
    return sender;
  }

  /** Closes an application's clients (its credentials changed or it was deleted), after their sends finish. */
  async invalidate(applicationSid: string, why: string): Promise<void> {
    const entry = this.entries.get(applicationSid);
    if (entry) await this.retire(applicationSid, entry, why);
  }

  async close(): Promise<void> {
    clearInterval(this.idleCheck);
    await Promise.all([...this.entries].map(([sid, e]) => this.retire(sid, e, 'shutting down')));
  }

  private retire(applicationSid: string, entry: Entry, why: string): Promise<void> {
    if (this.entries.get(applicationSid) === entry) this.entries.delete(applicationSid);
    return Promise.all(
      [...entry.senders].map(async ([route, sender]) => {
        try {
          await sender.close();
          this.log.info({ application_sid: applicationSid, route, why }, 'provider client closed');
        } catch (err) {
          this.log.warn({ application_sid: applicationSid, route, err }, 'closing a provider client failed');
        }
      }),
    ).then(() => undefined);
  }

  /** Retires the clients unused for `idleMs`. */
  private closeIdle(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [sid, entry] of this.entries) if (entry.lastUsed < cutoff) void this.retire(sid, entry, 'idle');
  }
}

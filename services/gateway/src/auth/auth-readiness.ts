import { Subjects, unwrapReply } from '@patchbay/contracts';
import { quietly, type Bus, type Logger } from '@patchbay/platform';

const POLL_MS = 200;

/**
 * Whether the credentials the gateway is asked to check can work yet: identity answers and has its
 * operator partner (created by the launcher's bootstrap once every service answers). Until then the
 * gateway's /health is 503, so a client or a load balancer that waits for 200 never meets a run of
 * 401s for a token that is about to exist (decisions §41). Asked every POLL_MS until true, then
 * never again: once credentials work, they keep working through identity's own availability (503s).
 */
export class AuthReadiness {
  private ok = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  get ready(): boolean {
    return this.ok;
  }

  start(): void {
    void this.poll();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    try {
      const reply = unwrapReply<{ ready: boolean }>(
        // Asked until identity answers: a look, not work, so no trace of its own (tracing/quiet.ts).
        await quietly(() => this.bus.request(Subjects.identity.ready, {}, { timeoutMs: 2000 })),
      );
      if (reply.ready) {
        this.ok = true;
        this.log.info('identity is ready: /health answers 200');
        return;
      }
    } catch {
      // Identity not up yet (no responders, timeout): asked again.
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.poll(), POLL_MS);
  }
}

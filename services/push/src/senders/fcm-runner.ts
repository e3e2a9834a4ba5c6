import { fcmOrigin, type FcmTestEndpoint } from './fcm-endpoint';
import { runFcmJob, type FcmJob, type FcmJobResult } from './fcm-job';
import type { Http2Origin } from './http2-origin';

/**
 * Where FCM jobs run: `lanes` independent places (worker threads, or the service's own thread),
 * each with its own HTTP/2 session per sender. A sender spreads a large send over the lanes and
 * puts the results back together by position.
 */
export interface FcmRunner {
  readonly lanes: number;
  run(lane: number, job: FcmJob): Promise<FcmJobResult>;
  /** Closes a sender's sessions in every lane (after its jobs finished). */
  release(sender: string): Promise<void>;
  close(): Promise<void>;
}

/** The sessions of one lane, one per sender, opened on first use. */
export class LaneSessions {
  private readonly origins = new Map<string, Http2Origin>();

  constructor(private readonly endpoint: FcmTestEndpoint | undefined) {}

  run(job: FcmJob): Promise<FcmJobResult> {
    let origin = this.origins.get(job.sender);
    if (!origin) {
      origin = fcmOrigin(this.endpoint);
      this.origins.set(job.sender, origin);
    }
    return runFcmJob(origin, job);
  }

  async release(sender: string): Promise<void> {
    const origin = this.origins.get(sender);
    this.origins.delete(sender);
    await origin?.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.origins.keys()].map((s) => this.release(s)));
  }
}

/** Jobs on the service's own thread (PUSH_SEND_WORKERS=0): one lane. */
export class InlineFcmRunner implements FcmRunner {
  readonly lanes = 1;
  private readonly sessions: LaneSessions;

  constructor(endpoint: FcmTestEndpoint | undefined) {
    this.sessions = new LaneSessions(endpoint);
  }

  run(_lane: number, job: FcmJob): Promise<FcmJobResult> {
    return this.sessions.run(job);
  }

  release(sender: string): Promise<void> {
    return this.sessions.release(sender);
  }

  close(): Promise<void> {
    return this.sessions.close();
  }
}

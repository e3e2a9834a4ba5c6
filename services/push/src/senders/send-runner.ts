import { runApnsJob } from './apns-job';
import { apnsOrigin } from './apns-origin';
import { fcmOrigin, type FcmTestEndpoint } from './fcm-endpoint';
import { runFcmJob } from './fcm-job';
import type { Http2Origin } from './http2-origin';
import type { JobResult } from './job-result';
import type { SendJob } from './send-job';

/**
 * Where send jobs run: `lanes` independent places (worker threads, or the service's own thread),
 * each with its own provider connection per sender. A sender spreads a large send over the lanes
 * and puts the results back together by position.
 */
export interface SendRunner {
  readonly lanes: number;
  run(lane: number, job: SendJob): Promise<JobResult>;
  /** Closes a sender's connections in every lane (after its jobs finished). */
  release(sender: string): Promise<void>;
  close(): Promise<void>;
}

/** The provider sessions of one lane, one per sender, opened on its first job. */
export class LaneSessions {
  private readonly clients = new Map<string, { kind: SendJob['kind']; origin: Http2Origin }>();

  constructor(private readonly fcmEndpoint: FcmTestEndpoint | undefined) {}

  /** Builds the sender's client on its first job (a client that cannot be built fails the job). */
  async run(job: SendJob): Promise<JobResult> {
    let client = this.clients.get(job.sender);
    if (!client) {
      client = {
        kind: job.kind,
        origin: job.kind === 'fcm' ? fcmOrigin(this.fcmEndpoint) : apnsOrigin(job.connection),
      };
      this.clients.set(job.sender, client);
    }
    if (client.kind !== job.kind) throw new Error(`sender ${job.sender} is not a ${job.kind} sender`);
    return job.kind === 'fcm' ? runFcmJob(client.origin, job) : runApnsJob(client.origin, job);
  }

  async release(sender: string): Promise<void> {
    const client = this.clients.get(sender);
    this.clients.delete(sender);
    await client?.origin.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.keys()].map((s) => this.release(s)));
  }
}

/** Jobs on the service's own thread (PUSH_SEND_WORKERS=0): one lane. */
export class InlineSendRunner implements SendRunner {
  readonly lanes = 1;
  private readonly sessions: LaneSessions;

  constructor(fcmEndpoint: FcmTestEndpoint | undefined) {
    this.sessions = new LaneSessions(fcmEndpoint);
  }

  run(_lane: number, job: SendJob): Promise<JobResult> {
    return this.sessions.run(job);
  }

  release(sender: string): Promise<void> {
    return this.sessions.release(sender);
  }

  close(): Promise<void> {
    return this.sessions.close();
  }
}

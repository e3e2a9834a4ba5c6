/**
 * A push send worker thread (worker-send-runner.ts starts it): runs FCM and APNs jobs on its own
 * provider connections, one per sender, and answers each with its result. Messages in: `run` {id, job},
 * `release` {id, sender}, `close`. Out: `ready`, then {id, result} or {id, error}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { FcmTestEndpoint } from './fcm-endpoint';
import type { SendJob } from './send-job';
import { LaneSessions } from './send-runner';

type Inbound =
  { type: 'run'; id: number; job: SendJob } | { type: 'release'; id: number; sender: string } | { type: 'close' };

const port = parentPort;
if (!port) throw new Error('send.worker.ts runs as a worker thread');
// workerData is typed any; worker-send-runner.ts's spawn() gives every worker `{ endpoint }`.
const sessions = new LaneSessions((workerData as { endpoint?: FcmTestEndpoint }).endpoint);

port.on('message', (m: Inbound) => {
  if (m.type === 'close') {
    void sessions.close().finally(() => port.close());
    return;
  }
  const work = m.type === 'run' ? sessions.run(m.job) : sessions.release(m.sender).then(() => null);
  work.then(
    (result) => port.postMessage({ id: m.id, result }),
    (err: unknown) => port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
port.postMessage({ type: 'ready' });

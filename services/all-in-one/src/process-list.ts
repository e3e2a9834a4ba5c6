import path from 'node:path';

/** One OS process of the distributed set. */
export interface ProcessSpec {
  name: string;
  /** Entry point, relative to the repository root. */
  entry: string;
  /** Extra environment for this process. */
  env?: Record<string, string>;
  /** Takes requests from outside (gateway, file server): stopped first, while the services it calls still answer. */
  stopFirst?: boolean;
}

export const REPO_ROOT = path.resolve(__dirname, '../../..');

export interface ProcessListOptions {
  port: number;
  storagePort: number;
  storageUrl: string;
  /** Replicas of the stateless services devops scale on their own (default 1 each). */
  fileServers?: number;
  transcoders?: number;
  thresholdWorkers?: number;
  /**
   * When set, process i gets OPS_PORT = opsPortBase + i (its /health and /metrics); otherwise
   * OPS_PORT=auto: each binds a port the OS picks and reports it to the launcher when ready.
   */
  opsPortBase?: number;
}

const replicas = (name: string, n: number, make: (i: number) => Omit<ProcessSpec, 'name'>): ProcessSpec[] =>
  Array.from({ length: Math.max(1, n) }, (_, i) => ({ name: n > 1 ? `${name}-${i + 1}` : name, ...make(i) }));

/**
 * Every service as its own process, in start order (the gateway last, so it finds everyone up).
 * File-server replicas listen on consecutive ports from `storagePort`.
 */
export function distributedProcesses(opts: ProcessListOptions): ProcessSpec[] {
  const list: ProcessSpec[] = [
    { name: 'identity', entry: 'services/identity/src/main.ts' },
    { name: 'records', entry: 'services/records/src/main.ts' },
    ...replicas('transcoder', opts.transcoders ?? 1, () => ({ entry: 'services/transcoder/src/main.ts' })),
    { name: 'storage', entry: 'services/storage/src/main.ts', env: { STORAGE_URL: opts.storageUrl } },
    { name: 'endpoint', entry: 'services/endpoint/src/main.ts' },
    { name: 'push', entry: 'services/push/src/main.ts' },
    ...replicas('file-server', opts.fileServers ?? 1, (i) => ({
      entry: 'services/file-server/src/main.ts',
      stopFirst: true,
      env: { STORAGE_PORT: String(opts.storagePort + i) },
    })),
    ...replicas('threshold-worker', opts.thresholdWorkers ?? 1, () => ({
      entry: 'services/threshold-worker/src/main.ts',
    })),
    {
      name: 'gateway',
      entry: 'services/gateway/src/main.ts',
      stopFirst: true,
      env: { PORT: String(opts.port), STORAGE_URL: opts.storageUrl },
    },
  ];
  list.forEach((p, i) => {
    p.env = { ...p.env, OPS_PORT: opts.opsPortBase ? String(opts.opsPortBase + i) : 'auto' };
  });
  return list;
}

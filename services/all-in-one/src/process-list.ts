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

/** The services of the distributed set, in start order (the gateway last, so it finds everyone up). */
export const SERVICE_NAMES = [
  'identity',
  'records',
  'transcoder',
  'storage',
  'endpoint',
  'push',
  'file-server',
  'threshold-worker',
  'gateway',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * Services that own an embedded store (their SQLite database under DATA_DIR, locked by one process):
 * replicas only with MONGODB_URL.
 */
export const OWNS_A_STORE: ReadonlySet<ServiceName> = new Set(['identity', 'records', 'storage', 'endpoint', 'push']);

/** `<SERVICE>_REPLICAS`: the environment key of a service's replica count. */
export const replicasKey = (name: ServiceName): string => `${name.toUpperCase().replace(/-/g, '_')}_REPLICAS`;

export interface ProcessListOptions {
  port: number;
  storagePort: number;
  storageUrl: string;
  /** Replicas of each service (default 1 each). */
  replicas?: Partial<Record<ServiceName, number>>;
  /**
   * Operations ports (/health and /metrics), only when asked (decisions §50): with `opsPortBase`
   * process i gets OPS_PORT = opsPortBase + i; with `opsPortsAuto` (OPS_PORT=auto given to the
   * launcher) each binds a port the OS picks and reports it when ready; otherwise none (OPS_PORT=0).
   */
  opsPortBase?: number;
  opsPortsAuto?: boolean;
}

/** What each service's process needs besides the common environment; `i` is the replica's index. */
function specOf(name: ServiceName, i: number, opts: ProcessListOptions): Omit<ProcessSpec, 'name'> {
  const entry = `services/${name}/src/main.ts`;
  switch (name) {
    case 'storage':
      return { entry, env: { STORAGE_URL: opts.storageUrl } };
    case 'file-server':
      return { entry, stopFirst: true, env: { STORAGE_PORT: String(opts.storagePort + i) } };
    case 'gateway':
      return { entry, stopFirst: true, env: { PORT: String(opts.port + i), STORAGE_URL: opts.storageUrl } };
    default:
      return { entry };
  }
}

/**
 * Every service as its own process (and replicas, named `<service>-<n>`), in start order. Replicas
 * of the gateway and of the file server listen on consecutive ports from `port` and `storagePort`.
 */
export function distributedProcesses(opts: ProcessListOptions): ProcessSpec[] {
  const list = SERVICE_NAMES.flatMap((name) => {
    const n = Math.max(1, opts.replicas?.[name] ?? 1);
    return Array.from({ length: n }, (_, i) => ({ name: n > 1 ? `${name}-${i + 1}` : name, ...specOf(name, i, opts) }));
  });
  list.forEach((p, i) => {
    const ops = opts.opsPortBase ? String(opts.opsPortBase + i) : opts.opsPortsAuto ? 'auto' : '0';
    p.env = { ...p.env, OPS_PORT: ops };
  });
  return list;
}

/**
 * Refuses replicas of a service that owns an embedded store: its SQLite database is one process's
 * (decisions §50). Returns the problems, one per service, empty when the set can run.
 */
export function replicaProblems(
  replicas: Partial<Record<ServiceName, number>>,
  mongodbUrl: string | undefined,
): string[] {
  if (mongodbUrl) return [];
  return SERVICE_NAMES.filter((name) => OWNS_A_STORE.has(name) && (replicas[name] ?? 1) > 1).map(
    (name) =>
      `${replicasKey(name)}=${replicas[name]}: ${name} keeps its data in an embedded SQLite database that one ` +
      'process owns; run replicas of it only with MONGODB_URL (a MongoDB the replicas share)',
  );
}

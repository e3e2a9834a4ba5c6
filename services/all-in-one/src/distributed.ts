// First: a plain message on an unsupported Node.js, before anything else loads.
import '@patchbay/platform/src/runtime/require-node';
import {
  ConfigError,
  createLogger,
  loadConfig,
  openBus,
  publicFilesUrl,
  resolveLogFormat,
  runProcess,
  stdoutSink,
} from '@patchbay/platform';
import { AllInOneConfig } from './config';
import { distributedProcesses, replicaProblems } from './process-list';
import { spawnSet, waitForHealth } from './spawn-set';
import { banner, bootstrapPartner } from './bootstrap';
import { bootstrapPasswordProblem, isDevelopmentHost } from './bootstrap-password';

/**
 * Distributed mode on one machine: every service in its own process, talking over NATS
 * (NATS_URL, default nats://127.0.0.1:4222), each stateful service with its own data directory
 * under DATA_DIR. Same environment as the all-in-one process, plus `<SERVICE>_REPLICAS` (replicas of
 * any service; gateways and file-servers on consecutive ports from PORT and STORAGE_PORT; services
 * with an embedded store only with MONGODB_URL) and operations ports only when asked: OPS_PORT_BASE
 * (process i serves /health and /metrics on OPS_PORT_BASE + i) or OPS_PORT=auto (each process binds a
 * port the OS picks and reports it when ready, and the launcher logs the list); neither, none. It
 * supervises the set: a service that exits or is killed is started again (spawn-set.ts, decisions §50).
 */
const logFormat = resolveLogFormat(process.env.LOG_FORMAT);
const logger = createLogger({ name: 'launcher', level: process.env.LOG_LEVEL || 'info', format: logFormat });
/**
 * The services write to the launcher's pipes, never to a terminal: they are told the launcher's
 * format (readable when the launcher is on a terminal), and keep its colours.
 */
const childLogEnv = {
  LOG_FORMAT: logFormat,
  ...(logFormat === 'pretty' && process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
};
runProcess({
  name: 'launcher',
  logger,
  // Its services get 20 s (gateway, file servers), then 7 s (the rest): every process is gone within 30 s.
  graceMs: 29000,
  // Under `pnpm start:distributed` the parent is a tsx/pnpm wrapper: if it is killed outright,
  // stop the set rather than leave it running unowned.
  exitWith: process.ppid,
  start: async () => {
    const env = { ...process.env, ...childLogEnv, NATS_URL: process.env.NATS_URL || 'nats://127.0.0.1:4222' };
    const config = loadConfig(AllInOneConfig, env);
    const storageUrl = publicFilesUrl(config);
    const replicas = {
      gateway: config.GATEWAY_REPLICAS,
      'file-server': config.FILE_SERVER_REPLICAS,
      transcoder: config.TRANSCODER_REPLICAS,
      'threshold-worker': config.THRESHOLD_WORKER_REPLICAS,
      identity: config.IDENTITY_REPLICAS,
      records: config.RECORDS_REPLICAS,
      storage: config.STORAGE_REPLICAS,
      endpoint: config.ENDPOINT_REPLICAS,
      push: config.PUSH_REPLICAS,
    };
    const problems = replicaProblems(replicas, config.MONGODB_URL);
    const weak = isDevelopmentHost(config.HOST) ? null : bootstrapPasswordProblem(config.PATCHBAY_BOOTSTRAP_PASSWORD);
    if (weak) problems.push(weak);
    if (problems.length) throw new ConfigError(problems);
    // Every process reports ready with its /health port; the set is announced once all answer there.
    const processes = distributedProcesses({
      port: config.PORT,
      storagePort: config.STORAGE_PORT,
      storageUrl,
      replicas,
      opsPortBase: config.OPS_PORT_BASE,
      opsPortsAuto: config.OPS_PORT === 'auto',
    });
    const set = spawnSet(processes, env, {
      logFormat,
      onRestart: (name, exit, restartInMs) =>
        logger.error({ name, ...exit, restart_in_ms: restartInMs }, 'a service exited: starting it again'),
    });
    const baseUrl = config.BASE_URL ?? `http://127.0.0.1:${config.PORT}/core/v2`;
    let opsPorts: Map<string, number | null>;
    try {
      opsPorts = await set.ready();
    } catch (err) {
      await set.stop({ firstMs: 5000, restMs: 5000 });
      throw err;
    }
    const ports = [...opsPorts.values()].filter((port): port is number => port !== null);
    // The services listen on HOST: every interface is reached on this machine through loopback.
    const local = ['0.0.0.0', '::'].includes(config.HOST) ? '127.0.0.1' : config.HOST;
    const origin = local.includes(':') ? `[${local}]` : local;
    await Promise.all(ports.map((port) => waitForHealth(`http://${origin}:${port}/health`)));
    logger.info(
      { ops_ports: Object.fromEntries(opsPorts) },
      'every service is ready (/health and /metrics on these ports)',
    );
    const bus = await openBus({ natsUrl: config.NATS_URL, name: 'launcher', logger });
    const result = await bootstrapPartner(bus, {
      login: config.PATCHBAY_BOOTSTRAP_LOGIN,
      password: config.PATCHBAY_BOOTSTRAP_PASSWORD,
      token: config.PATCHBAY_BOOTSTRAP_TOKEN,
    });
    await bus.close();
    stdoutSink().write(`${banner(result, baseUrl, storageUrl)}\n`);
    return { stop: () => set.stop() };
  },
});

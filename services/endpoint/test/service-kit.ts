import { Subjects, type BusReply, type GatewayRequest, type Scope } from '@patchbay/contracts';
import {
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type BlobStore,
  type Bus,
  type Logger,
  type Stoppable,
} from '@patchbay/platform';
import { startEndpointService } from '../src/service';
import { openEndpointRepo, type EndpointRepo } from '../src/repo';
import { DEFAULT_ENDPOINT_SETTINGS, type EndpointSettings } from '../src/config';
export { eventually } from '../../../tests/support/poll';

/** An endpoint service on an in-process bus and an in-memory store, as a test drives it. */
export interface ServiceKit {
  hub: ReturnType<typeof MemoryBus.hub>;
  bus: Bus;
  docs: SqliteDocStore;
  repo: EndpointRepo;
  /** Sends `svc.endpoint.<action>` as the gateway would, for `partnerSid` with `scopes`. */
  call(
    action: keyof typeof Subjects.endpoint,
    req: Partial<GatewayRequest> & { partnerSid: string; scopes?: Scope[] },
  ): Promise<BusReply>;
  stop(): Promise<void>;
}

export const ALL_ENDPOINT_SCOPES: Scope[] = ['endpoints.manage', 'endpoints.manage_auth_required'];

const unusedBlobs: BlobStore = {
  put: async () => {
    throw new Error('unused');
  },
  get: async () => {
    throw new Error('unused');
  },
  stat: async () => {
    throw new Error('unused');
  },
  delete: async () => {
    throw new Error('unused');
  },
};

/**
 * Starts the service on `docs` (a fresh in-memory store by default); `before` runs on the bus first (e.g. publishing
 * events the service should replay). `repo` is the collection as stored (secrets sealed).
 */
export async function startKit(
  settings: Partial<EndpointSettings> = {},
  before?: (bus: Bus) => Promise<void>,
  logger: Logger = createLogger({ name: 'endpoint-test', level: 'silent' }),
  docs: SqliteDocStore = new SqliteDocStore(),
): Promise<ServiceKit> {
  const hub = MemoryBus.hub();
  const bus = new MemoryBus(hub);
  if (before) await before(bus);
  const service: Stoppable = await startEndpointService(
    { bus: new MemoryBus(hub), docs, blobs: unusedBlobs, logger, metrics: createMetricsRegistry('endpoint-test') },
    { ...DEFAULT_ENDPOINT_SETTINGS, hostedApiUrl: 'https://hosted.test', busTimeoutMs: 2000, ...settings },
  );
  const repo = await openEndpointRepo(docs);
  return {
    hub,
    bus,
    docs,
    repo,
    call: (action, r) =>
      bus.request(Subjects.endpoint[action], {
        principal: {
          partner_sid: r.partnerSid,
          login: 'test',
          scopes: r.scopes ?? ALL_ENDPOINT_SCOPES,
          token_sid: null,
        },
        params: r.params ?? {},
        query: r.query ?? {},
        body: r.body ?? {},
        url: r.url ?? 'http://api.test/core/v2/endpoints',
      }),
    stop: async () => {
      await service.stop();
      await bus.close();
      await docs.close();
    },
  };
}

import {
  Subjects,
  unwrapReply,
  type BusReply,
  type Partner,
  type Principal,
  type Scope,
  type Token,
} from '@patchbay/contracts';
import {
  MemoryBus,
  SqliteDocStore,
  createLogger,
  createMetricsRegistry,
  type BlobStore,
  type Logger,
  type Stoppable,
} from '@patchbay/platform';
import { startIdentityService } from '../../src/service';

const unusedBlobs = {} as BlobStore;

/** The identity service on an in-process bus and an in-memory store, driven as the gateway drives it. */
export interface IdentityKit {
  bus: MemoryBus;
  /** The bootstrap partner (every scope) and its token. */
  admin: { partner: Partner; token: string; principal: Principal };
  /** `svc.identity.<action>` as the gateway forwards an API call of `principal`. */
  call(
    action: keyof typeof Subjects.identity,
    principal: Principal,
    req?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
  ): Promise<BusReply>;
  /** A principal as the gateway establishes it from a token. */
  principalOf(token: string): Promise<Principal>;
  /** A partner created by the admin with `scopes`, and a token of its own. */
  newPartner(scopes?: Scope[]): Promise<{ partner: Partner; principal: Principal; token: Token }>;
  stop(): Promise<void>;
}

let serial = 0;

export async function startIdentityKit(
  logger: Logger = createLogger({ name: 'identity-test', level: 'silent' }),
): Promise<IdentityKit> {
  const hub = MemoryBus.hub();
  const bus = new MemoryBus(hub);
  const docs = new SqliteDocStore();
  const service: Stoppable = await startIdentityService({
    bus: new MemoryBus(hub),
    docs,
    blobs: unusedBlobs,
    logger,
    metrics: createMetricsRegistry('identity-test'),
  });
  const boot = unwrapReply<{ partner: Partner; access_token: string }>(
    await bus.request(Subjects.identity.bootstrap, { login: 'admin', password: 'admin-password' }),
  );
  const principalOf = async (token: string) =>
    unwrapReply<{ principal: Principal }>(await bus.request(Subjects.identity.authenticateToken, { token })).principal;
  const call: IdentityKit['call'] = (action, principal, req = {}) =>
    bus.request(Subjects.identity[action], {
      principal,
      params: req.params ?? {},
      query: req.query ?? {},
      body: req.body,
      url: 'http://api.test/core/v2/x',
    });
  const admin = { partner: boot.partner, token: boot.access_token, principal: await principalOf(boot.access_token) };
  return {
    bus,
    admin,
    call,
    principalOf,
    async newPartner(scopes) {
      serial += 1;
      const login = `partner-${serial}-${Date.now()}`;
      const partner = unwrapReply<Partner>(
        await call('partnerCreate', admin.principal, {
          body: { login, password: 'partner-password', ...(scopes ? { available_scopes: scopes } : {}) },
        }),
      );
      const token = unwrapReply<Token>(
        await bus.request(Subjects.identity.tokenIssue, {
          form: { grant_type: 'password', username: login, password: 'partner-password' },
        }),
      );
      return { partner, token, principal: await principalOf(token.access_token!) };
    },
    stop: async () => {
      await service.stop();
      await bus.close();
      await docs.close();
    },
  };
}

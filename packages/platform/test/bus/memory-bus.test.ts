import type { Logger } from 'pino';
import { MemoryBus } from '../../src/bus/memory-bus';
import { describeBusContract } from './bus-contract';
import { describeLargeMessageContract } from './bus-contract-large';

// Every handle opened by one suite shares one hub, as processes share one nats-server; the hub
// enforces NATS's default max_payload, as the test suites' all-in-one does (BUS_MAX_PAYLOAD).
const medium = async () => {
  const hub = MemoryBus.hub({ maxPayload: 1024 * 1024 });
  return {
    connect: async (opts?: { logger?: Logger; maxMessageBytes?: number }) => new MemoryBus(hub, opts),
    teardown: async () => undefined,
  };
};
describeBusContract('MemoryBus', medium);
describeLargeMessageContract('MemoryBus', medium);

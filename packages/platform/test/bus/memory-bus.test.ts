import { MemoryBus } from '../../src/bus/memory-bus';
import { describeBusContract } from './bus-contract';

// Every handle opened by one suite shares one hub, as processes share one nats-server.
describeBusContract('MemoryBus', async () => {
  const hub = MemoryBus.hub();
  return {
    connect: async (opts) => new MemoryBus(hub, { logger: opts?.logger }),
    teardown: async () => undefined,
  };
});

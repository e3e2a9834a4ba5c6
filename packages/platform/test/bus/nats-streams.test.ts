import { connect, nanos } from 'nats';
import { Streams } from '@patchbay/contracts';
import { NatsBus } from '../../src/bus/nats-bus';
import { startNatsServer, type NatsServerHandle } from '../../src/testing/nats-server';

describe('stream limits (NATS_EVENTS_MAX_AGE, NATS_EVENTS_MAX_BYTES)', () => {
  let nats: NatsServerHandle;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.stop();
  });

  const eventsConfig = async () => {
    const nc = await connect({ servers: nats.url });
    try {
      return (await (await nc.jetstreamManager()).streams.info(Streams.events.name)).config;
    } finally {
      await nc.close();
    }
  };

  test('are applied by a process that sets them, kept by one that does not, lifted with 0', async () => {
    await (await NatsBus.connect({ url: nats.url })).close();
    expect(await eventsConfig()).toMatchObject({ max_age: 0, max_bytes: -1 });
    await (
      await NatsBus.connect({ url: nats.url, streams: { eventsMaxAgeS: 7 * 24 * 3600, eventsMaxBytes: 1 << 30 } })
    ).close();
    expect(await eventsConfig()).toMatchObject({ max_age: nanos(7 * 24 * 3600 * 1000), max_bytes: 1 << 30 });
    await (await NatsBus.connect({ url: nats.url })).close();
    expect(await eventsConfig()).toMatchObject({ max_age: nanos(7 * 24 * 3600 * 1000), max_bytes: 1 << 30 });
    await (await NatsBus.connect({ url: nats.url, streams: { eventsMaxAgeS: 0, eventsMaxBytes: 0 } })).close();
    expect(await eventsConfig()).toMatchObject({ max_age: 0, max_bytes: -1, subjects: [...Streams.events.subjects] });
  });
});

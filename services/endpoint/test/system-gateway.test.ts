import { randomUUID } from 'node:crypto';
import { Subjects } from '@patchbay/contracts';
import { captureLogger } from '../../../packages/platform/src/testing/capture-logger';
import { ensureSystemGateway } from '../src/system-gateway';
import { eventually, startKit, type ServiceKit } from './service-kit';

let kit: ServiceKit | undefined;
afterEach(async () => {
  await kit?.stop();
  kit = undefined;
});

/** `evt.partner.created` as identity publishes it (PartnerEventSchema). */
const partnerEvent = (partnerSid: string) => ({
  partner: {
    partner_sid: partnerSid,
    name: 'p',
    login: `p-${partnerSid.slice(0, 8)}`,
    status: 'active',
    available_scopes: [],
    attributes: {},
    date_created: new Date().toISOString(),
  },
});

describe('System Gateway on evt.partner.created', () => {
  test('partners created before the service first ran get one (the durable replays the stream)', async () => {
    const early = [randomUUID(), randomUUID()];
    kit = await startKit({}, async (bus) => {
      for (const p of early) await bus.publish(Subjects.events.partnerCreated, partnerEvent(p));
    });
    await eventually(async () => {
      for (const p of early)
        expect(await kit!.repo.endpoints.countDocuments({ partner_sid: p, type: 'system_gateway' })).toBe(1);
    });
  });

  test('a redelivered event creates no second one, and concurrent handlers agree on one', async () => {
    kit = await startKit();
    const p = randomUUID();
    for (let i = 0; i < 3; i++) await kit.bus.publish(Subjects.events.partnerCreated, partnerEvent(p));
    await eventually(async () => expect(await kit!.repo.endpoints.countDocuments({ partner_sid: p })).toBe(1));
    const q = randomUUID();
    const created = await Promise.all(Array.from({ length: 10 }, () => ensureSystemGateway(kit!.repo, q)));
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await kit.repo.endpoints.countDocuments({ partner_sid: q })).toBe(1);
  });

  test('a malformed event is logged and dropped; the next one is handled', async () => {
    const { logger, lines } = captureLogger('error');
    kit = await startKit({}, undefined, logger);
    const p = randomUUID();
    await kit.bus.publish(Subjects.events.partnerCreated, { partner_sid: p });
    await kit.bus.publish(Subjects.events.partnerCreated, partnerEvent(p));
    await eventually(async () => expect(await kit!.repo.endpoints.countDocuments({ partner_sid: p })).toBe(1));
    expect(lines.filter((l) => l.msg === 'malformed internal message refused').map((l) => l.subject)).toEqual([
      Subjects.events.partnerCreated,
    ]);
  });

  test('it can be neither changed nor deleted, and none can be created', async () => {
    kit = await startKit();
    const p = randomUUID();
    await kit.bus.publish(Subjects.events.partnerCreated, partnerEvent(p));
    await eventually(async () => expect(await kit!.repo.endpoints.countDocuments({ partner_sid: p })).toBe(1));
    const sg = await kit.repo.endpoints.findOne({ partner_sid: p });
    const params = { endpoint_sid: sg!.endpoint_sid };
    for (const [action, body] of [
      ['update', { name: 'x' }],
      ['replace', {}],
      ['delete', undefined],
    ] as const) {
      const r = await kit.call(action, { partnerSid: p, params, body });
      expect(r).toMatchObject({
        status: 422,
        error: { message: 'object validation error', errors: [{ field: 'type' }] },
      });
    }
    const created = await kit.call('create', { partnerSid: p, body: { type: 'system_gateway' } });
    expect(created).toMatchObject({ status: 422, error: { errors: [{ field: 'type' }] } });
  });
});

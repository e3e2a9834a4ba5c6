import { randomUUID } from 'node:crypto';
import { NotFoundError, Queues, Subjects, ok, type BusReply } from '@patchbay/contracts';
import { serveAll, createLogger } from '@patchbay/platform';
import { systemGatewayDoc } from '../src/system-gateway';
import { startKit, type ServiceKit } from './service-kit';

let kit: ServiceKit | undefined;
afterEach(async () => {
  await kit?.stop();
  kit = undefined;
});

const CONFLICT = {
  message: 'conflict error',
  errors: [{ field: null, message: 'duplicate ip for auth_required=false', reference_sid: null }],
};
const open = (ip: string) => ({ type: 'third_party', auth_required: false, addresses: [{ ip }] });
const body = (r: BusReply) => ('body' in r ? (r.body as Record<string, unknown>) : undefined);

describe('duplicate ip for auth_required=false', () => {
  test('counts system endpoints and other partners: the unique index spans the collection', async () => {
    kit = await startKit();
    const sg = systemGatewayDoc(randomUUID());
    await kit.repo.endpoints.insertOne({
      ...sg,
      auth_required: false,
      addresses: [
        {
          ...({
            direction: 'any',
            dst_port: 5060,
            location_sid: null,
            port: 5060,
            priority: 0,
            sip_password: null,
            sip_username: null,
            srtp: false,
            subnet_mask: 32,
            transport: 'udp',
          } as const),
          ip: '10.9.9.9',
        },
      ],
      open_ip_keys: ['10.9.9.9:5060'],
    });
    const r = await kit.call('create', { partnerSid: randomUUID(), body: open('10.9.9.9') });
    expect(r).toEqual({ status: 409, error: CONFLICT, code: 'conflict' });
  });

  test('20 concurrent creates on one IP and port: exactly one succeeds', async () => {
    kit = await startKit();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => kit!.call('create', { partnerSid: randomUUID(), body: open('10.8.8.8') })),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
    for (const r of replies.filter((x) => x.status === 409))
      expect(r).toEqual({ status: 409, error: CONFLICT, code: 'conflict' });
  });

  test('an update that would collide is refused and leaves the endpoint as it was', async () => {
    kit = await startKit();
    const p = randomUUID();
    expect((await kit.call('create', { partnerSid: p, body: open('10.7.7.7') })).status).toBe(200);
    const other = body(await kit.call('create', { partnerSid: p, body: open('10.7.7.8') }))!;
    const r = await kit.call('update', {
      partnerSid: p,
      params: { endpoint_sid: String(other.endpoint_sid) },
      body: { addresses: [{ ip: '10.7.7.7' }] },
    });
    expect(r).toEqual({ status: 409, error: CONFLICT, code: 'conflict' });
    const still = await kit.repo.endpoints.findOne({ endpoint_sid: other.endpoint_sid });
    expect(still!.addresses[0].ip).toBe('10.7.7.8');
  });
});

describe('properties.container_sid asks storage', () => {
  const flexml = (container: string) => ({ type: 'flexml', properties: { container_sid: container } });

  test('no storage service answering: 503 naming the field, nothing written', async () => {
    kit = await startKit();
    const p = randomUUID();
    const r = await kit.call('create', { partnerSid: p, body: flexml(randomUUID()) });
    expect(r).toMatchObject({ status: 503, error: { errors: [{ field: 'properties.container_sid' }] } });
    expect(await kit.repo.endpoints.countDocuments({ partner_sid: p })).toBe(0);
  });

  test('storage too slow: 503 as well', async () => {
    kit = await startKit({ busTimeoutMs: 100 });
    const slow = await kit.bus.serve(
      Subjects.storage.containerCheck,
      Queues.storage,
      () => new Promise((r) => setTimeout(() => r(ok({})), 500)), // an answer later than busTimeoutMs
    );
    const p = randomUUID();
    const r = await kit.call('create', { partnerSid: p, body: flexml(randomUUID()) });
    expect(r).toMatchObject({ status: 503, error: { errors: [{ field: 'properties.container_sid' }] } });
    await slow.stop();
    expect(await kit.repo.endpoints.countDocuments({ partner_sid: p })).toBe(0);
  });

  test('storage says 404: 422 naming properties.container_sid; storage finds it: created', async () => {
    kit = await startKit();
    const p = randomUUID();
    const known = randomUUID();
    const asked: unknown[] = [];
    const subs = await serveAll(
      kit.bus,
      Queues.storage,
      {
        [Subjects.storage.containerCheck]: async (payload) => {
          asked.push(payload);
          const { partner_sid, container_sid } = payload as { partner_sid: string; container_sid: string };
          if (partner_sid !== p || container_sid !== known) throw new NotFoundError();
          return { container_sid, partner_sid };
        },
      },
      createLogger({ name: 't', level: 'silent' }),
    );
    const bad = await kit.call('create', { partnerSid: p, body: flexml(randomUUID()) });
    expect(bad).toEqual({
      status: 422,
      error: {
        message: 'object validation error',
        errors: [
          { field: 'properties.container_sid', message: 'cannot find a container with this SID', reference_sid: null },
        ],
      },
      code: 'object_validation',
    });
    const otherPartner = await kit.call('create', { partnerSid: randomUUID(), body: flexml(known) });
    expect(otherPartner.status).toBe(422);
    const ok = await kit.call('create', { partnerSid: p, body: flexml(known) });
    expect(ok.status).toBe(200);
    expect(body(ok)!.properties).toMatchObject({ container_sid: known });
    expect(asked).toContainEqual({ partner_sid: p, container_sid: known });
    // Unchanged on update: storage is not asked again.
    const n = asked.length;
    const upd = await kit.call('update', {
      partnerSid: p,
      params: { endpoint_sid: String(body(ok)!.endpoint_sid) },
      body: { name: 'x', properties: { container_sid: known } },
    });
    expect(upd.status).toBe(200);
    expect(asked).toHaveLength(n);
    await Promise.all(subs.map((s) => s.stop()));
  });
});

describe('properties.callback_url is checked when it is set', () => {
  const voicemail = (callback_url: string) => ({ type: 'voicemail', properties: { callback_url } });
  const refusal = (message: string) => ({
    status: 422,
    error: {
      message: 'object validation error',
      errors: [{ field: 'properties.callback_url', message, reference_sid: null }],
    },
    code: 'object_validation',
  });

  test('only http and https; a private address (one message, however written) unless allowed', async () => {
    kit = await startKit({ callbacks: { allowPrivate: false, timeoutMs: 1000, retryBaseMs: 100, retryForMs: 1000 } });
    const p = randomUUID();
    for (const url of ['file:///etc/passwd', 'gopher://example.com/x', 'javascript:alert(1)', 'ftp://example.com/'])
      expect(await kit.call('create', { partnerSid: p, body: voicemail(url) })).toEqual(
        refusal('callback_url must be an http or https URL'),
      );
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '[::ffff:127.0.0.1]', 'localhost', '0.0.0.0', '[::1]'])
      expect(await kit.call('create', { partnerSid: p, body: voicemail(`http://${host}:8080/hook`) })).toEqual(
        refusal('this address is not allowed'),
      );
    const ok = await kit.call('create', { partnerSid: p, body: voicemail('https://8.8.8.8/hook') });
    expect(ok.status).toBe(200);
    const sid = String(body(ok)!.endpoint_sid);
    expect(
      await kit.call('update', {
        partnerSid: p,
        params: { endpoint_sid: sid },
        body: { properties: { callback_url: 'http://127.1/hook' } },
      }),
    ).toEqual(refusal('this address is not allowed'));
    expect(await kit.repo.endpoints.countDocuments({ partner_sid: p })).toBe(1);
  });

  test('CALLBACK_ALLOW_PRIVATE lets private addresses through, never other schemes', async () => {
    kit = await startKit({ callbacks: { allowPrivate: true, timeoutMs: 1000, retryBaseMs: 100, retryForMs: 1000 } });
    const p = randomUUID();
    expect((await kit.call('create', { partnerSid: p, body: voicemail('http://127.0.0.1:8080/hook') })).status).toBe(
      200,
    );
    expect(await kit.call('create', { partnerSid: p, body: voicemail('file:///etc/passwd') })).toEqual(
      refusal('callback_url must be an http or https URL'),
    );
  });
});

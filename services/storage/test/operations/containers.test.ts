/**
 * Containers (operations/containers.ts) on the storage subjects: a partner's default container made
 * once; a partner's container limit (the default counts, `max_containers` raises it, a delete gives
 * the slot back); another partner's container a 404; a delete refused for the default container, one
 * an endpoint names and one that holds files.
 */
import { Subjects, unwrapReply, type BusReply, type Container } from '@patchbay/contracts';
import {
  gatewayRequest,
  newPartner,
  serveEndpoint,
  serveIdentity,
  startStorageKit,
  uploadFile,
  type StorageKit,
} from '../support/storage-kit';

let kit: StorageKit;
/** The identity stand-in's partner attributes, by partner SID. */
const attributes = new Map<string, Record<string, unknown>>();
/** The endpoint stand-in's answer: the endpoints that name a container, by container SID. */
const endpointsUsing = new Map<string, string[]>();

beforeAll(async () => {
  kit = await startStorageKit({
    name: 'op-containers',
    beforeStart: async ({ bus }) => {
      await serveIdentity(bus, (sid) => attributes.get(sid) ?? {});
      await serveEndpoint(bus, (sid) => endpointsUsing.get(sid) ?? []);
    },
  });
});

afterAll(async () => {
  await kit.stop();
});

const errorOf = (r: BusReply) => {
  if (!('error' in r)) throw new Error(`expected an error, got ${r.status}`);
  return r.error.errors[0];
};

test("a partner's default container is made once, whoever asks first", async () => {
  const { principal, container } = await newPartner(kit);
  const again = await Promise.all(
    [1, 2, 3].map(async () =>
      unwrapReply<Container>(
        await kit.bus.request(Subjects.storage.containerDefault, { partner_sid: principal.partner_sid }),
      ),
    ),
  );
  expect(container.is_default).toBe(true);
  expect(again.map((c) => c.container_sid)).toEqual([1, 2, 3].map(() => container.container_sid));
});

test('the default counts toward the limit; max_containers raises it; a delete gives a slot back', async () => {
  const { principal } = await newPartner(kit);
  const create = (name: string) => gatewayRequest(kit, Subjects.storage.containerCreate, principal, { body: { name } });
  const second = unwrapReply<Container>(await create('second'));
  const refused = await create('third');
  expect(refused.status).toBe(422);
  expect(errorOf(refused).message).toMatch(/limit of 2 containers/);

  attributes.set(principal.partner_sid, { max_containers: 3 });
  const third = unwrapReply<Container>(await create('third'));
  expect((await create('fourth')).status).toBe(422);

  const deleted = await gatewayRequest(kit, Subjects.storage.containerDelete, principal, {
    params: { container_sid: third.container_sid },
  });
  expect(deleted.status).toBe(204);
  expect(unwrapReply<Container>(await create('fourth')).name).toBe('fourth');
  expect(second.is_default).toBe(false);
});

test("another partner's container is a 404 on get, check and delete", async () => {
  const owner = await newPartner(kit);
  const stranger = await newPartner(kit);
  const params = { container_sid: owner.container.container_sid };
  expect((await gatewayRequest(kit, Subjects.storage.containerGet, stranger.principal, { params })).status).toBe(404);
  expect((await gatewayRequest(kit, Subjects.storage.containerDelete, stranger.principal, { params })).status).toBe(
    404,
  );
  const check = await kit.bus.request(Subjects.storage.containerCheck, {
    partner_sid: stranger.principal.partner_sid,
    container_sid: owner.container.container_sid,
  });
  expect(check.status).toBe(404);
  const own = await gatewayRequest(kit, Subjects.storage.containerGet, owner.principal, { params });
  expect(unwrapReply<Container>(own).container_sid).toBe(owner.container.container_sid);
});

test('the default container is never deleted: a 422 naming container_sid', async () => {
  const { principal, container } = await newPartner(kit);
  const r = await gatewayRequest(kit, Subjects.storage.containerDelete, principal, {
    params: { container_sid: container.container_sid },
  });
  expect(r.status).toBe(422);
  expect(errorOf(r).field).toBe('container_sid');
});

test('a container an endpoint names, or one holding files, is kept: a 409; emptied and unnamed, it goes', async () => {
  const { principal } = await newPartner(kit);
  const c = unwrapReply<Container>(
    await gatewayRequest(kit, Subjects.storage.containerCreate, principal, { body: { name: 'held' } }),
  );
  const params = { container_sid: c.container_sid };
  const del = () => gatewayRequest(kit, Subjects.storage.containerDelete, principal, { params });

  endpointsUsing.set(c.container_sid, ['E-1']);
  const named = await del();
  expect(named.status).toBe(409);
  expect(errorOf(named)).toMatchObject({ field: 'container_sid', message: expect.stringContaining('E-1') });
  endpointsUsing.delete(c.container_sid);

  const file = await uploadFile(kit, principal, { container_sid: c.container_sid, name: 'a.bin' });
  expect((await del()).status).toBe(409);
  const fileDeleted = await gatewayRequest(kit, Subjects.storage.fileDelete, principal, {
    params: { file_sid: file.file_sid },
  });
  expect(fileDeleted.status).toBe(204);

  expect((await del()).status).toBe(204);
  expect((await gatewayRequest(kit, Subjects.storage.containerGet, principal, { params })).status).toBe(404);
});

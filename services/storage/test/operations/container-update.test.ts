/**
 * PATCH and PUT of a container (operations/container-update.ts) on the storage subjects: concurrent
 * PATCHes of different fields all land; a PUT must send every setting;
 * create-only fields and the cross-field rules are a 422 naming the field, and change nothing.
 */
import { Subjects, unwrapReply, type BusReply, type Container, type Principal } from '@patchbay/contracts';
import { gatewayRequest, newPartner, startStorageKit, type StorageKit } from '../support/storage-kit';

let kit: StorageKit;

beforeAll(async () => {
  kit = await startStorageKit({ name: 'op-container-update' });
});

afterAll(async () => {
  await kit.stop();
});

const errorOf = (r: BusReply) => {
  if (!('error' in r)) throw new Error(`expected an error, got ${r.status}`);
  return r.error.errors[0];
};

const change = (principal: Principal, container: Container, subject: string, body: Record<string, unknown>) =>
  gatewayRequest(kit, subject, principal, { params: { container_sid: container.container_sid }, body });
const patch = (principal: Principal, container: Container, body: Record<string, unknown>) =>
  change(principal, container, Subjects.storage.containerUpdate, body);

const current = async (principal: Principal, container: Container): Promise<Container> =>
  unwrapReply<Container>(
    await gatewayRequest(kit, Subjects.storage.containerGet, principal, {
      params: { container_sid: container.container_sid },
    }),
  );

test('concurrent PATCHes of different fields all land', async () => {
  const { principal, container } = await newPartner(kit);
  const replies = await Promise.all([
    patch(principal, container, { name: 'renamed' }),
    patch(principal, container, { quota_files: 50 }),
    patch(principal, container, { string_key_1: 'k1' }),
    patch(principal, container, { default_file_lifecycle_ttl: 600 }),
  ]);
  expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  expect(await current(principal, container)).toMatchObject({
    name: 'renamed',
    quota_files: 50,
    string_key_1: 'k1',
    default_file_lifecycle_ttl: 600,
  });
});

test('a PUT sends every setting: one left out is a 400 naming it, and nothing changes', async () => {
  const { principal, container } = await newPartner(kit);
  const r = await change(principal, container, Subjects.storage.containerReplace, { name: 'whole' });
  expect(r.status).toBe(400);
  if (!('error' in r)) throw new Error('expected an error');
  expect(r.error.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['quota_files', 'unique']));
  expect((await current(principal, container)).name).toBe(container.name);
});

test('a create-only field is a 422 naming it, and nothing changes', async () => {
  const { principal, container } = await newPartner(kit);
  const r = await patch(principal, container, { name: 'not-this', unique: !container.unique });
  expect(r.status).toBe(422);
  expect(errorOf(r).field).toBe('unique');
  expect((await current(principal, container)).name).toBe(container.name);
});

test('a threshold target without its threshold, or above it, is a 422 naming the target', async () => {
  const { principal, container } = await newPartner(kit);
  const without = await patch(principal, container, { threshold_files_target: 5 });
  expect(without.status).toBe(422);
  expect(errorOf(without)).toMatchObject({ field: 'threshold_files_target', message: 'needs threshold_files' });
  const above = await patch(principal, container, { threshold_files: 5, threshold_files_target: 5 });
  expect(above.status).toBe(422);
  expect(errorOf(above).field).toBe('threshold_files_target');
  expect(await current(principal, container)).toMatchObject({ threshold_files: null, threshold_files_target: null });
});

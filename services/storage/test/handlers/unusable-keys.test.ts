/**
 * Keys that can never encrypt (decisions §51): registering one is a 422 naming `public_key`; a key
 * stored before registration checked it (an all-zero X25519 key, an even RSA modulus) makes an
 * upload into a container naming it a 422 naming the key by its SID — never a 500 from the
 * encrypter — and a container cannot be made to name it.
 */
import { randomUUID } from 'node:crypto';
import { Subjects, type BusReply, type Container, type Principal } from '@patchbay/contracts';
import { newPartner, startStorageKit, type StorageKit } from '../support/storage-kit';

let kit: StorageKit;

beforeAll(async () => {
  kit = await startStorageKit({ name: 'unusable-keys' });
});

afterAll(async () => {
  await kit.stop();
});

/** The age recipient of 32 zero bytes (Bech32 of `age` and the zero key). */
const ALL_ZERO_AGE = 'age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq5cu47z';
const URL = 'http://api.test/core/v2/storage';

const partner = (): Promise<{ principal: Principal; container: Container }> => newPartner(kit);

/** A key as an older Patchbay stored it, without the checks registration now makes. */
async function legacyKey(partnerSid: string, publicKey: string): Promise<string> {
  const sid = randomUUID();
  await kit.docs.collection('encryption_keys').insertOne({
    encryption_key_sid: sid,
    partner_sid: partnerSid,
    name: 'legacy',
    key_type: publicKey.startsWith('age1') ? 'age-x25519' : 'ssh-rsa',
    public_key: publicKey,
    fingerprint: 'SHA256:legacy',
    date_created: new Date(),
  });
  return sid;
}

const errorOf = (reply: BusReply) => {
  if (!('error' in reply)) throw new Error(`expected an error, got ${reply.status}`);
  return reply.error.errors[0];
};

test('registering the all-zero age key is a 422 naming public_key', async () => {
  const { principal } = await partner();
  const reply = await kit.bus.request(Subjects.storage.keyCreate, {
    principal,
    params: {},
    query: {},
    body: { public_key: ALL_ZERO_AGE },
    url: `${URL}/encryption_keys`,
  });
  expect(reply.status).toBe(422);
  expect(errorOf(reply)).toMatchObject({ field: 'public_key', message: expect.stringMatching(/low-order/) });
});

test('an upload into a container naming a stored unusable key is a 422 naming that key, not a 500', async () => {
  const { principal, container } = await partner();
  const sid = await legacyKey(principal.partner_sid, ALL_ZERO_AGE);
  // The container names it as an older Patchbay allowed; registration and PATCH check it now.
  await kit.docs
    .collection('containers')
    .updateOne({ container_sid: container.container_sid }, { $set: { encryption_key_sids: [sid] } });
  const reply = await kit.bus.request(Subjects.storage.uploadPrepare, {
    principal,
    fields: { container_sid: container.container_sid, name: 'a.wav' },
    source: 'json',
  });
  expect(reply.status).toBe(422);
  expect(errorOf(reply)).toMatchObject({
    field: 'encryption_key_sids',
    reference_sid: sid,
    message: expect.stringMatching(new RegExp(`${sid} can never encrypt`)),
  });
});

test('a container cannot be made to name a stored unusable key', async () => {
  const { principal, container } = await partner();
  const sid = await legacyKey(principal.partner_sid, ALL_ZERO_AGE);
  const reply = await kit.bus.request(Subjects.storage.containerUpdate, {
    principal,
    params: { container_sid: container.container_sid },
    query: {},
    body: { encryption_key_sids: [sid] },
    url: `${URL}/containers`,
  });
  expect(reply.status).toBe(422);
  expect(errorOf(reply)).toMatchObject({ field: 'encryption_key_sids', reference_sid: sid });
});

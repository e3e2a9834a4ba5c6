/**
 * The gateway's Idempotency-Key records, through the bus as the gateway asks for them: one claim per
 * partner and key (also when requests race for it), in-progress and mismatch answers, the kept answer
 * replayed, a released key run again, a lapsed claim taken over — and a stale holder then loses it.
 */
import { createHash } from 'node:crypto';
import { Subjects, unwrapReply, type IdempotencyBeginReply, type IdempotencyHeldReply } from '@patchbay/contracts';
import { startIdentityKit, type IdentityKit } from './identity-kit';
import { until } from '../../../../tests/support/poll';

let kit: IdentityKit;
beforeAll(async () => {
  kit = await startIdentityKit();
});
afterAll(() => kit.stop());

const hash = (c: string) => c.repeat(64);
let serial = 0;
/** A key as the gateway sends it: its SHA-256, never the key itself. */
const newKey = () => createHash('sha256').update(`key-${++serial}-${Date.now()}`).digest('hex');
const begin = async (key: string, over: Record<string, unknown> = {}, partner = 'P1') =>
  unwrapReply<IdempotencyBeginReply>(
    await kit.bus.request(Subjects.identity.idempotencyBegin, {
      partner_sid: partner,
      key_hash: key,
      request_hash: hash('a'),
      body_hash: hash('b'),
      lease_ms: 60_000,
      ...over,
    }),
  );
const held = async (subject: string, payload: Record<string, unknown>) =>
  unwrapReply<IdempotencyHeldReply>(await kit.bus.request(subject, payload)).held;
const ANSWER = { status: 201, headers: { 'content-type': 'application/json' }, sealed_body: 'c2VhbGVk' };

function leaseOf(reply: IdempotencyBeginReply): string {
  if (reply.outcome !== 'run') throw new Error(`expected run, got ${reply.outcome}`);
  return reply.lease_id;
}

test('the first request runs; a repeat is in progress, another a mismatch; the kept answer replays', async () => {
  const key = newKey();
  const first = await begin(key);
  const lease = leaseOf(first);
  expect(Date.parse(first.outcome === 'run' ? first.expires_at : '')).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  expect(await begin(key)).toEqual({ outcome: 'in_progress', retry_after: 2 });
  expect(await begin(key, { request_hash: hash('c') })).toEqual({ outcome: 'mismatch' });
  expect(await begin(key, { body_hash: hash('d') })).toEqual({ outcome: 'mismatch' });
  const finish = {
    partner_sid: 'P1',
    key_hash: key,
    lease_id: lease,
    body_hash: hash('b'),
    body_bytes: 12,
    answer: ANSWER,
  };
  expect(await held(Subjects.identity.idempotencyFinish, finish)).toBe(true);
  expect(await begin(key)).toEqual({ outcome: 'replay', body_hash: hash('b'), body_bytes: 12, answer: ANSWER });
  // A streamed repeat (its body not read yet) gets the hashes to compare with.
  expect(await begin(key, { body_hash: null })).toMatchObject({ outcome: 'replay', body_hash: hash('b') });
  // Another partner's same key is its own.
  expect((await begin(key, {}, 'P2')).outcome).toBe('run');
  // Finished once: the claim is no longer held.
  expect(await held(Subjects.identity.idempotencyFinish, finish)).toBe(false);
  expect(await held(Subjects.identity.idempotencyRelease, { partner_sid: 'P1', key_hash: key, lease_id: lease })).toBe(
    false,
  );
});

test('a released key runs again; of requests racing for a key exactly one runs', async () => {
  const key = newKey();
  const lease = leaseOf(await begin(key));
  expect(await held(Subjects.identity.idempotencyRelease, { partner_sid: 'P1', key_hash: key, lease_id: lease })).toBe(
    true,
  );
  expect((await begin(key)).outcome).toBe('run');

  const raced = newKey();
  const replies = await Promise.all(Array.from({ length: 8 }, () => begin(raced)));
  expect(replies.filter((r) => r.outcome === 'run')).toHaveLength(1);
  expect(replies.filter((r) => r.outcome === 'in_progress')).toHaveLength(7);
});

test('a claim not renewed in time is taken over once; its old holder can neither renew nor finish it', async () => {
  const key = newKey();
  const short = { lease_ms: 150 };
  const stale = leaseOf(await begin(key, short));
  const renew = (lease: string) =>
    held(Subjects.identity.idempotencyRenew, { partner_sid: 'P1', key_hash: key, lease_id: lease, lease_ms: 150 });
  expect(await renew(stale)).toBe(true);
  expect((await begin(key, short)).outcome).toBe('in_progress');
  // The lease runs out (150 ms): a begin then takes the claim over.
  const taken: IdempotencyBeginReply = await until(
    'the claim to be taken over',
    10_000,
    async () => {
      const reply = await begin(key, short);
      return reply.outcome === 'run' ? reply : undefined;
    },
    { everyMs: 50 },
  );
  const fresh = leaseOf(taken);
  expect(fresh).not.toBe(stale);
  expect(await renew(stale)).toBe(false);
  const finish = { partner_sid: 'P1', key_hash: key, body_hash: hash('b'), body_bytes: null, answer: ANSWER };
  expect(await held(Subjects.identity.idempotencyFinish, { ...finish, lease_id: stale })).toBe(false);
  expect(await held(Subjects.identity.idempotencyFinish, { ...finish, lease_id: fresh })).toBe(true);
});

test('a malformed message is refused naming its fields (hashes that are not SHA-256 hex)', async () => {
  const reply = await kit.bus.request(Subjects.identity.idempotencyBegin, {
    partner_sid: 'P1',
    key_hash: 'k'.repeat(64),
    request_hash: 'nope',
    body_hash: null,
    lease_ms: 60_000,
  });
  expect(reply.status).toBe(400);
  const fields = 'error' in reply ? reply.error.errors.map((e) => e.field) : [];
  expect(fields).toEqual(expect.arrayContaining(['key_hash', 'request_hash']));
});

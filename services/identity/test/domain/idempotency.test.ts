import { claimedRecord, decideBegin, IN_PROGRESS_RETRY_SECONDS, type KeyRecord } from '../../src/domain/idempotency';

const at = (ms: number) => new Date(1_700_000_000_000 + ms);
const owner = { partner_sid: 'P', key_hash: 'k'.repeat(64) };
const JSON_REQ = { request_hash: 'r1', body_hash: 'b1' };
const STREAMED = { request_hash: 'r1', body_hash: null };
const DAY = 86_400_000;

/** A record claimed at 0 with a 1 s lease, kept a day; `done` with an answer when asked. */
function record(req: { request_hash: string; body_hash: string | null }, done = false): KeyRecord {
  const r = claimedRecord(owner, req, { id: 'L1', ms: 1000 }, DAY, at(0));
  return done
    ? { ...r, state: 'done', body_hash: 'b1', answer: { status: 200, headers: {}, sealed_body: 'c2VhbGVk' } }
    : r;
}

test('a claim runs for its lease and is kept a day (at least the lease)', () => {
  const r = record(JSON_REQ);
  expect(r).toMatchObject({ state: 'running', lease_id: 'L1', answer: null, body_bytes: null });
  expect(r.lease_until).toEqual(at(1000));
  expect(r.expires_at).toEqual(at(DAY));
  expect(claimedRecord(owner, JSON_REQ, { id: 'L', ms: 5000 }, 1000, at(0)).expires_at).toEqual(at(5000));
});

test('while the first runs: the same request is in progress (409), another one a mismatch (422)', () => {
  const r = record(JSON_REQ);
  expect(decideBegin(r, JSON_REQ, at(500))).toEqual({
    kind: 'in_progress',
    retryAfterSeconds: IN_PROGRESS_RETRY_SECONDS,
  });
  expect(decideBegin(r, { request_hash: 'r2', body_hash: 'b1' }, at(500))).toEqual({ kind: 'mismatch' });
  expect(decideBegin(r, { request_hash: 'r1', body_hash: 'b2' }, at(500))).toEqual({ kind: 'mismatch' });
  // A streamed body is not known yet on either side: the request line decides.
  expect(decideBegin(record(STREAMED), { request_hash: 'r1', body_hash: null }, at(500)).kind).toBe('in_progress');
});

test('a claim whose lease ran out (its gateway died) is taken over; an expired record is claimed afresh', () => {
  expect(decideBegin(record(JSON_REQ), JSON_REQ, at(1000))).toEqual({ kind: 'claim' });
  // Taken over only by the same request: another one is still a mismatch.
  expect(decideBegin(record(JSON_REQ), { request_hash: 'r2', body_hash: 'b1' }, at(5000)).kind).toBe('mismatch');
  expect(decideBegin(record(JSON_REQ, true), { request_hash: 'r2', body_hash: null }, at(DAY))).toEqual({
    kind: 'claim',
  });
});

test('a done record replays for the same request (a streamed body is compared by the gateway), else mismatches', () => {
  const done = record(JSON_REQ, true);
  expect(decideBegin(done, JSON_REQ, at(DAY - 1))).toEqual({ kind: 'replay' });
  expect(decideBegin(done, STREAMED, at(2000))).toEqual({ kind: 'replay' });
  expect(decideBegin(done, { request_hash: 'r1', body_hash: 'b9' }, at(2000))).toEqual({ kind: 'mismatch' });
});

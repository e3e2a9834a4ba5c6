/**
 * A service's kept answers to keyed writes (kept-answers.ts), on the embedded store: one run per key,
 * the answer replayed (sealed at rest), a 409 while it runs, a 422 for another request under the key,
 * a 5xx or a failure not kept, a write whose service died taken over after its lease.
 */
import { type BusReply, type KeyedWrite } from '@patchbay/contracts';
import { KeptAnswers, SqliteDocStore, createLogger, type KeptAnswerDoc } from '../../src';

const log = createLogger({ name: 'kept-answers-test', level: 'silent' });
const docs = new SqliteDocStore();
let answers: KeptAnswers;
afterAll(() => docs.close());
beforeAll(async () => {
  answers = await KeptAnswers.open(docs, log);
});

const keyed = (key: string, fingerprint = 'F1'): KeyedWrite => ({
  key_hash: key,
  fingerprint,
  seal_key: Buffer.alloc(32, key.length).toString('base64'),
  expires_at: new Date(Date.now() + 86_400_000).toISOString(),
});
const created = (sid: string): BusReply => ({ status: 200, body: { sid, secret: 'sip-password-1' } });

test('a repeat is answered what the first run answered, which is sealed at rest', async () => {
  let runs = 0;
  const run = async () => created(`sid-${++runs}`);
  const first = await answers.once('P', keyed('k1'), run);
  const repeat = await answers.once('P', keyed('k1'), run);
  expect(runs).toBe(1);
  expect(repeat).toEqual(first);
  const stored = await docs.collection<KeptAnswerDoc>('kept_answers').findOne({ key_hash: 'k1' });
  expect(JSON.stringify(stored)).not.toContain('sip-password-1');
  // Another partner's same key is its own.
  expect(await answers.once('Q', keyed('k1'), run)).toEqual(created('sid-2'));
});

test('another request under the key is a 422; a repeat while the first runs is a 409', async () => {
  let release = () => {};
  const slow = new Promise<BusReply>((resolve) => (release = () => resolve(created('slow'))));
  const first = answers.once('P', keyed('k2'), () => slow);
  const meanwhile = await answers.once('P', keyed('k2'), async () => created('twice'));
  expect(meanwhile).toMatchObject({ status: 409, code: 'idempotency_key_in_progress' });
  release();
  expect(await first).toEqual(created('slow'));
  const other = await answers.once('P', keyed('k2', 'F2'), async () => created('other'));
  expect(other).toMatchObject({ status: 422, code: 'idempotency_key_mismatch' });
});

test('a 5xx or a failure is not kept: the repeat runs again', async () => {
  const down: BusReply = { status: 503, error: { errors: [], message: 'down' }, code: 'unavailable' };
  expect(await answers.once('P', keyed('k3'), async () => down)).toEqual(down);
  await expect(answers.once('P', keyed('k3'), () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(await answers.once('P', keyed('k3'), async () => created('ran'))).toEqual(created('ran'));
});

test('a write whose service died is taken over after its lease; an expired answer is forgotten', async () => {
  await docs.collection<KeptAnswerDoc>('kept_answers').insertOne({
    partner_sid: 'P',
    key_hash: 'k4',
    fingerprint: 'F1',
    state: 'running',
    lease_id: 'dead',
    lease_until: new Date(Date.now() - 1),
    sealed_reply: null,
    expires_at: new Date(Date.now() + 86_400_000),
  });
  expect(await answers.once('P', keyed('k4'), async () => created('taken'))).toEqual(created('taken'));
  await docs.collection<KeptAnswerDoc>('kept_answers').insertOne({
    partner_sid: 'P',
    key_hash: 'k5',
    fingerprint: 'F1',
    state: 'done',
    lease_id: 'old',
    lease_until: new Date(Date.now() - 2),
    sealed_reply: 'not opened: past its expiry',
    expires_at: new Date(Date.now() - 1),
  });
  expect(await answers.once('P', keyed('k5'), async () => created('new'))).toEqual(created('new'));
});

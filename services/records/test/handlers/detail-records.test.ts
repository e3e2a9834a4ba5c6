/**
 * The detail-record handlers called directly (no bus), on an in-memory store: the caller's scope
 * on every route, field filtering. (A malformed batch is refused before the handler: service.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  Subjects,
  TooManyRequestsError,
  UnavailableError,
  type GatewayRequest,
  type RecordIngestBatch,
} from '@patchbay/contracts';
import { SqliteDocStore, createLogger } from '@patchbay/platform';
import { ListGate } from '@patchbay/query';
import { MESSAGE_RECORDS } from '../../src/domain/record-kinds';
import { messageRecordHandlers } from '../../src/handlers/detail-records';
import { openRecordsRepo } from '../../src/repo';

/** Lists of more than 5 items are large: 2 at once per partner, 3 in all. */
const LARGE_LISTS = { largeOver: 5, perPartner: 2, total: 3 };
const A = randomUUID();
const B = randomUUID();
const principal = (partner: string) => ({ partner_sid: partner, login: 't', scopes: [], token_sid: null });
const request = (
  partner: string,
  params: Record<string, string>,
  query: Record<string, string> = {},
): GatewayRequest => ({
  principal: principal(partner),
  params,
  query,
  body: undefined,
  url: `http://x/core/v2/sms/message_drs?${new URLSearchParams(query)}`,
});

let docs: SqliteDocStore;
const handlers = {
  list: (req: GatewayRequest, replied?: Promise<void>) =>
    messages[Subjects.records.messageList](req, { subject: Subjects.records.messageList, replied }),
  get: (req: GatewayRequest) => messages[Subjects.records.messageGet](req),
  ingest: (batch: RecordIngestBatch) => messages[Subjects.records.messageIngest](batch),
};
let messages: ReturnType<typeof messageRecordHandlers>;
const sid = randomUUID();
beforeAll(async () => {
  docs = new SqliteDocStore();
  const repo = await openRecordsRepo(docs);
  messages = messageRecordHandlers({
    repo,
    log: createLogger({ name: 'records-test', level: 'silent' }),
    settings: { cdrDefaultLimit: 10, largeLists: LARGE_LISTS },
    lists: new ListGate(LARGE_LISTS),
  });
  for (const [partner, text] of [
    [A, 'from A'],
    [B, 'from B'],
  ]) {
    await handlers.ingest({
      principal: principal(partner),
      first_position: 0,
      records: [
        { dr_sid: sid, message: text },
        { dr_sid: randomUUID(), message: `${text}, again` },
      ],
    });
  }
});
afterAll(() => docs.close());

test("get: the caller's record by dr_sid (any case), field filtering; anything else is a 404", async () => {
  expect(
    await handlers.get(request(B, { dr_sid: sid.toUpperCase() }, { include_fields: 'message,partner_sid' })),
  ).toEqual({ message: 'from B', partner_sid: B });
  await expect(handlers.get(request(randomUUID(), { dr_sid: sid }))).rejects.toBeInstanceOf(NotFoundError);
  await expect(handlers.get(request(A, { dr_sid: 'not-a-sid' }))).rejects.toBeInstanceOf(NotFoundError);
});

test("list: the caller's records only; a cursor is looked up among them", async () => {
  const page = await handlers.list(request(A, {}, { limit: '10' }));
  expect(page.items.map((i) => i.message).sort()).toEqual(['from A', 'from A, again']);
  const after = await handlers.list(request(A, {}, { after: sid, include_fields: 'partner_sid' }));
  expect(after.items.every((i) => i.partner_sid === A)).toBe(true);
});

test('a record is stored without its null fields and read back with every field, null ones as null', async () => {
  const repo = await openRecordsRepo(docs);
  const stored = await repo.messageDrs.findOne({ partner_sid: A, dr_sid: sid });
  // Only what has a value (lists included, as `[]`); `numeric` without its null entries.
  expect(Object.entries(stored ?? {}).filter(([, v]) => v === null)).toEqual([]);
  expect(stored).toMatchObject({ message: 'from A', media_urls: [], numeric: {} });
  expect(stored).not.toHaveProperty('price');
  const read = await handlers.get(request(A, { dr_sid: sid }));
  expect(Object.keys(read).sort()).toEqual([...MESSAGE_RECORDS.fields.names].sort());
  expect(read).toMatchObject({ message: 'from A', price: null, date_sent: null, media_urls: [] });
  // A filter on null still finds them (missing is null, as in MongoDB), and one on a value does not.
  const byNull = await handlers.list(request(A, {}, { filter: 'price eq null' }));
  expect(byNull.items.map((i) => i.message).sort()).toEqual(['from A', 'from A, again']);
  expect((await handlers.list(request(A, {}, { filter: "price eq '0.01'" }))).items).toEqual([]);
});

test(
  "large lists: a partner's third at once is a 429 naming limit, the service's fourth a 503, both with " +
    'Retry-After; small lists always pass; a slot is free again once its reply has left',
  async () => {
    const sent: Array<() => void> = [];
    // Held until "sent": the bus settles `replied` once the reply has left the process.
    const holding = () => new Promise<void>((r) => sent.push(r));
    const large = (partner: string) => request(partner, {}, { limit: '6' });
    for (let i = 0; i < 2; i++) expect((await handlers.list(large(A), holding())).count).toBe(2);
    const refused = await handlers.list(large(A)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBe(1);
    expect((refused as TooManyRequestsError).errors[0]).toMatchObject({ field: 'limit' });
    expect((refused as Error).message).toBe('too many large lists at once');
    // A smaller page from the same partner, and B's large page (the service's third), still go.
    expect((await handlers.list(request(A, {}, { limit: '5' }))).count).toBe(2);
    expect((await handlers.list(large(B), holding())).count).toBe(2);
    const busy = await handlers.list(large(randomUUID())).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(UnavailableError);
    expect((busy as UnavailableError).retryAfterSeconds).toBe(1);
    // Once a reply has left, its slot is free; a list that fails (a bad cursor's 400) lets its slot go at once.
    sent.shift()!();
    await new Promise((r) => setImmediate(r));
    await expect(handlers.list(request(A, {}, { limit: '6', after: randomUUID() }))).rejects.toMatchObject({
      status: 400,
      errors: [{ field: 'after' }],
    });
    expect((await handlers.list(large(A), holding())).count).toBe(2);
    await expect(handlers.list(large(A))).rejects.toThrow(TooManyRequestsError);
    for (const release of sent.splice(0)) release();
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 3; i++) expect((await handlers.list(large(randomUUID()), holding())).count).toBe(0);
    for (const release of sent.splice(0)) release();
  },
);

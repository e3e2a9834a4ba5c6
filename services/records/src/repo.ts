import { DuplicateKeyError, hasErrorCode, type Country } from '@patchbay/contracts';
import type { Collection, DocStore } from '@patchbay/platform';
import { buildCountries } from './domain/country-data';
import type { ExportDoc } from './domain/export-docs';
import type { RecordDoc } from './domain/record-docs';
import { openUsageRollups, type UsageRollupRepo } from './usage/usage-rollups';

export interface RecordsRepo {
  countries: Collection<Country & Record<string, unknown>>;
  callDrs: Collection<RecordDoc>;
  messageDrs: Collection<RecordDoc>;
  /** Bulk exports: the API objects and their jobs (exports/). */
  exports: Collection<ExportDoc>;
  /** Usage totals per partner and UTC hour, and the days to recompute (usage/usage-rollups.ts). */
  usage: UsageRollupRepo;
}

/**
 * Creates a kind's indexes, idempotently, on a new or an existing database.
 *
 * Identity is per partner: `(partner_sid, dr_sid)` is unique, so two partners may hold records with
 * the same `dr_sid` and neither can learn of the other's. Releases before this one had `dr_sid`
 * unique on its own; that index is dropped here once the per-partner one exists (existing data
 * satisfies the new one, since it satisfied the stricter old one).
 *
 * Each cursor order has an index on (partner_sid, <order date>, dr_sid) — exactly the total order
 * of a cursor page within one partner — so a page costs the same wherever it is (MongoDB walks it
 * from the cursor; the embedded SQLite store compiles the cursor filter to a row-value range over
 * the same index, see platform's sqlite-filter.ts).
 *
 * The first order's index also holds, after those three, the fields the usage totals read
 * (domain/usage-kinds.ts; its date is that order's): the embedded store then totals a bucket from one
 * index range without reading a record (decisions §57). One index serves both, so ingest keeps
 * one index per order; releases before usage had the three fields alone, an index dropped here once the
 * wider one exists.
 */
async function indexDetailRecords(
  c: Collection<RecordDoc>,
  orderDates: readonly string[],
  usageFields: readonly string[],
): Promise<void> {
  await c.createIndex({ partner_sid: 1, dr_sid: 1 }, { unique: true });
  await c.dropIndex({ dr_sid: 1 });
  for (const [n, date] of orderDates.entries()) {
    const order = { partner_sid: 1, [date]: 1, dr_sid: 1 } as const;
    if (n > 0) await c.createIndex(order);
    else {
      await c.createIndex({ ...order, ...Object.fromEntries(usageFields.map((f) => [f, 1 as const])) });
      await c.dropIndex(order);
    }
  }
}

/** What the usage totals read besides the date, per kind (domain/usage-kinds.ts, and its second key `direction`). */
const USAGE_FIELDS = {
  call_drs: ['sipcause', 'numeric.duration_billing', 'numeric.price', 'direction'],
  message_drs: ['message_segments', 'numeric.price', 'direction'],
} as const;

/** Opens the collections, creates or migrates their indexes and loads the country list. */
export async function openRecordsRepo(docs: DocStore): Promise<RecordsRepo> {
  const countries = docs.collection<Country & Record<string, unknown>>('countries');
  await countries.createIndex({ iso_3166_alpha_3: 1 }, { unique: true });
  const data = buildCountries();
  if ((await countries.countDocuments({})) !== data.length) {
    for (const c of data)
      await countries
        .replaceOne({ iso_3166_alpha_3: c.iso_3166_alpha_3 }, c)
        .then(async (r) => {
          if (r.matchedCount === 0) await countries.insertOne(c);
        })
        .catch(async (err: unknown) => {
          if (!hasErrorCode(err, 'duplicate_key')) throw err;
        });
  }
  const callDrs = docs.collection<RecordDoc>('call_drs');
  await indexDetailRecords(callDrs, ['date_stop'], USAGE_FIELDS.call_drs);
  const messageDrs = docs.collection<RecordDoc>('message_drs');
  await indexDetailRecords(messageDrs, ['date_insert', 'date_stop'], USAGE_FIELDS.message_drs);
  const exports = docs.collection<ExportDoc>('record_exports');
  await exports.createIndex({ export_sid: 1 }, { unique: true });
  await exports.createIndex({ partner_sid: 1, date_created: 1, export_sid: 1 });
  await exports.createIndex({ status: 1, lease_until: 1 });
  await exports.createIndex({ 'callback.state': 1, 'callback.next_attempt_at': 1 });
  return { countries, callDrs, messageDrs, exports, usage: await openUsageRollups(docs) };
}

/**
 * Stores the records not stored yet, idempotently by (partner_sid, dr_sid): one already stored
 * counts as a duplicate, never an error, whatever its content.
 */
export async function storeNewRecords(
  c: Collection<RecordDoc>,
  docs: readonly RecordDoc[],
): Promise<{ stored: number; duplicates: number }> {
  const byPartner = new Map<string, RecordDoc[]>();
  for (const doc of docs) {
    const group = byPartner.get(doc.partner_sid);
    if (group) group.push(doc);
    else byPartner.set(doc.partner_sid, [doc]);
  }
  let duplicates = 0;
  const fresh: RecordDoc[] = [];
  for (const [partner, group] of byPartner) {
    const found = await c.find(
      { partner_sid: partner, dr_sid: { $in: group.map((d) => d.dr_sid) } },
      { projection: { dr_sid: 1 } },
    );
    const stored = new Set(found.map((d) => d.dr_sid));
    for (const doc of group)
      if (stored.has(doc.dr_sid)) duplicates++;
      else fresh.push(doc);
  }
  if (fresh.length === 0) return { stored: 0, duplicates };
  try {
    await c.insertMany(fresh);
    return { stored: fresh.length, duplicates };
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
  }
  // Stored meanwhile by a concurrent ingest or event (insertMany stored none or some): one by one.
  let stored = 0;
  for (const doc of fresh) {
    try {
      await c.insertOne(doc);
      stored++;
    } catch (e) {
      if (e instanceof DuplicateKeyError) duplicates++;
      else throw e;
    }
  }
  return { stored, duplicates };
}

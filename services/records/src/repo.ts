import type { Collection, DocStore } from '@patchbay/platform';
import type { Country } from '@patchbay/contracts';
import { buildCountries } from './domain/country-data';
import type { CallDoc, MessageDoc } from './domain/record-docs';

export interface RecordsRepo {
  countries: Collection<Country & Record<string, unknown>>;
  callDrs: Collection<CallDoc>;
  messageDrs: Collection<MessageDoc>;
}

/**
 * Opens the collections, creates their indexes (idempotently) and loads the country list.
 *
 * Detail records: `dr_sid` is unique (ingest and events are idempotent by it), and each list has an
 * index on (partner_sid, <its order date>, dr_sid) — exactly the total order of a cursor page
 * within one partner — so a page costs the same wherever it is (MongoDB walks it from the cursor;
 * the embedded store's ordered scan walks it by the date, see platform's nedb-ordered-scan.ts).
 */
export async function openRecordsRepo(docs: DocStore): Promise<RecordsRepo> {
  const countries = docs.collection<Country & Record<string, unknown>>('countries');
  await countries.createIndex({ iso_3166_alpha_3: 1 }, { unique: true });
  const data = buildCountries();
  if ((await countries.countDocuments({})) !== data.length) {
    for (const c of data) await countries.replaceOne({ iso_3166_alpha_3: c.iso_3166_alpha_3 }, c).then(async (r) => { if (r.matchedCount === 0) await countries.insertOne(c); }).catch(async (err: unknown) => { if ((err as { status?: number }).status !== 409) throw err; });
  }
  const callDrs = docs.collection<CallDoc>('call_drs');
  await callDrs.createIndex({ dr_sid: 1 }, { unique: true });
  await callDrs.createIndex({ partner_sid: 1, date_stop: 1, dr_sid: 1 });
  const messageDrs = docs.collection<MessageDoc>('message_drs');
  await messageDrs.createIndex({ dr_sid: 1 }, { unique: true });
  await messageDrs.createIndex({ partner_sid: 1, date_insert: 1, dr_sid: 1 });
  return { countries, callDrs, messageDrs };
}

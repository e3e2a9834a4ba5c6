import { SqliteDocStore } from '../../src/doc-store/sqlite-doc-store';
import type { Filter } from '../../src/doc-store/port';

/**
 * Filters typed by the collection's documents. The `@ts-expect-error` lines are the test that
 * matters: `pnpm run typecheck` fails when one of them compiles (a misspelt field, a value of the
 * wrong type); jest runs the rest to show the typed filters mean what they say.
 */
interface Track {
  sid: string;
  kind: 'audio' | 'video';
  seconds: number | null;
  tags: string[];
  owner: { partner_sid: string; since: Date };
  parts: Array<{ codec: string; bytes: number }>;
}

const ok: Filter<Track>[] = [
  { sid: 'a' },
  { kind: { $in: ['audio'] }, seconds: { $gte: 1 } },
  { seconds: null },
  { tags: 'x' },
  { tags: { $elemMatch: { $eq: 'x' } } },
  { 'owner.partner_sid': 'p', 'owner.since': { $lt: new Date() } },
  { 'parts.codec': 'opus', parts: { $elemMatch: { bytes: { $gt: 0 } } } },
  { $or: [{ sid: 'a' }, { 'owner.partner_sid': { $exists: false } }] },
];

// @ts-expect-error a misspelt field does not compile
const misspelt: Filter<Track> = { sidd: 'a' };
// @ts-expect-error a misspelt nested field does not compile
const misspeltPath: Filter<Track> = { 'owner.partner': 'p' };
// @ts-expect-error a value of another type does not compile
const wrongValue: Filter<Track> = { kind: 'image' };
// @ts-expect-error an operator's operand is the field's type
const wrongOperand: Filter<Track> = { seconds: { $gt: 'long' } };
// @ts-expect-error inside $or too
const wrongInOr: Filter<Track> = { $or: [{ sidd: 'a' }] };

describe('typed filters', () => {
  it('reach the store unchanged: a typed collection finds what its filters say', async () => {
    const store = new SqliteDocStore();
    const tracks = store.collection<Track>('tracks');
    const since = new Date('2025-01-01T00:00:00Z');
    await tracks.insertMany([
      { sid: 'a', kind: 'audio', seconds: 3, tags: ['x'], owner: { partner_sid: 'p', since }, parts: [] },
      {
        sid: 'b',
        kind: 'video',
        seconds: null,
        tags: [],
        owner: { partner_sid: 'q', since },
        parts: [{ codec: 'opus', bytes: 10 }],
      },
    ]);
    const sids = async (f: Filter<Track>) => (await tracks.find(f, { sort: { sid: 1 } })).map((t) => t.sid);
    expect(await sids(ok[1])).toEqual(['a']);
    expect(await sids(ok[2])).toEqual(['b']);
    expect(await sids(ok[3])).toEqual(['a']);
    expect(await sids(ok[6])).toEqual(['b']);
    expect(await sids({ $or: [{ sid: 'a' }, { 'owner.partner_sid': 'q' }] })).toEqual(['a', 'b']);
    expect([misspelt, misspeltPath, wrongValue, wrongOperand, wrongInOr]).toHaveLength(5);
    await store.close();
  });
});

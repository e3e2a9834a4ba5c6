/**
 * The residual of a filter (what SQL cannot answer exactly, sqlite-filter.ts), matched in JS with
 * mingo, MongoDB's query language over plain objects. SQLite calls `pb_match(doc, id)` for each row
 * the SQL part let through; `id` names a filter registered for the one statement that runs it.
 */
import type { Database } from 'better-sqlite3';
import { Query } from 'mingo';
import type { Filter } from './port';
import { decodeDoc } from './sqlite-json';

export class ResidualMatcher {
  private readonly queries = new Map<number, Query>();
  private next = 0;

  /** Registers `pb_match` on the connection. */
  constructor(db: Database) {
    db.function('pb_match', { deterministic: false, directOnly: true }, (doc: unknown, id: unknown) => {
      const query = this.queries.get(Number(id));
      if (!query) throw new Error('pb_match: no such filter (it is only valid while its statement runs)');
      return query.test(decodeDoc(String(doc))) ? 1 : 0;
    });
  }

  /** Compiles `filter` (mingo throws on an unknown operator) and returns the id to bind. */
  register(filter: Filter): number {
    const id = ++this.next;
    this.queries.set(id, new Query(filter, {}));
    return id;
  }

  /** Forgets every registered filter: the operation that used them is over. */
  clear(): void {
    this.queries.clear();
  }
}

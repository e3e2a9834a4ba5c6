import type { Database, Statement } from 'better-sqlite3';

/**
 * Prepared statements by their SQL, reused: preparing a statement costs more than running it, and
 * every operation of the store runs several. At most `limit` are kept (emptied, not evicted one by
 * one, when a new one would pass it: SQL that embeds a list's length can vary without end). A caller
 * empties it when a table or index it prepared against is made or dropped.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly limit = 200,
  ) {}

  get(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      if (this.statements.size >= this.limit) this.statements.clear();
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  clear(): void {
    this.statements.clear();
  }
}

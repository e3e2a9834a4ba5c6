/**
 * Test runs against a MongoDB share one server: each Patchbay instance under test gets its own
 * database prefix (MONGODB_DB_PREFIX), and its databases are dropped when it stops, so a run
 * against a real MongoDB leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';

/** A fresh prefix for one instance under test: `pbt_<12 hex>`. */
export function testDbPrefix(): string {
  return `pbt_${randomBytes(6).toString('hex')}`;
}

/** Drops every database named `<prefix>_…` on the server at `url`; returns their names. */
export async function dropDatabases(url: string, prefix: string): Promise<string[]> {
  // Loaded on use: the driver costs start-up time to every test that never talks to MongoDB.
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(url);
  try {
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    const mine = databases.map((d) => d.name).filter((name) => name.startsWith(`${prefix}_`));
    for (const name of mine) await client.db(name).dropDatabase();
    return mine;
  } finally {
    await client.close();
  }
}

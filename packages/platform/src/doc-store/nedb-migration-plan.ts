/**
 * The migration of a whole data directory: every service directory under it that holds NeDB
 * datafiles (`<dataDir>/<service>/*.db`), each into its own SQLite file. Used by the command line
 * (`patchbay store migrate [--check]`); a starting service migrates its own directory itself.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { checkNedbMigration, migrateNedb, nedbCollections, type NedbMigrationReport } from './nedb-migration';

/** `<dataDir>/<service>/store.sqlite`: where a service's embedded documents live. */
export function sqliteFile(dataDir: string, service: string): string {
  return path.resolve(dataDir, service, 'store.sqlite');
}

/** The service directories with NeDB datafiles in them. */
export function nedbServices(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && nedbCollections(path.join(dataDir, e.name)).length > 0)
    .map((e) => e.name)
    .sort();
}

/** Migrates (or with `check`, only reports) every service directory of `dataDir`. */
export async function migrateDataDir(dataDir: string, opts: { check: boolean }): Promise<NedbMigrationReport[]> {
  const reports: NedbMigrationReport[] = [];
  for (const service of nedbServices(dataDir)) {
    const dir = path.resolve(dataDir, service);
    const file = sqliteFile(dataDir, service);
    const report = opts.check ? await checkNedbMigration(dir, file) : await migrateNedb(dir, file);
    if (report) reports.push(report);
  }
  return reports;
}

import type { Command } from 'commander';
import { examples } from '../help';
import { userPath } from '../paths';

/**
 * `patchbay store migrate [--check]`: the embedded store's data directory, read locally (the one
 * command that does not go through the API). Moves the NeDB datafiles of an older Patchbay into
 * SQLite, as the first start would; `--check` only reports what would move. Run it with Patchbay
 * stopped: a running process holds the data directory.
 */
export function registerStore(program: Command, print: (v: unknown) => void): void {
  const c = program.command('store').description("the embedded store's data directory (local, not over the API)");
  examples(c, 'patchbay store migrate --check');
  const migrate = c
    .command('migrate')
    .description('move NeDB datafiles (an older Patchbay) into SQLite; --check reports what would move')
    .option('--check', 'report only; write nothing')
    .option('--data-dir <dir>', 'the data directory (DATA_DIR)', process.env.DATA_DIR ?? './data')
    .action(async (o: { check?: boolean; dataDir: string }) => {
      const dataDir = userPath(o.dataDir);
      // Loaded here: the platform package (stores, bus, telemetry) would slow every other command's start.
      const { migrateDataDir } = await import('@patchbay/platform');
      const reports = await migrateDataDir(dataDir, { check: Boolean(o.check) });
      print({
        data_dir: dataDir,
        check: Boolean(o.check),
        services: reports.map((r) => ({
          directory: r.dir,
          file: r.file,
          outcome: r.outcome,
          collections: r.collections.map((c) => ({
            name: c.name,
            documents: c.documents,
            corrupt_lines: c.corruptLines,
          })),
          documents: r.collections.reduce((n, c) => n + c.documents, 0),
        })),
      });
    });
  examples(migrate, 'patchbay store migrate --check', 'patchbay store migrate --data-dir /var/lib/patchbay');
}

import { Command } from 'commander';
import type { ClientOptions } from './client';
import { registerPartner } from './commands/partner';
import { registerToken } from './commands/token';
import { registerCountries } from './commands/countries';
import { registerRecords } from './commands/records';
import { registerMedia } from './commands/media';
import { registerStore } from './commands/store';
import { registerFiles } from './commands/files';

/**
 * `pnpm patchbay …` — the admin command line. It talks to a running Patchbay over its public HTTP
 * API only, so it works the same against the all-in-one process and the distributed set.
 */
const program = new Command('patchbay')
  .description('Patchbay admin command line')
  // Options before the command are the connection's; after it, the command's (both have --login).
  .enablePositionalOptions()
  .option('--url <url>', 'API base URL (PATCHBAY_URL)', process.env.PATCHBAY_URL ?? 'http://127.0.0.1:8080/core/v2')
  .option('--token <token>', 'access token (PATCHBAY_TOKEN)', process.env.PATCHBAY_TOKEN)
  .option('--login <login>', 'login for HTTP Basic instead of a token (PATCHBAY_LOGIN)', process.env.PATCHBAY_LOGIN)
  .option('--password <password>', 'password for HTTP Basic (PATCHBAY_PASSWORD)', process.env.PATCHBAY_PASSWORD);

const clientOptions = (): ClientOptions => program.opts<ClientOptions>();
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

registerPartner(program, clientOptions, print);
registerToken(program, clientOptions, print);
registerCountries(program, clientOptions, print);
registerRecords(program, clientOptions, print);
registerMedia(program, clientOptions, print);
registerStore(program, print);
registerFiles(program, clientOptions, print);

program.parseAsync(process.argv).catch((err: unknown) => {
  // A PatchbayApiError's message is the status, the API's message and one line per field error.
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

import { Command } from 'commander';
import type { ClientOptions } from './client';
import { examples } from './help';
import { printJson } from './output';
import { registerPartner } from './commands/partner';
import { registerToken } from './commands/token';
import { registerCountries } from './commands/countries';
import { registerRecords } from './commands/records';
import { registerMedia } from './commands/media';
import { registerStore } from './commands/store';
import { registerFiles } from './commands/files';
import { registerContainers } from './commands/containers';
import { registerEndpoints } from './commands/endpoints';

export const DEFAULT_URL = 'http://127.0.0.1:8080/core/v2';

/**
 * The `patchbay` command line. It talks to a running Patchbay over its public HTTP API only (through
 * @patchbay/client), so it works the same against the all-in-one process and the distributed set.
 * Built apart from running it, so a test can walk every command (test/help.test.ts).
 */
export function buildProgram(env: NodeJS.ProcessEnv = process.env): Command {
  const program = new Command('patchbay')
    .description('Patchbay command line: containers, files, endpoints, records, partners and tokens over the API')
    // Options before the command are the connection's; after it, the command's (both have --login).
    .enablePositionalOptions()
    .option('--url <url>', 'API base URL (PATCHBAY_URL)', env.PATCHBAY_URL ?? DEFAULT_URL)
    // Secrets are read from the environment after parsing, so --help never prints them as a default.
    .option('--token <token>', 'access token (PATCHBAY_TOKEN)')
    .option('--login <login>', 'login for HTTP Basic instead of a token (PATCHBAY_LOGIN)')
    .option('--password <password>', 'password for HTTP Basic (PATCHBAY_PASSWORD)');
  examples(
    program,
    'export PATCHBAY_TOKEN=<the token pnpm start printed>',
    'patchbay files upload greeting.wav --publish',
    'patchbay records calls list --all --csv > calls.csv',
    'patchbay partner update <partner_sid> --max-containers 10',
  );
  const clientOptions = (): ClientOptions => {
    const o = program.opts<ClientOptions>();
    return {
      url: o.url,
      token: o.token ?? env.PATCHBAY_TOKEN,
      login: o.login ?? env.PATCHBAY_LOGIN,
      password: o.password ?? env.PATCHBAY_PASSWORD,
    };
  };

  registerContainers(program, clientOptions);
  registerFiles(program, clientOptions);
  registerEndpoints(program, clientOptions);
  registerRecords(program, clientOptions);
  registerPartner(program, clientOptions);
  registerToken(program, clientOptions, printJson);
  registerCountries(program, clientOptions, printJson);
  registerMedia(program, clientOptions, printJson);
  registerStore(program, printJson);
  return program;
}

/** Every command of `program` and below it (the program itself first). */
export function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap((c) => allCommands(c))];
}

import type { Command } from 'commander';
import { data, type Schemas } from '@patchbay/client';
import { apiClient, numberOption, type ClientOptions } from '../client';

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
type Scope = Schemas['Partner']['available_scopes'][number];

/** `patchbay partner create|get|list|update` */
export function registerPartner(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const partner = program.command('partner').description('manage partners (needs partners.manage)');
  partner
    .command('create')
    .requiredOption('--login <login>')
    .requiredOption('--password <password>')
    .option('--name <name>')
    .option('--scopes <scopes>', 'comma-separated scopes (default: all but partners.*)', list)
    .action(async (o: { login: string; password: string; name?: string; scopes?: string[] }) => {
      // Scope names are checked by the API (400 naming each unknown one), not here.
      const body = {
        login: o.login,
        password: o.password,
        name: o.name,
        available_scopes: o.scopes as Scope[] | undefined,
      };
      print(await data(apiClient(opts()).api.POST('/partners', { body })));
    });
  partner.command('get <partner_sid>').action(async (sid: string) => {
    print(await data(apiClient(opts()).api.GET('/partners/{partner_sid}', { params: { path: { partner_sid: sid } } })));
  });
  partner
    .command('list')
    .option('--limit <n>')
    .option('--filter <expr>')
    .action(async (o: { limit?: string; filter?: string }) => {
      print(
        await data(
          apiClient(opts()).api.GET('/partners', {
            params: { query: { limit: numberOption(o.limit), filter: o.filter } },
          }),
        ),
      );
    });
  partner
    .command('update <partner_sid>')
    .option('--name <name>')
    .option('--password <password>')
    .option('--scopes <scopes>', 'comma-separated scopes', list)
    .option('--status <status>')
    .action(async (sid: string, o: { name?: string; password?: string; scopes?: string[]; status?: string }) => {
      const body = {
        name: o.name,
        password: o.password,
        available_scopes: o.scopes as Scope[] | undefined,
        status: o.status as Schemas['PartnerUpdate']['status'],
      };
      print(
        await data(
          apiClient(opts()).api.PATCH('/partners/{partner_sid}', { params: { path: { partner_sid: sid } }, body }),
        ),
      );
    });
}

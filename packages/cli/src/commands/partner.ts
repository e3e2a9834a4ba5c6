import type { Command } from 'commander';
import { data, type Schemas } from '@patchbay/client';
import { apiClient, numberOption, scopeNames, type ClientOptions, type Scope } from '../client';

type Status = Schemas['PartnerUpdate']['status'];

/** `patchbay partner create|get|list|update` */
export function registerPartner(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const partner = program.command('partner').description('manage partners (needs partners.manage)');
  partner
    .command('create')
    .requiredOption('--login <login>')
    .requiredOption('--password <password>')
    .option('--name <name>')
    .option('--scopes <scopes>', 'comma-separated scopes (default: all but partners.*)', scopeNames)
    .action(async (o: { login: string; password: string; name?: string; scopes?: Scope[] }) => {
      const body = {
        login: o.login,
        password: o.password,
        name: o.name,
        available_scopes: o.scopes,
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
    .option('--scopes <scopes>', 'comma-separated scopes', scopeNames)
    .option('--status <status>')
    .action(
      // The status is checked by the API (400 naming it), as commander hands it over.
      async (sid: string, o: { name?: string; password?: string; scopes?: Scope[]; status?: Status }) => {
        const body = {
          name: o.name,
          password: o.password,
          available_scopes: o.scopes,
          status: o.status,
        };
        print(
          await data(
            apiClient(opts()).api.PATCH('/partners/{partner_sid}', { params: { path: { partner_sid: sid } }, body }),
          ),
        );
      },
    );
}

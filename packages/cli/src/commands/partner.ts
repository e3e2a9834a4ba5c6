import type { Command } from 'commander';
import { data, idempotent, type CallResult, type Schemas } from '@patchbay/client';
import { IDEMPOTENCY_KEY_OPTION, apiClient, numberOption, scopeNames, type ClientOptions, type Scope } from '../client';

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
    .option(...IDEMPOTENCY_KEY_OPTION)
    .action(
      async (o: { login: string; password: string; name?: string; scopes?: Scope[]; idempotencyKey?: string }) => {
        const body = {
          login: o.login,
          password: o.password,
          name: o.name,
          available_scopes: o.scopes,
        };
        const api = apiClient(opts()).api;
        print(await data(keyed(o.idempotencyKey, (headers) => api.POST('/partners', { body, headers }))));
      },
    );
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
    .option(...IDEMPOTENCY_KEY_OPTION)
    .action(
      // The status is checked by the API (400 naming it), as commander hands it over.
      async (
        sid: string,
        o: { name?: string; password?: string; scopes?: Scope[]; status?: Status; idempotencyKey?: string },
      ) => {
        const body = {
          name: o.name,
          password: o.password,
          available_scopes: o.scopes,
          status: o.status,
        };
        const api = apiClient(opts()).api;
        const params = { path: { partner_sid: sid } };
        print(
          await data(
            keyed(o.idempotencyKey, (headers) => api.PATCH('/partners/{partner_sid}', { params, body, headers })),
          ),
        );
      },
    );
}

/** A write with the key given (sent again on a failure that may pass), or as it is without one. */
function keyed<T>(
  key: string | undefined,
  send: (headers: Record<string, string>) => Promise<CallResult<T>>,
): Promise<CallResult<T>> {
  return key ? idempotent(send, { idempotencyKey: key }) : send({});
}

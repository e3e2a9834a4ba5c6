import type { Command } from 'commander';
import { data, type Schemas } from '@patchbay/client';
import { IDEMPOTENCY_KEY_OPTION, apiClient, numberOption, scopeNames, type ClientOptions, type Scope } from '../client';
import { collectSetting, integerOption } from '../fields';
import { examples } from '../help';
import { printJson } from '../output';
import { keyed } from './containers';

type Status = Schemas['PartnerUpdate']['status'];

interface UpdateFlags {
  name?: string;
  password?: string;
  scopes?: Scope[];
  status?: Status;
  maxContainers?: number;
  attribute: Array<[string, unknown]>;
  unsetAttribute: string[];
  idempotencyKey?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The partner's attributes after the change: the API replaces `attributes` whole, so the CLI reads
 * them first and changes only the names given (`--max-containers` is the attribute max_containers).
 * Undefined when no attribute is asked to change.
 */
async function changedAttributes(
  read: () => Promise<Record<string, unknown>>,
  o: UpdateFlags,
): Promise<Record<string, unknown> | undefined> {
  const set: Array<[string, unknown]> = [...o.attribute];
  if (o.maxContainers !== undefined) set.push(['max_containers', o.maxContainers]);
  if (set.length === 0 && o.unsetAttribute.length === 0) return undefined;
  const attributes = { ...(await read()) };
  for (const [name, value] of set) attributes[name] = value;
  for (const name of o.unsetAttribute) delete attributes[name];
  return attributes;
}

/** `patchbay partner create|get|list|update` */
export function registerPartner(program: Command, opts: () => ClientOptions): void {
  const partner = program.command('partner').description('manage partners (operator: needs partners.manage)');
  examples(partner, 'patchbay partner list', 'patchbay partner update <partner_sid> --max-containers 10');
  examples(
    partner
      .command('create')
      .description('a new partner (with its System Gateway endpoint and default container); prints it')
      .requiredOption('--login <login>')
      .requiredOption('--password <password>')
      .option('--name <name>')
      .option('--scopes <scopes>', 'comma-separated scopes (default: all but partners.*)', scopeNames)
      .option(
        '--attribute <name=value>',
        'a partner attribute, e.g. max_containers=10 (repeatable)',
        collectSetting,
        [],
      )
      .option(...IDEMPOTENCY_KEY_OPTION)
      .action(
        async (o: {
          login: string;
          password: string;
          name?: string;
          scopes?: Scope[];
          attribute: Array<[string, unknown]>;
          idempotencyKey?: string;
        }) => {
          const body = {
            login: o.login,
            password: o.password,
            name: o.name,
            available_scopes: o.scopes,
            attributes: o.attribute.length > 0 ? Object.fromEntries(o.attribute) : undefined,
          };
          const api = apiClient(opts()).api;
          printJson(await data(keyed(o.idempotencyKey, (headers) => api.POST('/partners', { body, headers }))));
        },
      ),
    'patchbay partner create --login acme --password "a long secret" --name Acme',
  );
  examples(
    partner
      .command('get <partner_sid>')
      .description('one partner')
      .action(async (sid: string) => {
        printJson(
          await data(apiClient(opts()).api.GET('/partners/{partner_sid}', { params: { path: { partner_sid: sid } } })),
        );
      }),
    'patchbay partner get 3f2a…',
  );
  examples(
    partner
      .command('list')
      .description('partners, one page (JSON)')
      .option('--limit <n>')
      .option('--filter <expr>')
      .action(async (o: { limit?: string; filter?: string }) => {
        const query = { limit: numberOption(o.limit), filter: o.filter };
        printJson(await data(apiClient(opts()).api.GET('/partners', { params: { query } })));
      }),
    'patchbay partner list --filter \'login eq "acme"\'',
  );
  examples(
    partner
      .command('update <partner_sid>')
      .description('change the fields and attributes given (other attributes are kept); prints the partner')
      .option('--name <name>')
      .option('--password <password>')
      .option('--scopes <scopes>', 'comma-separated scopes', scopeNames)
      .option('--status <status>', 'active or suspended')
      .option(
        '--max-containers <n>',
        'containers the partner may hold (the attribute max_containers; default 2)',
        integerOption('--max-containers', 1),
      )
      .option('--attribute <name=value>', 'set one attribute, JSON allowed (repeatable)', collectSetting, [])
      .option('--unset-attribute <name>', 'remove one attribute (repeatable)', collect, [])
      .option(...IDEMPOTENCY_KEY_OPTION)
      .action(async (sid: string, o: UpdateFlags) => {
        const api = apiClient(opts()).api;
        const params = { path: { partner_sid: sid } };
        const attributes = await changedAttributes(
          async () => (await data(api.GET('/partners/{partner_sid}', { params }))).attributes ?? {},
          o,
        );
        // The status is checked by the API (400 naming it), as commander hands it over.
        const body = { name: o.name, password: o.password, available_scopes: o.scopes, status: o.status, attributes };
        if (Object.values(body).every((v) => v === undefined))
          throw new Error('nothing to change: give --max-containers, --attribute, --name, --status, …');
        printJson(
          await data(
            keyed(o.idempotencyKey, (headers) => api.PATCH('/partners/{partner_sid}', { params, body, headers })),
          ),
        );
      }),
    'patchbay partner update 3f2a… --max-containers 10',
    'patchbay partner update 3f2a… --attribute plan=gold --unset-attribute trial',
    'patchbay partner update 3f2a… --status suspended',
  );
}

import type { Command } from 'commander';
import { data, type Schemas } from '@patchbay/client';
import { IDEMPOTENCY_KEY_OPTION, apiClient, type ClientOptions } from '../client';
import { collectSetting, defined } from '../fields';
import { examples } from '../help';
import { objectPages, pageSize } from '../lists';
import { listFormat, listOptions, printJson, printList, type ListFlags } from '../output';
import { keyed } from './containers';

const COLUMNS = ['endpoint_sid', 'type', 'name', 'capacity', 'auth_required'];

/** `patchbay endpoints list|get|create|delete` */
export function registerEndpoints(program: Command, opts: () => ClientOptions): void {
  const e = program.command('endpoints').description('voice endpoints (scopes endpoints.*)');
  examples(e, 'patchbay endpoints list', 'patchbay endpoints create --type flexml --name ivr');

  examples(
    listOptions(e.command('list').description('your endpoints'), 'endpoints')
      .option('--type <type>', 'only this type (flexml, voicemail, conference, …)')
      .option('--filter <expr>', 'e.g. \'name like "ivr%"\'')
      .action(async (o: ListFlags & { type?: string; filter?: string }) => {
        const filter = [o.type ? `type eq ${JSON.stringify(o.type)}` : '', o.filter ?? '']
          .filter(Boolean)
          .join(' and ');
        const query = { limit: pageSize(o), filter: filter || undefined };
        const pb = apiClient(opts());
        await printList(objectPages(pb, '/endpoints', query, Boolean(o.all)), listFormat(o), COLUMNS, !!o.all);
      }),
    'patchbay endpoints list --type voicemail',
    'patchbay endpoints list --all --json | jq -r ".items[].endpoint_sid"',
  );

  examples(
    e
      .command('get <endpoint_sid>')
      .description('one endpoint')
      .action(async (sid: string) => {
        const params = { path: { endpoint_sid: sid } };
        printJson(await data(apiClient(opts()).api.GET('/endpoints/{endpoint_sid}', { params })));
      }),
    'patchbay endpoints get 0b5e…',
  );

  examples(
    e
      .command('create')
      .description('a new endpoint; prints it')
      .requiredOption('--type <type>', 'conference, conference_playback, flexml, mediator, voicemail or third_party')
      .option('--name <name>')
      .option(
        '--set <field=value>',
        'any other endpoint field by its API name, JSON allowed (repeatable)',
        collectSetting,
        [],
      )
      .option(...IDEMPOTENCY_KEY_OPTION)
      .action(async (o: { type: string; name?: string; set: Array<[string, unknown]>; idempotencyKey?: string }) => {
        // why: the API checks the type and every field (a 400 naming each bad one); passed on as typed.
        const body = defined([['type', o.type], ['name', o.name], ...o.set]) as Schemas['EndpointCreate'];
        const api = apiClient(opts()).api;
        printJson(await data(keyed(o.idempotencyKey, (headers) => api.POST('/endpoints', { body, headers }))));
      }),
    'patchbay endpoints create --type flexml --name ivr',
    'patchbay endpoints create --type voicemail --name mailbox --set \'properties={"max_duration":120}\'',
  );

  examples(
    e
      .command('delete <endpoint_sid>')
      .description('delete an endpoint')
      .action(async (sid: string) => {
        const params = { path: { endpoint_sid: sid } };
        await data(apiClient(opts()).api.DELETE('/endpoints/{endpoint_sid}', { params }));
        process.stderr.write(`deleted endpoint ${sid}\n`);
      }),
    'patchbay endpoints delete 0b5e…',
  );
}

import type { Command } from 'commander';
import { data, idempotent, type CallResult, type Schemas } from '@patchbay/client';
import { IDEMPOTENCY_KEY_OPTION, apiClient, type ClientOptions } from '../client';
import { collectSetting, defined, integerOption } from '../fields';
import { examples } from '../help';
import { objectPages, pageSize } from '../lists';
import { listFormat, listOptions, printJson, printList, type ListFlags } from '../output';

type ContainerBody = Schemas['ContainerPatch'];
interface ContainerFlags {
  name?: string;
  quotaBytes?: number;
  quotaFiles?: number;
  set: Array<[string, unknown]>;
  idempotencyKey?: string;
}

const COLUMNS = ['container_sid', 'name', 'type', 'is_default', 'total_files', 'total_bytes', 'quota_bytes'];

/** The container fields from the options: the named ones, then every --set (which wins). */
function containerBody(o: ContainerFlags): ContainerBody {
  // why: the API checks the fields (a 400 naming each bad one); the CLI passes them on as typed.
  return defined([
    ['name', o.name],
    ['quota_bytes', o.quotaBytes],
    ['quota_files', o.quotaFiles],
    ...o.set,
  ]) as ContainerBody;
}

function fieldOptions(cmd: Command): Command {
  return cmd
    .option('--name <name>', 'the container name')
    .option('--quota-bytes <n>', 'most bytes it may hold', integerOption('--quota-bytes', 1))
    .option('--quota-files <n>', 'most files it may hold', integerOption('--quota-files', 1))
    .option('--set <field=value>', 'any other container field by its API name (repeatable)', collectSetting, [])
    .option(...IDEMPOTENCY_KEY_OPTION);
}

/** `patchbay containers list|get|create|update|delete` */
export function registerContainers(program: Command, opts: () => ClientOptions): void {
  const c = program.command('containers').description('storage containers (scopes storage.*)');
  examples(c, 'patchbay containers list', 'patchbay containers create --name archive --quota-bytes 104857600');

  examples(
    listOptions(c.command('list').description('your containers'), 'containers')
      .option('--filter <expr>', 'e.g. \'name like "arch%"\'')
      .action(async (o: ListFlags & { filter?: string }) => {
        const query = { limit: pageSize(o), filter: o.filter };
        const pb = apiClient(opts());
        await printList(objectPages(pb, '/storage/containers', query, Boolean(o.all)), listFormat(o), COLUMNS, !!o.all);
      }),
    'patchbay containers list',
    'patchbay containers list --all --csv > containers.csv',
  );

  examples(
    c
      .command('get <container_sid>')
      .description('one container')
      .action(async (sid: string) => {
        const params = { path: { container_sid: sid } };
        printJson(await data(apiClient(opts()).api.GET('/storage/containers/{container_sid}', { params })));
      }),
    'patchbay containers get 6f1c…',
  );

  examples(
    fieldOptions(c.command('create').description('a new container; prints it')).action(async (o: ContainerFlags) => {
      const api = apiClient(opts()).api;
      const body = containerBody(o);
      printJson(await data(keyed(o.idempotencyKey, (headers) => api.POST('/storage/containers', { body, headers }))));
    }),
    'patchbay containers create --name archive',
    'patchbay containers create --name recordings --set default_file_publish=no --set allow_publish=false',
  );

  examples(
    fieldOptions(
      c.command('update <container_sid>').description('change the fields given; prints the container'),
    ).action(async (sid: string, o: ContainerFlags) => {
      const api = apiClient(opts()).api;
      const params = { path: { container_sid: sid } };
      const body = containerBody(o);
      if (Object.keys(body).length === 0) throw new Error('nothing to change: give --name, --quota-* or --set');
      printJson(
        await data(
          keyed(o.idempotencyKey, (headers) =>
            api.PATCH('/storage/containers/{container_sid}', { params, body, headers }),
          ),
        ),
      );
    }),
    'patchbay containers update 6f1c… --quota-files 500',
  );

  examples(
    c
      .command('delete <container_sid>')
      .description('delete an empty container (a container that holds files is refused)')
      .action(async (sid: string) => {
        const params = { path: { container_sid: sid } };
        await data(apiClient(opts()).api.DELETE('/storage/containers/{container_sid}', { params }));
        process.stderr.write(`deleted container ${sid}\n`);
      }),
    'patchbay containers delete 6f1c…',
  );
}

/** A write with the key given (sent again on a failure that may pass), or as it is without one. */
export function keyed<T>(
  key: string | undefined,
  send: (headers: Record<string, string>) => Promise<CallResult<T>>,
): Promise<CallResult<T>> {
  return key ? idempotent(send, { idempotencyKey: key }) : send({});
}

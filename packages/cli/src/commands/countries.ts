import type { Command } from 'commander';
import { data } from '@patchbay/client';
import { apiClient, numberOption, type ClientOptions } from '../client';
import { examples } from '../help';

/** `patchbay countries list|get` */
export function registerCountries(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const c = program.command('countries').description('the country list');
  examples(c, 'patchbay countries list --limit 5', 'patchbay countries get FRA');
  const list = c
    .command('list')
    .description('countries, one page (JSON)')
    .option('--limit <n>')
    .option('--offset <n>')
    .option('--order <order>')
    .option('--filter <expr>')
    .action(async (o: { limit?: string; offset?: string; order?: string; filter?: string }) => {
      const query = { limit: numberOption(o.limit), offset: numberOption(o.offset), order: o.order, filter: o.filter };
      print(await data(apiClient(opts()).api.GET('/countries', { params: { query } })));
    });
  examples(list, 'patchbay countries list --filter \'region eq "Europe"\' --limit 50');
  const get = c
    .command('get <iso_3166_alpha_3>')
    .description('one country')
    .action(async (iso: string) => {
      print(
        await data(
          apiClient(opts()).api.GET('/countries/{iso_3166_alpha_3}', { params: { path: { iso_3166_alpha_3: iso } } }),
        ),
      );
    });
  examples(get, 'patchbay countries get FRA');
}

import type { Command } from 'commander';
import { call, type ClientOptions } from '../client';

/** `patchbay countries list|get` */
export function registerCountries(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const c = program.command('countries').description('the country list');
  c.command('list').option('--limit <n>').option('--offset <n>').option('--order <order>').option('--filter <expr>')
    .action(async (o: Record<string, string | undefined>) => print(await call(opts(), 'GET', '/countries', { query: o })));
  c.command('get <iso_3166_alpha_3>').action(async (iso: string) => print(await call(opts(), 'GET', `/countries/${encodeURIComponent(iso)}`)));
}

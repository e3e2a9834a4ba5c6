import type { Command } from 'commander';
import { call, type ClientOptions } from '../client';

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

/** `patchbay partner create|get|list|update` */
export function registerPartner(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const partner = program.command('partner').description('manage partners (needs partners.manage)');
  partner.command('create')
    .requiredOption('--login <login>').requiredOption('--password <password>')
    .option('--name <name>').option('--scopes <scopes>', 'comma-separated scopes (default: all but partners.*)', list)
    .action(async (o: { login: string; password: string; name?: string; scopes?: string[] }) => {
      print(await call(opts(), 'POST', '/partners', { json: { login: o.login, password: o.password, name: o.name, available_scopes: o.scopes } }));
    });
  partner.command('get <partner_sid>').action(async (sid: string) => print(await call(opts(), 'GET', `/partners/${encodeURIComponent(sid)}`)));
  partner.command('list').option('--limit <n>').option('--filter <expr>')
    .action(async (o: { limit?: string; filter?: string }) => print(await call(opts(), 'GET', '/partners', { query: { limit: o.limit, filter: o.filter } })));
  partner.command('update <partner_sid>').option('--name <name>').option('--password <password>').option('--scopes <scopes>', 'comma-separated scopes', list).option('--status <status>')
    .action(async (sid: string, o: { name?: string; password?: string; scopes?: string[]; status?: string }) => {
      print(await call(opts(), 'PATCH', `/partners/${encodeURIComponent(sid)}`, { json: { name: o.name, password: o.password, available_scopes: o.scopes, status: o.status } }));
    });
}

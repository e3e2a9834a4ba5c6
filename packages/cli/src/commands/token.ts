import type { Command } from 'commander';
import { call, type ClientOptions } from '../client';

/** `patchbay token create|list|revoke` and `patchbay whoami` */
export function registerToken(program: Command, opts: () => ClientOptions, print: (v: unknown) => void): void {
  const token = program.command('token').description('access tokens');
  token.command('create').description('password grant: a new token for --login/--password')
    .requiredOption('--login <login>').requiredOption('--password <password>')
    .option('--scopes <scopes>', 'space- or comma-separated subset of the partner scopes').option('--name <name>').option('--expires-in <seconds>')
    .action(async (o: { login: string; password: string; scopes?: string; name?: string; expiresIn?: string }) => {
      const form: Record<string, string> = { grant_type: 'password', username: o.login, password: o.password };
      if (o.name) form.name = o.name;
      if (o.expiresIn) form.access_token_expires_in = o.expiresIn;
      const body = await call({ url: opts().url }, 'POST', '/oauth/token', { form });
      if (o.scopes) {
        const t = body as { token_sid: string; access_token: string };
        await call({ url: opts().url, token: t.access_token }, 'PATCH', `/oauth/tokens/${t.token_sid}`, { json: { scopes: o.scopes.split(/[ ,]+/).filter(Boolean) } });
      }
      print(body);
    });
  token.command('list').action(async () => print(await call(opts(), 'GET', '/oauth/tokens')));
  token.command('revoke [token]').description('revoke the given token secret, or the one in use')
    .action(async (secret?: string) => { await call(opts(), 'POST', '/oauth/revoke', { form: secret ? { token: secret } : {} }); print({ revoked: true }); });
  program.command('whoami').description('the partner the credentials belong to').action(async () => print(await call(opts(), 'GET', '/oauth/whoami')));
}
